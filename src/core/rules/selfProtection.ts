// What an agent may not run because it would take a decision away from the user: unblocking,
// clearing or forging results through Failure Memory's own CLI (by any name: a copy of the launcher,
// `sh <launcher>`, `node <dist>/hook.js`, arguments from stdin), and writing, moving or deleting
// Failure Memory's files wherever a line reaches them from: the memory folder, ~/.failure-memory (the
// launcher and the code cache), the code the hooks run, its settings in .vscode/settings.json and the
// harness configurations that hold or could disable the gate's hooks. ./lineFacts.ts reads what the
// line does; ./reach.ts what its code and files name. What the gate cannot follow (a line past the
// reading limits, code, a script, an archive) is refused when it names any of those files or keys.

import { DANGEROUS_SUBS, base, isVariable, lineFacts, placePath, type LineFacts, type Where, type WriteOp } from './lineFacts';
import { relation } from './pathMatch';
import { codeWrites, namesAny, namesIn, normalised as namesText, pathCandidates, type Names } from './reach';

export { lineFacts } from './lineFacts';
export { relation } from './pathMatch';

export type RefusalCode =
  | 'user-only' | 'forged-result' | 'hook-by-agent' | 'learning-as-user' | 'unknown-program' | 'memory-files' | 'settings' | 'gate-config'
  | 'own-code' | 'cannot-tell';

export interface Refusal {
  code: RefusalCode;
  /** The deny reason for the model: what was refused, why, and what to do instead. */
  reason: string;
}

const GLOBAL_VALUE_OPTIONS = new Set(['--workspace', '--threshold']);
const INTERRUPT_CODES = new Set([129, 130, 131, 143, 148]);

// ---------------------------------------------------------------------------------------------
// The verdict
// ---------------------------------------------------------------------------------------------

/** The user's protected files, as the caller finds them on disk (asked only when a write touches them). */
export interface Protected {
  /** Absolute memory folder (<workspace>/.vscode/failure-memory). */
  memoryDir: string;
  /** Absolute .vscode/settings.json. */
  settings: string;
  /** Does settings.json set any failureMemory.* value now? */
  settingsHaveOurs: () => boolean;
  /**
   * Absolute paths of the harness configurations that hold Failure Memory's hook entries; with
   * `near`, only of those it accepts (the others are not read).
   */
  gateConfigs: (near?: (config: string) => boolean) => string[];
  /** Failure Memory's own folders outside the workspace: ~/.failure-memory (launcher, code cache), the code the hooks run. */
  ownDirs?: readonly string[];
  /** Every harness configuration that holds or could disable the hooks (project and user level, absolute). */
  harnessConfigs?: readonly string[];
  /** Are agent gates set up in this workspace (then all of harnessConfigs are protected, and `record` is the harness's). */
  gatesSetUp?: () => boolean;
  /** settings.json is not clean JSON now (the first half of a two-step write). */
  settingsBroken?: () => boolean;
  /** The text of a file the line runs or unpacks (bounded, an archive's names readable), undefined when it cannot be read. */
  fileText?: (path: string) => string | undefined;
  /** A path with the links of its existing part resolved (a link in the workspace may point into a protected folder). */
  realPath?: (path: string) => string;
  /** Would this git command change one of `files` (absolute)? The one it would change, else undefined. */
  gitChanges?: (git: LineFacts['git'][number], files: readonly string[]) => string | undefined;
}

const NOT_RUN = 'Failure Memory: NOT RUN —';
const INSTEAD = 'Instead: fix the cause of the failure and try a different approach, or ask the user.';
const CLI_TEXT = /remembers failing commands so you \(or your agent\)|failure-memory launcher \(Failure Memory/;
/** The hook bundles' usage line, and dist/hook.js's list of the bundles it runs (as esbuild prints it). */
const HOOK_TEXT = /Usage: failure-memory hook <harness> <event>|\["hook-main\.js","hook-post\.js","hook-record\.js"\]/;
/** Text that only Failure Memory's own launcher and bundles hold. */
const OUR_CODE = new RegExp(`${CLI_TEXT.source}|${HOOK_TEXT.source}`);
const CLI_PROGRAM = /^(?:failure-memory(?:\.(?:cmd|exe|js|ps1))?|(?:cli|hook|hook-main|hook-post)\.js)$/;
const CLI_DECIDING = /^(?:resolve|allow|clear|record|hook|post|edit)$/;

/** Our CLI run from code (`subprocess.run(['failure-memory', 'resolve'])`, `execSync('node dist/hook.js claude post')`): one of its deciding subcommands within a few words of it. */
function cliInCode(code: string): boolean {
  const words = namesText(code).split(/[\s/,()[\];]+/);
  for (let k = 0; k < words.length; k++) {
    if (!CLI_PROGRAM.test(words[k])) continue;
    for (let j = k + 1; j < words.length && j <= k + 7; j++) if (CLI_DECIDING.test(words[j])) return true;
  }
  return false;
}

/** Why an agent may not run `failure-memory <sub>` (resolve, allow, clear). */
export function userOnlyReason(sub: string): string {
  return [
    `${NOT_RUN} \`failure-memory ${sub}\` is for the user, not for an agent.`,
    "Unblocking an exhausted approach or clearing the memory is the user's decision (the Failure Memory dialog, panel or command palette, or their own terminal).",
    INSTEAD,
  ].join('\n');
}

/** The subcommand of a call of our CLI (global options skipped), or undefined. */
function subOf(args: readonly string[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (GLOBAL_VALUE_OPTIONS.has(a)) k++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** The refusal for one call of our CLI by an agent, if any. `gated`: agent gates are set up in this workspace. */
function cliRefusal(call: LineFacts['cli'][number], gated: () => boolean): Refusal | undefined {
  const args = call.args;
  const sub = subOf(args);
  if (call.stdinArgs && (sub === undefined || isVariable(sub))) {
    return { code: 'unknown-program', reason: `${NOT_RUN} this runs Failure Memory's CLI with arguments read from stdin, so the gate cannot tell which subcommand it runs; some are only the user's.\nName the subcommand plainly (check, recall, list…). ${INSTEAD}` };
  }
  if (sub === undefined) return undefined;
  if (call.known && isVariable(sub)) {
    return { code: 'unknown-program', reason: `${NOT_RUN} Failure Memory cannot tell which of its subcommands \`${sub.slice(0, 80)}\` stands for; some are only the user's.\nName the subcommand plainly (check, recall, list…). ${INSTEAD}` };
  }
  if (!call.known && !DANGEROUS_SUBS.has(sub)) return undefined;
  if (!call.known) {
    return {
      code: 'unknown-program',
      reason: `${NOT_RUN} Failure Memory cannot tell what \`${call.program.slice(0, 80)}\` runs, and \`${sub}\` is one of its own subcommands that only the user (or the harness) may run.\nRun the command with the program named plainly, or ask the user. ${INSTEAD}`,
    };
  }
  return subRefusal(sub, args, gated);
}

function subRefusal(sub: string, args: readonly string[], gated: () => boolean): Refusal | undefined {
  const value = (name: string) => {
    for (let k = 0; k < args.length; k++) {
      if (args[k] === name) return args[k + 1];
      if (args[k].startsWith(`${name}=`)) return args[k].slice(name.length + 1);
    }
    return undefined;
  };
  switch (sub) {
    case 'resolve': case 'allow': case 'clear':
      return { code: 'user-only', reason: userOnlyReason(sub) };
    case 'setup-agents':
      return args.includes('--remove') ? { code: 'user-only', reason: userOnlyReason('setup-agents --remove') } : undefined;
    case 'hook':
      return { code: 'hook-by-agent', reason: `${NOT_RUN} \`failure-memory hook\` is what the agent's harness runs around each tool call; an agent calling it itself would report results nobody saw.\n${INSTEAD}` };
    case 'record': case 'edit': {
      if (gated()) return { code: 'forged-result', reason: `${NOT_RUN} the agent gate's hooks record what runs in this workspace; a result or an edit reported by the agent itself (\`failure-memory ${sub}\`) would be evidence nobody saw.\n${INSTEAD}` };
      if (sub === 'edit') return undefined;
      const code = value('--exit-code');
      const n = code !== undefined && /^-?\d{1,10}$/.test(code.trim()) ? Number(code) : undefined;
      if (n !== undefined && n !== 0 && !INTERRUPT_CODES.has(n)) return undefined;
      return {
        code: 'forged-result',
        reason: `${NOT_RUN} an agent may report a failure with \`failure-memory record\`, never a success or an unknown result: the harness's own hook records what really ran (exit ${code ?? 'not given'} is not accepted here).\n${INSTEAD}`,
      };
    }
    case 'learn':
      return value('--source') === 'agent'
        ? undefined
        : { code: 'learning-as-user', reason: `${NOT_RUN} a learning added by an agent must say so: add \`--source agent\` to \`failure-memory learn\` (without it the learning would read as written by the user).` };
    default:
      return undefined;
  }
}

/**
 * Why the pre hook refuses this line, or undefined. `where` places relative paths; `prot` is asked
 * about the user's files only when the line touches them.
 */
export function selfProtectionRefusal(line: string, where: Where, prot?: Protected, depth = 0): Refusal | undefined {
  const facts = lineFacts(line, where);
  // asked only for a call that needs it (record, edit): reading the harness configurations costs
  let known: boolean | undefined;
  const gated = () => (known ??= !!prot?.gatesSetUp?.());
  for (const call of facts.cli) {
    const r = cliRefusal(call, gated);
    if (r) return r;
  }
  if (!prot) return undefined;
  // in a script's text (depth > 0) a path built on a variable the gate cannot know is no evidence either way
  return (
    runsRefusal(facts, where, prot, gated, depth) ??
    copyRefusal(facts.copies, prot) ??
    writeRefusal(depth > 0 ? facts.writes.filter(w => !/[$`]/.test(w.path)) : facts.writes, facts.namesOurSettings, prot) ??
    codeRefusal(facts, where, prot, depth === 0) ??
    extractRefusal(facts, prot) ??
    gitRefusal(facts, prot) ??
    // what a line names decides where its paths cannot; a script's text (depth > 0) is judged by its paths only
    (depth > 0 ? undefined : looseRefusal(line, facts, prot))
  );
}

function looseRefusal(line: string, facts: LineFacts, prot: Protected): Refusal | undefined {
  return (
    (facts.partial ? namesRefusal(namesIn(line), prot, 'cannot-tell') : undefined) ??
    (facts.namesMemory ? memoryRefusal('edit') : undefined) ??
    (facts.namesSettings && (facts.namesOurSettings || prot.settingsHaveOurs()) ? settingsRefusal() : undefined)
  );
}

/** Is this file one of Failure Memory's own programs (by its name or folder, else by its content)? */
function isOurs(path: string, prot: Protected, text: string | undefined): boolean {
  if (/^failure-memory(?:\.(?:cmd|exe|ps1))?$/.test(base(path))) return true;
  if ((prot.ownDirs ?? []).some(d => relation(path, d) === 'inside')) return /\.[cm]?js$|\/bin\//.test(path);
  return text !== undefined && OUR_CODE.test(text.slice(0, 1024 * 1024));
}

/** Files the line runs: ours under another name (judged as our CLI), shell scripts (read as lines), others (by what they name). */
function runsRefusal(facts: LineFacts, where: Where, prot: Protected, gated: () => boolean, depth: number): Refusal | undefined {
  for (const run of facts.runs.slice(0, 8)) {
    const text = prot.fileText?.(run.path);
    if (isOurs(run.path, prot, text)) {
      // a hook bundle (by its name or its text, not the CLI's) takes `<harness> <event>`
      const hook = (/^hook[\w-]*\.[cm]?js$/.test(base(run.path)) || (text !== undefined && !CLI_TEXT.test(text) && HOOK_TEXT.test(text))) && run.args[0] !== 'hook';
      const r = cliRefusal({ args: [...(hook ? ['hook'] : []), ...run.args], program: run.path, known: true }, gated);
      if (r) return r;
      continue;
    }
    if (text === undefined) continue;
    const shell = run.shell || /^#!.*\b(?:sh|bash|zsh|dash|ksh)\b/.test(text.slice(0, 128));
    if (shell && depth < 2) {
      const r = selfProtectionRefusal(text, { ...where, workspace: run.dir, cwd: '.' }, prot, depth + 1);
      if (r) return r.code === 'cannot-tell' ? r : { ...r, reason: `${r.reason}\n(This is what the script ${base(run.path)} would do.)` };
    } else if (codeWrites(text)) {
      // a script is judged by the paths it spells from its own folder, not by every name it mentions
      // (a test suite names .vscode/failure-memory under a temporary folder of its own)
      const files = protectedFiles(prot);
      const reach = codePaths(text, run.dir, where, true).filter(w => files.some(f => relation(w.path, f) === 'same' || relation(w.path, f) === 'inside'));
      const r = writeRefusal(reach, false, prot, true);
      if (r) return r.code === 'memory-files' || r.code === 'settings' ? { ...r, reason: `${r.reason}\n(This is what the script ${base(run.path)} would do.)` } : r;
    }
  }
  return undefined;
}

/** A copy of our launcher or hook code: run under another name it would be our CLI unrecognised. */
function copyRefusal(copies: readonly string[], prot: Protected): Refusal | undefined {
  const ours = copies.find(c => isOurs(c, prot, undefined));
  return ours === undefined ? undefined : ownCodeRefusal(`a copy of ${base(ours)}`);
}

/** Code an interpreter runs: the paths its literals build, and what it names when it writes at all. */
function codeRefusal(facts: LineFacts, where: Where, prot: Protected, loose: boolean): Refusal | undefined {
  for (const code of facts.code.slice(0, 16)) {
    const writes = codeWrites(code.text);
    const names = namesIn(code.text);
    if (cliInCode(code.text)) return { code: 'user-only', reason: userOnlyReason('(from code)').replace('`failure-memory (from code)`', "Failure Memory's CLI run from code") };
    if (!writes) continue;
    const paths = codePaths(code.text, code.dir, where, false);
    const r = writeRefusal(paths, facts.namesOurSettings || names.ourKey, prot, true) ?? (loose ? namesRefusal(names, prot, 'cannot-tell', 'this code') : undefined);
    if (r) return r;
  }
  return undefined;
}

/** The paths a program's code may write, placed from the folder it runs in. */
function codePaths(code: string, dir: string, where: Where, anchoredOnly: boolean): LineFacts['writes'] {
  return pathCandidates(code, anchoredOnly)
    .filter(c => /[/\\]|^\.[\w-]|^~/.test(c) || /^(?:failure-memory|settings\.json|hooks\.json|settings\.local\.json)$/i.test(c))
    .map(c => ({ path: placePath(c, dir, where), op: 'write' as WriteOp }));
}

/** An archive unpacked over a folder that holds a protected file: refused when the archive names one. */
function extractRefusal(facts: LineFacts, prot: Protected): Refusal | undefined {
  for (const x of facts.extracts.slice(0, 8)) {
    if (!protectedFiles(prot).some(p => relation(x.dest, p) === 'ancestor' || relation(x.dest, p) === 'same')) continue;
    const text = x.archive ? prot.fileText?.(x.archive) : undefined;
    if (text === undefined) continue;
    const r = namesRefusal(namesIn(text), prot, 'cannot-tell', `the archive ${base(x.archive)}`);
    if (r) return r;
  }
  return undefined;
}

/** A git command that rewrites the work tree, where it would change a protected file (git is asked). */
function gitRefusal(facts: LineFacts, prot: Protected): Refusal | undefined {
  if (!facts.git.length || !prot.gitChanges) return undefined;
  const files = protectedFiles(prot);
  for (const g of facts.git.slice(0, 8)) {
    const hit = prot.gitChanges(g, files);
    if (hit === undefined) continue;
    if (relation(hit, prot.memoryDir)) return memoryRefusal('write');
    if (relation(hit, prot.settings)) return settingsRefusal();
    return gateConfigRefusal(hit);
  }
  return undefined;
}

/** Every protected path, absolute. */
function protectedFiles(prot: Protected): string[] {
  const configs = prot.gatesSetUp?.() ? [...(prot.harnessConfigs ?? [])] : prot.gateConfigs();
  return [prot.memoryDir, prot.settings, ...configs, ...(prot.ownDirs ?? [])];
}

/** The refusal for a text the gate cannot follow (a line past its limits, code, a script, an archive) that names a protected file or key. */
function namesRefusal(n: Names, prot: Protected, code: RefusalCode, what = 'this line'): Refusal | undefined {
  if (!namesAny(n) && !n.settingsFile) return undefined;
  const gated = !!prot.gatesSetUp?.() || prot.gateConfigs().length > 0;
  const named = n.memory
    ? "Failure Memory's own files (.vscode/failure-memory)"
    : n.ownHome
      ? "Failure Memory's launcher or code cache (~/.failure-memory)"
      : n.gateConfig && gated
        ? `the agent gate's configuration (${n.gateConfig})`
        : n.settingsFile && (n.ourKey || prot.settingsHaveOurs())
          ? "Failure Memory's settings (.vscode/settings.json)"
          : undefined;
  if (!named) return undefined;
  return {
    code,
    reason: `${NOT_RUN} Failure Memory cannot tell what ${what} writes (it is longer, deeper or more indirect than the gate reads), and it names ${named}, which only the user changes.\nWrite the command plainly, without touching those files. ${INSTEAD}`,
  };
}

/** The refusal for writes that touch the memory folder, Failure Memory's settings, its own code or its hook entries. */
export function writeRefusal(all: LineFacts['writes'], namesOurSettings: boolean, prot: Protected, fromCode = false): Refusal | undefined {
  // a line of 25,000 redirections to one file is one write; a write through a link is a write where it points
  const unique = [...new Map(all.map(w => [`${w.op}\n${w.path}`, w])).values()].slice(0, 4096);
  const resolvable = prot.realPath ? unique.slice(0, 64) : [];
  const linked = resolvable.map(w => ({ ...w, path: prot.realPath!(w.path) })).filter((w, k) => w.path !== resolvable[k].path);
  const writes = [...unique, ...linked];
  for (const w of writes) {
    if (relation(w.path, prot.memoryDir) && !(fromCode && relation(w.path, prot.memoryDir) === 'ancestor' && !/\/\.?vscode$/.test(w.path))) return memoryRefusal(w.op);
    const s = relation(w.path, prot.settings);
    if (s === 'same' && (namesOurSettings || prot.settingsHaveOurs() || (w.op === 'append' && prot.settingsBroken?.()))) return settingsRefusal();
    if (s === 'ancestor' && !fromCode && (namesOurSettings || prot.settingsHaveOurs())) return settingsRefusal();
    const own = (prot.ownDirs ?? []).find(d => relation(w.path, d) === 'same' || relation(w.path, d) === 'inside' || (!fromCode && relation(w.path, d) === 'ancestor' && w.op !== 'write'));
    if (own) return ownCodeRefusal(own);
  }
  if (!writes.length) return undefined;
  // any harness configuration, our entries in it or not (settings.local.json's disableAllHooks, an env override), while gates are set up here
  const config = (prot.harnessConfigs ?? []).find(c => writes.some(w => relation(w.path, c) === 'same' || relation(w.path, c) === 'inside' || (!fromCode && relation(w.path, c) === 'ancestor' && w.op !== 'write')));
  if (config && prot.gatesSetUp?.()) return gateConfigRefusal(config);
  const [ours] = prot.gateConfigs(c => writes.some(w => w.op !== 'append' && (fromCode ? relation(w.path, c) === 'same' : relation(w.path, c))));
  return ours === undefined ? undefined : gateConfigRefusal(ours);
}

export function memoryRefusal(op: WriteOp | 'edit'): Refusal {
  const verb = { write: 'write to', append: 'write to', delete: 'delete', move: 'move', mode: 'change the permissions of', edit: 'change' }[op];
  return {
    code: 'memory-files',
    reason: `${NOT_RUN} this would ${verb} Failure Memory's own files (.vscode/failure-memory): they hold the user's record of what failed and what is blocked, and only the user changes them (the Failure Memory panel or commands).\n${INSTEAD}`,
  };
}

export function settingsRefusal(): Refusal {
  return {
    code: 'settings',
    reason: `${NOT_RUN} this would change Failure Memory's settings (failureMemory.* in .vscode/settings.json): the threshold, the block mode and the redaction patterns are the user's to set.\n${INSTEAD}`,
  };
}

export function gateConfigRefusal(file: string): Refusal {
  return {
    code: 'gate-config',
    reason: `${NOT_RUN} this would change or remove the agent gate's hook entries (${base(file)}): setting up or removing the gates is the user's decision (failure-memory setup-agents).\n${INSTEAD}`,
  };
}

export function ownCodeRefusal(what: string): Refusal {
  return {
    code: 'own-code',
    reason: `${NOT_RUN} this would change or copy Failure Memory's own launcher or code (${base(what) || what}): the gate runs it on every call, and only the user (or the extension) installs it.\n${INSTEAD}`,
  };
}
