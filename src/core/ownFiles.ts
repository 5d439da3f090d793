// Files Failure Memory itself writes into a workspace: its memory, its exports and the agent hook
// files that setup writes. They are never "what fixed it" nor "what changed since the last pass":
// only the files a person or an agent changed are.

/** Hook files `failure-memory setup-agents` writes (src/agents/setup.ts targetFor; a unit test keeps the two in step). */
export const HOOK_FILES: readonly string[] = [
  '.claude/settings.json',
  '.github/hooks/failure-memory.json',
  '.cursor/hooks.json',
  '.gemini/settings.json',
  '.codex/hooks.json',
  '.clinerules/hooks/PreToolUse',
  '.clinerules/hooks/PostToolUse',
  '.clinerules/hooks/TaskStart',
  '.clinerules/hooks/UserPromptSubmit',
  '.clinerules/failure-memory.md',
  '.windsurf/hooks.json',
];

/** The memory folder (memory.json, vectors, the team outbox). */
const MEMORY_DIR = '.vscode/failure-memory/';
/** "Export Memory" and `failure-memory export > …` files, wherever they were saved. */
const EXPORT_RE = /(?:^|\/)failure-memory-export[^/]*\.json$/;

/**
 * True for a path (relative to the repository root, `/`-separated; a folder ends with `/`) that
 * Failure Memory wrote: its memory folder, an export, a hook file — or a folder git shows as new
 * that holds nothing but those (`.github/` after setup wrote `.github/hooks/failure-memory.json`).
 * Paths may be below a workspace folder inside the repository (`app/.vscode/failure-memory/x`).
 */
export function isOwnFile(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  if (EXPORT_RE.test(p)) return true;
  if (p.includes(MEMORY_DIR) || p.endsWith(MEMORY_DIR.slice(0, -1))) return true;
  for (const hook of HOOK_FILES) {
    if (p === hook || p.endsWith(`/${hook}`)) return true;
  }
  return false;
}

/**
 * True for a folder git collapsed into one entry (`.github/`) whose only files can be ours: git
 * lists an untracked folder once, so `.github/` is ours only when it is a hook file's own folder
 * chain and `ownOnly(folder)` (the store, which can look inside) says nothing else is in it.
 */
export function mayHoldOnlyOwnFiles(folder: string): boolean {
  const f = folder.replace(/\\/g, '/');
  if (!f.endsWith('/')) return false;
  const parts = f.slice(0, -1).split('/');
  // the folder, or its tail below a workspace folder, is on the way to one of our files
  for (let i = 0; i < parts.length; i++) {
    const tail = `${parts.slice(i).join('/')}/`;
    if (MEMORY_DIR.startsWith(tail) || HOOK_FILES.some(h => h.startsWith(tail))) return true;
  }
  return false;
}

/** The paths a person or an agent changed: `files` without Failure Memory's own. */
export function userFiles(files: readonly string[]): string[] {
  return files.filter(f => !isOwnFile(f));
}
