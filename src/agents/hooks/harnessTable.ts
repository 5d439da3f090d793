// The harnesses Failure Memory hooks into, in one table: what each is called in `hook <id> <event>`,
// the signs of it in a workspace, its program and the folder it keeps in HOME, the process name its
// hooks run under, its configuration files outside the workspace and the names it gives its edit
// tools. A new harness is one entry here plus its adapter (./index.ts) and its setup target
// (../setup.ts targetFor). Pure data: the hook bundles import it.

interface HarnessFacts {
  /** Files and folders at a workspace's top that tell the harness is used there (the first names it). */
  signs: readonly string[];
  /** The command its users type, and the folder it keeps in HOME (found on a machine: setup-agents offers it). */
  program?: { bin: string; home: string };
  /** Its process's program name, looked for among a hook's ancestors (the session's mode). */
  process?: RegExp;
  /** Its configuration files under HOME that can hold hooks or switch them off. */
  userConfigs: readonly string[];
  /** Its edit tools, by the name it gives them. */
  editTools: readonly string[];
}

export const HARNESS_TABLE = {
  vscode: {
    signs: ['.vscode'],
    userConfigs: [],
    editTools: ['editFiles', 'createFile', 'create_file', 'insert_edit_into_file', 'replace_string_in_file', 'multi_replace_string_in_file', 'apply_patch', 'edit_notebook_file', 'edit_file'],
  },
  claude: {
    signs: ['.claude', 'CLAUDE.md'],
    program: { bin: 'claude', home: '.claude' },
    process: /^claude(?:\.exe)?$/,
    userConfigs: ['.claude/settings.json', '.claude/settings.local.json'],
    editTools: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  },
  copilot: {
    signs: ['.github/copilot-instructions.md', '.github/hooks', '.github/agents'],
    program: { bin: 'copilot', home: '.copilot' },
    process: /^copilot(?:\.exe)?$/,
    userConfigs: ['.copilot/config.json'],
    editTools: ['edit', 'create', 'write', 'str_replace_editor', 'apply_patch', 'create_file', 'replace_string_in_file', 'insert_edit_into_file', 'multi_replace_string_in_file', 'editFiles'],
  },
  cursor: {
    signs: ['.cursor', '.cursorrules'],
    program: { bin: 'cursor-agent', home: '.cursor' },
    userConfigs: ['.cursor/hooks.json'],
    editTools: ['afterFileEdit'],
  },
  gemini: {
    signs: ['.gemini', 'GEMINI.md'],
    program: { bin: 'gemini', home: '.gemini' },
    process: /^gemini(?:\.js)?$/,
    userConfigs: ['.gemini/settings.json'],
    editTools: ['write_file', 'replace', 'edit'],
  },
  codex: {
    signs: ['.codex'],
    program: { bin: 'codex', home: '.codex' },
    userConfigs: ['.codex/hooks.json', '.codex/config.toml'],
    editTools: ['apply_patch', 'Edit', 'Write'],
  },
  cline: {
    signs: ['.clinerules', '.clineignore'],
    program: { bin: 'cline', home: '.cline' },
    userConfigs: [],
    editTools: ['editor', 'apply_patch', 'write_to_file', 'replace_in_file', 'apply_diff', 'insert_content'],
  },
  windsurf: {
    signs: ['.windsurf', '.windsurfrules'],
    userConfigs: ['.codeium/windsurf/hooks.json'],
    editTools: [],
  },
} as const satisfies Record<string, HarnessFacts>;

export type HarnessId = keyof typeof HARNESS_TABLE;
/** The harnesses, in the table's order. */
export const HARNESS_IDS = Object.keys(HARNESS_TABLE) as readonly HarnessId[];

/** A harness's facts, typed as the table's row (absent fields undefined). */
export const harnessFacts = (id: HarnessId): HarnessFacts => HARNESS_TABLE[id];
