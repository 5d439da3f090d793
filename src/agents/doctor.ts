// `failure-memory doctor`: for each harness set up in a workspace, is its gate active, and if not,
// the exact step that turns it on. A gate that is silently off is the worst state this product can
// be in, and each harness has its own way of skipping a project's hooks without a word:
//   - the launcher the hook commands call is missing, or points at a Failure Memory that is gone;
//   - Codex loads .codex/ only in a trusted project, and runs a hook only after it was reviewed (/hooks);
//   - Gemini CLI loads .gemini/settings.json only in a trusted folder;
//   - Copilot CLI loads repository hooks in a trusted folder, and under -p only with
//     GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true;
//   - Claude Code skips every hook with "disableAllHooks": true.
// The launcher is probed for real (it runs one hook call); the rest is read from each harness's own
// configuration files, as each harness documents them.

import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { JSONPath, Node } from 'jsonc-parser';
import { tamperLines, type TamperId } from './doctorTamper';
import { HARNESSES } from './hooks';
import { parseJsonc, splitBom, valueAt } from './jsoncEdit';
import { HARNESS_IDS, type HarnessId } from './hooks/types';
import { launcherDir, launcherTampered, readLauncher, repairLauncher, type LauncherTarget } from './launcher';
import { userCommand } from './userCommand';
import { targetFor } from './setup';
import { planSetup } from './setupFiles';
import { readRegularSync } from '../store/regularFile';

export type DoctorStatus = 'active' | 'off' | 'check';

export interface DoctorLine {
  id: 'launcher' | TamperId | HarnessId;
  title: string;
  status: DoctorStatus;
  /** What was found. */
  detail: string;
  /** What to do (off and check only). */
  steps: string[];
  /** What was found, one sentence each (what was done to the gate). */
  notes?: string[];
}

export interface DoctorOptions {
  /** Harnesses to report; default: those set up in the workspace. */
  harnesses?: HarnessId[];
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Run the launcher once (default true). */
  probe?: boolean;
  /** What a launcher that is not Failure Memory's is written again for, when the one it names is gone (the CLI's own). */
  launcher?: LauncherTarget;
  /** How the user runs `failure-memory` here (default: its name on PATH, else the launcher's path). */
  cli?: string;
}

const readText = (file: string): string | undefined => {
  try {
    return readRegularSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** A JSONC file's tree (a byte order mark read past, a file nested too deeply refused), or undefined. */
function readTree(file: string): Node | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  const tree = parseJsonc(splitBom(text).body);
  return 'root' in tree ? tree.root : undefined;
}

/** JSON with // comment lines (Copilot's config.json starts with some): the object at `path`, or undefined. */
function readJsonLoose(file: string, path: JSONPath = []): Record<string, unknown> | undefined {
  const root = readTree(file);
  const v = root ? valueAt(root, path) : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `dir` and every folder above it. */
function selfAndAncestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

const inside = (outer: string, inner: string) => inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);

/** The harnesses whose files hold Failure Memory's entries (all of them in place). */
export function configuredHarnesses(workspace: string): HarnessId[] {
  return HARNESS_IDS.filter(h => {
    const changes = planSetup(workspace, { harnesses: [h] }).filter(c => c.action !== 'skip');
    return changes.length > 0 && changes.some(c => c.action === 'unchanged');
  });
}

function launcherLine(env: NodeJS.ProcessEnv, home: string, probe: boolean, cli: string, fallback?: LauncherTarget): DoctorLine {
  const title = 'failure-memory launcher';
  const custom = env.FAILURE_MEMORY_BIN;
  // not Failure Memory's (replaced, edited): written again, for the install it names or this one
  const repaired = custom ? undefined : repairLauncher(fallback, launcherDir(home));
  const state = readLauncher(launcherDir(home));
  const file = custom || state.file;
  const fix = `run \`${cli} setup-agents\` in the workspace (it writes the launcher), or open VS Code with the Failure Memory extension`;
  if (repaired && launcherTampered(repaired.before, fallback?.version)) {
    const again = repaired.after.ours ? `written again${repaired.after.dist ? ` (→ ${repaired.after.dist})` : ''}` : 'could not be written again: no working Failure Memory to point it at';
    return { id: 'launcher', title, status: repaired.after.ours ? 'check' : 'off', detail: `${file} was not Failure Memory's (changed or replaced: every hook could pass without a word): ${again}`, steps: repaired.after.ours ? ['look at what ran in your agent sessions: something wrote into ~/.failure-memory/bin'] : [fix] };
  }
  if (!custom && !state.exists) return { id: 'launcher', title, status: 'off', detail: `${file} is missing: every hook says the gate is off`, steps: [fix] };
  if (!custom && !state.distOk) return { id: 'launcher', title, status: 'off', detail: `${file} points at ${state.dist ?? '?'}, which is gone`, steps: [fix] };
  if (probe) {
    const r = spawnSync(file, ['hook', 'claude', 'pre'], { input: '{}', encoding: 'utf8', timeout: 20_000, env: { ...env, HOME: home } });
    if (r.error || r.status !== 0) {
      const why = r.error?.message ?? (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n')[0];
      return { id: 'launcher', title, status: 'off', detail: `${file} does not answer a hook call: ${why}`, steps: [fix] };
    }
  }
  return { id: 'launcher', title, status: 'active', detail: `${file}${state.dist && !custom ? ` → ${state.dist}` : ''}`, steps: [] };
}

/** The project trust Codex needs before it loads .codex/: [projects."<dir>"] trust_level = "trusted". */
function codexTrusted(workspace: string, configToml: string): boolean {
  // line by line (a TOML table runs until the next header): no regex spanning lines
  const trusted: string[] = [];
  let project: string | undefined;
  for (const raw of configToml.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const m = /^\[projects\."((?:[^"\\]|\\.)*)"\]$/.exec(line);
      project = m ? m[1].replace(/\\(.)/g, '$1') : undefined;
    } else if (project !== undefined && /^trust_level\s*=\s*"trusted"/.test(line)) trusted.push(project);
  }
  return selfAndAncestors(workspace).some(d => trusted.includes(d));
}

function codexLine(workspace: string, env: NodeJS.ProcessEnv, home: string): Omit<DoctorLine, 'id' | 'title'> {
  const codexHome = env.CODEX_HOME || join(home, '.codex');
  const config = readText(join(codexHome, 'config.toml')) ?? '';
  const steps: string[] = [];
  if (config.split('\n').some(l => /^(?:codex_)?hooks\s*=\s*false/.test(l.trim()))) {
    return { status: 'off', detail: `hooks are turned off in ${join(codexHome, 'config.toml')}`, steps: ['remove `hooks = false` from [features] in config.toml'] };
  }
  if (!codexTrusted(workspace, config)) {
    steps.push(`trust the project: start \`codex\` in ${workspace} and accept the trust prompt (or \`codex exec --trust\`, or add [projects."${workspace}"] trust_level = "trusted" to ${join(codexHome, 'config.toml')})`);
  }
  steps.push('review the hooks once: run `/hooks` in codex and trust the Failure Memory entries (`codex exec` skips unreviewed hooks without a word; automation that vets its hooks: --dangerously-bypass-hook-trust)');
  return steps.length > 1
    ? { status: 'off', detail: 'Codex loads .codex/hooks.json only in a trusted project, and this one is not trusted', steps }
    : { status: 'check', detail: 'project trusted; Codex runs a hook only once you reviewed it (not visible from outside Codex)', steps };
}

function geminiLine(workspace: string, env: NodeJS.ProcessEnv, home: string): Omit<DoctorLine, 'id' | 'title'> {
  const settings = readJsonLoose(join(home, '.gemini', 'settings.json')) ?? {};
  const folderTrust = ((settings.security as Record<string, unknown> | undefined)?.folderTrust as Record<string, unknown> | undefined)?.enabled;
  if (folderTrust === false) return { status: 'active', detail: 'folder trust is off in ~/.gemini/settings.json: project hooks load everywhere', steps: [] };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return { status: 'active', detail: 'GEMINI_CLI_TRUST_WORKSPACE=true: this folder is trusted', steps: [] };
  const trusted = readJsonLoose(join(home, '.gemini', 'trustedFolders.json')) ?? {};
  const ws = resolve(workspace);
  let verdict: string | undefined;
  for (const [path, level] of Object.entries(trusted)) {
    const p = resolve(path);
    if ((level === 'TRUST_FOLDER' && inside(p, ws)) || (level === 'TRUST_PARENT' && inside(dirname(p), ws))) verdict ??= 'trusted';
    if (level === 'DO_NOT_TRUST' && inside(p, ws)) verdict = 'untrusted';
  }
  if (verdict === 'trusted') return { status: 'active', detail: 'the folder is trusted (~/.gemini/trustedFolders.json)', steps: [] };
  return {
    status: 'off',
    detail: verdict === 'untrusted' ? 'the folder is marked "don\'t trust": Gemini CLI ignores .gemini/settings.json here' : 'the folder is not trusted: Gemini CLI ignores .gemini/settings.json (and its hooks) here',
    steps: ['trust the folder: start `gemini` here and choose "Trust folder" (or `/permissions`); headless runs: GEMINI_CLI_TRUST_WORKSPACE=true'],
  };
}

function copilotLine(workspace: string, env: NodeJS.ProcessEnv, home: string): Omit<DoctorLine, 'id' | 'title'> {
  const config = readJsonLoose(join(env.COPILOT_HOME || join(home, '.copilot'), 'config.json')) ?? {};
  const list = [config.trustedFolders, config.trusted_folders].flatMap(v => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []));
  const trusted = list.some(p => inside(resolve(p), resolve(workspace)));
  const promptMode = env.GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS === 'true' || env.COPILOT_ALLOW_ALL === 'true';
  const steps: string[] = [];
  if (!trusted) steps.push('interactive sessions: start `copilot` here and trust the folder for future sessions (repository hooks load only in a trusted folder)');
  if (!promptMode) steps.push('`copilot -p` (prompt mode): set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true, or repository hooks are not loaded');
  // either one loads the hooks: the gate is on where it is (the steps say where it is not yet)
  const where = trusted && promptMode ? 'interactive sessions and `copilot -p`' : trusted ? 'interactive sessions (not `copilot -p`)' : promptMode ? '`copilot -p` (GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true; not interactive sessions until the folder is trusted)' : '';
  const detail = where ? `on for ${where}` : 'folder not trusted, and prompt mode does not load repository hooks';
  return { status: where ? 'active' : 'off', detail, steps };
}

function claudeLine(workspace: string, home: string): Omit<DoctorLine, 'id' | 'title'> {
  const files = [join(workspace, '.claude', 'settings.json'), join(workspace, '.claude', 'settings.local.json'), join(home, '.claude', 'settings.json')];
  const off = files.find(f => {
    const root = readTree(f);
    return root !== undefined && valueAt(root, ['disableAllHooks']) === true;
  });
  if (off) return { status: 'off', detail: `"disableAllHooks": true in ${off}`, steps: [`remove "disableAllHooks" from ${off}`] };
  return { status: 'active', detail: 'Claude Code runs the project hooks of .claude/settings.json', steps: [] };
}

function harnessLine(h: HarnessId, workspace: string, env: NodeJS.ProcessEnv, home: string): Omit<DoctorLine, 'id' | 'title'> {
  switch (h) {
    case 'claude':
      return claudeLine(workspace, home);
    case 'codex':
      return codexLine(workspace, env, home);
    case 'gemini':
      return geminiLine(workspace, env, home);
    case 'copilot':
      return copilotLine(workspace, env, home);
    case 'cline':
      return process.platform === 'win32'
        ? { status: 'off', detail: 'Cline has no hooks on Windows', steps: ['use the MCP server (docs/agents.md)'] }
        : { status: 'active', detail: 'hook scripts in .clinerules/hooks; the summary in .clinerules/failure-memory.md', steps: [] };
    case 'vscode':
      return { status: 'check', detail: "VS Code's agent hooks are a Preview feature; the terminal tool's runs are recorded by the extension", steps: ['in VS Code: enable `chat.useHooks` if your version has it off, and install the Failure Memory extension (it records the agent\'s terminal runs)'] };
    default:
      return { status: 'active', detail: 'hook entries in place', steps: [] };
  }
}

/** The launcher, then one line per harness set up here (or asked for). */
export function diagnose(workspace: string, opts: DoctorOptions = {}): DoctorLine[] {
  const env = opts.env ?? process.env;
  const home = opts.home ?? homedir();
  const cli = opts.cli ?? userCommand(env, home);
  const launcher = launcherLine(env, home, opts.probe ?? true, cli, opts.launcher);
  const configured = configuredHarnesses(workspace);
  // what was done to the gate (its state, the code cache, overrides, entries taken out), then each harness
  const tamper = tamperLines(workspace, env, home);
  const lines: DoctorLine[] = [launcher, ...tamper];
  for (const h of opts.harnesses ?? configured) {
    if (tamper.some(l => l.id === h)) continue;
    const title = HARNESSES[h].title;
    if (!configured.includes(h)) {
      const t = targetFor(h);
      const file = t.kind === 'json' ? t.file : Object.keys(t.files)[0];
      lines.push({ id: h, title, status: 'off', detail: `no Failure Memory entries in ${file}`, steps: [`run \`${cli} setup-agents --harness ${h}\``] });
      continue;
    }
    const own = harnessLine(h, workspace, env, home);
    if (launcher.status === 'off') lines.push({ id: h, title, status: 'off', detail: `its hooks call the launcher, which does not work (${launcher.detail})`, steps: [...launcher.steps, ...own.steps] });
    else lines.push({ id: h, title, ...own });
  }
  return lines;
}

const MARK: Record<DoctorStatus, string> = { active: '✓', off: '✗', check: '?' };
const TAMPER_IDS: ReadonlySet<string> = new Set<TamperId>(['state', 'cache', 'env']);
const TAMPER_WORD: Record<DoctorStatus, string> = { active: 'intact', off: 'changed behind Failure Memory\'s back', check: 'tampered with, and undone or to look at' };

/** One line per entry (and one per step under it), for a person. */
export function describeDiagnosis(lines: DoctorLine[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const state = l.status === 'active' ? 'gate active' : l.status === 'off' ? 'gate OFF' : 'gate active once you did this';
    const word = l.id === 'launcher' ? (l.status === 'active' ? 'works' : 'does not work') : TAMPER_IDS.has(l.id) ? TAMPER_WORD[l.status] : state;
    out.push(`${MARK[l.status]} ${l.title}: ${word} — ${l.detail}`);
    for (const n of l.notes ?? []) out.push(`    ${n}`);
    for (const s of l.steps) out.push(`    step: ${s}`);
  }
  return out;
}
