// The files `setup-agents` (and "Set Up Agent Gates") changes, handled as carefully as a package
// manager handles a user's manifest: a JSON/JSONC file is edited in place (./jsoncEdit.ts: comments,
// indentation, key order and the user's own entries keep their bytes; --remove gives the file back
// byte for byte), nothing is ever written through a symbolic link, and every target is checked
// before any is written: a plan is applied whole or not at all. What each harness gets is
// ./setup.ts's targetFor; this module only reads, plans and writes.

import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HarnessId } from './hooks/types';
import { appendAll, parseJsonc, removeAll, splitBom, styleOf, valueAt, type Addition } from './jsoncEdit';
import { isOurRules, rulesText } from '../app/agentRules';
import { isOurCommand, targetFor, type JsonTarget, type ScriptsTarget, type Target } from './setup';
import { findNodeAtLocation, type JSONPath, type Node } from 'jsonc-parser';
import { NotRegularFile, readRegularSync } from '../store/regularFile';

export interface FileChange {
  /** Relative to the workspace, '/' separated. */
  file: string;
  harnesses: HarnessId[];
  action: 'create' | 'update' | 'remove' | 'unchanged' | 'skip';
  /** Why a file is skipped (a link, not JSON, a hook of the user's). */
  reason?: string;
  /** The new content (create/update). */
  content?: string;
  executable?: boolean;
}

/** A plan that could not be applied: one line per file, and nothing was changed. */
export class SetupWriteError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'SetupWriteError';
  }
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const errno = (e: unknown) => (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? String(e);

/** The first part of `rel` (itself included) that is a symbolic link, or undefined. */
export function linkOnPath(workspace: string, rel: string): string | undefined {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    try {
      if (lstatSync(join(workspace, ...parts.slice(0, i))).isSymbolicLink()) return parts.slice(0, i).join('/');
    } catch {
      return undefined; // missing from here on: nothing to follow
    }
  }
  return undefined;
}

/** A target file's text; undefined: it does not exist. `skip`: why it must be left alone. */
function readTarget(workspace: string, rel: string): { text?: string; skip?: string } {
  const link = linkOnPath(workspace, rel);
  if (link) return { skip: `${link === rel ? 'it' : link} is a symbolic link: left untouched (Failure Memory never writes through a link)` };
  try {
    return { text: readRegularSync(join(workspace, rel), 'utf8', { noFollow: true }) };
  } catch (e) {
    if (e instanceof NotRegularFile) return { skip: `it is ${e.kind}, not a regular file: left untouched` };
    return errno(e) === 'ENOENT' ? {} : { skip: `cannot be read (${errno(e)}): left untouched` };
  }
}

function entryIsOurs(e: unknown): boolean {
  if (!isObj(e)) return false;
  if (isOurCommand(e.command) || isOurCommand(e.bash)) return true;
  return Array.isArray(e.hooks) && e.hooks.some(h => isObj(h) && isOurCommand(h.command)) && e.hooks.every(h => isObj(h) && isOurCommand(h.command));
}
const hookIsOurs = (h: unknown) => isObj(h) && isOurCommand(h.command);

/** A parsed file: its text (without a byte order mark), the mark to keep, and the tree. */
interface Parsed {
  bom: string;
  text: string;
  root: Node;
}

/** The hooks object's value (small: never the whole of a large file), or undefined. */
const hooksOf = (root: Node): unknown => valueAt(root, ['hooks']);

/**
 * The text without our entries: each of ours taken out where it is (whole groups, or our hook inside
 * a group shared with the user's); a list, or the hooks object, that only we filled goes with them.
 * One parse, one pass of edits (removeAll), whatever the file's size.
 */
function withoutOurs(text: string, root: Node): string {
  const hooks = hooksOf(root);
  if (!isObj(hooks)) return text;
  const paths: JSONPath[] = [];
  let emptied = 0;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    let removed = 0;
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i];
      if (entryIsOurs(e)) {
        paths.push(['hooks', event, i]);
        removed++;
      } else if (isObj(e) && Array.isArray(e.hooks)) {
        for (let j = e.hooks.length - 1; j >= 0; j--) if (hookIsOurs(e.hooks[j])) paths.push(['hooks', event, i, 'hooks', j]);
      }
    }
    if (removed && removed === list.length) {
      paths.push(['hooks', event]);
      emptied++;
    }
  }
  if (emptied && emptied === Object.keys(hooks).length) paths.push(['hooks']);
  return paths.length ? removeAll(text, paths, root) : text;
}

/** The text with our entries added at the end of each event's list (and the base fields a harness needs). */
function withOurs(text: string, t: JsonTarget, parsed?: Node): string {
  const style = styleOf(text);
  const root = parsed ?? parseTree(text);
  const additions: Addition[] = [];
  for (const [k, v] of Object.entries(t.base ?? {})) if (!findNodeAtLocation(root, [k])) additions.push({ path: [], key: k, value: v });
  const hooks = findNodeAtLocation(root, ['hooks']);
  if (hooks?.type !== 'object') additions.push({ path: [], key: 'hooks', value: t.entries });
  else {
    for (const [event, entries] of Object.entries(t.entries)) {
      const list = findNodeAtLocation(hooks, [event]);
      if (list?.type !== 'array') additions.push({ path: ['hooks'], key: event, value: entries });
      else for (const e of entries) additions.push({ path: ['hooks', event], value: e });
    }
  }
  return appendAll(text, additions, style, root);
}

/** The tree of a text this module already checked (or wrote): a syntax error here is a bug. */
function parseTree(text: string): Node {
  const tree = parseJsonc(text);
  if ('error' in tree) throw new Error(`not valid JSON: ${tree.error}`);
  return tree.root;
}

/** Our entries are there, exactly as they should be, and nowhere else. */
function inPlace(hooks: unknown, t: JsonTarget): boolean {
  const current = isObj(hooks) ? hooks : {};
  const oursNow = (event: string) => (Array.isArray(current[event]) ? (current[event] as unknown[]).filter(entryIsOurs) : []);
  return Object.entries(t.entries).every(([event, entries]) => JSON.stringify(oursNow(event)) === JSON.stringify(entries)) && Object.keys(current).every(event => event in t.entries || !oursNow(event).length);
}

/** The file parsed, or why it cannot be edited. */
function usable(raw: string, t: JsonTarget): Parsed | { skip: string } {
  const { bom, body } = splitBom(raw);
  const tree = parseJsonc(body);
  if ('error' in tree) return { skip: `not valid JSON (${tree.error}): left untouched; fix it and run again` };
  if (tree.root.type !== 'object') return { skip: 'not a JSON object: left untouched' };
  const hooks = findNodeAtLocation(tree.root, ['hooks']);
  if (hooks && hooks.type !== 'object') return { skip: '"hooks" is not an object: left untouched' };
  const notList = hooks && Object.keys(t.entries).find(event => {
    const list = findNodeAtLocation(hooks, [event]);
    return list !== undefined && list.type !== 'array';
  });
  return notList ? { skip: `"hooks.${notList}" is not a list: left untouched` } : { bom, text: body, root: tree.root };
}

function planJson(workspace: string, t: JsonTarget, harnesses: HarnessId[], remove: boolean): FileChange {
  const change = (action: FileChange['action'], more: Partial<FileChange> = {}): FileChange => ({ file: t.file, harnesses, action, ...more });
  const { text: before, skip } = readTarget(workspace, t.file);
  if (skip) return change('skip', { reason: skip });
  if (before === undefined || !splitBom(before).body.trim()) {
    if (remove) return change('unchanged');
    const content = `${before ? splitBom(before).bom : ''}${JSON.stringify({ ...(t.base ?? {}), hooks: t.entries }, null, 2)}\n`;
    return change(before === undefined ? 'create' : 'update', { content });
  }
  const parsed = usable(before, t);
  if ('skip' in parsed) return change('skip', { reason: parsed.skip });
  const { bom, text, root } = parsed;
  const stripped = withoutOurs(text, root);
  if (remove) {
    if (stripped === text) return change('unchanged');
    // nothing of the user's is left (the file as setup would have created it, minus the hooks): gone
    if (t.owned || stripped.trim() === JSON.stringify(t.base ?? {}, null, 2)) return change('remove');
    return change('update', { content: bom + stripped });
  }
  if (inPlace(hooksOf(root), t)) return change('unchanged');
  // nothing of ours was there: the tree of the file is the tree of the text to add to
  const content = bom + withOurs(stripped, t, stripped === text ? root : undefined);
  return change(content === before ? 'unchanged' : 'update', { content });
}

function planScripts(workspace: string, t: ScriptsTarget, harnesses: HarnessId[], remove: boolean, rulesSummary: string): FileChange[] {
  return Object.entries(t.files).map(([file, template]): FileChange => {
    const { text: before, skip } = readTarget(workspace, file);
    if (skip) return { file, harnesses, action: 'skip', reason: skip };
    const rules = t.plain?.includes(file) ?? false;
    const ours = before !== undefined && (rules ? isOurRules(before) : isOurCommand(before) && /Failure Memory/.test(before));
    if (before !== undefined && !ours) {
      return { file, harnesses, action: 'skip', reason: rules ? 'a file of your own is there: left untouched' : 'a hook of your own is there: left untouched (add the Failure Memory line to it yourself)' };
    }
    if (remove) return { file, harnesses, action: before === undefined ? 'unchanged' : 'remove' };
    // the rules file's summary changes with the memory: an existing one is kept as the hooks wrote it
    const content = rules ? (before ?? rulesText(rulesSummary)) : template;
    return { file, harnesses, action: before === undefined ? 'create' : before === content ? 'unchanged' : 'update', content, executable: !rules };
  });
}

/**
 * Which of a harness's entries are not in place (events, or script files): doctor tells a gate taken
 * apart (some of ours left, or a harness set up here before) from one never set up. `any`: some of
 * ours are there. undefined: the file cannot be read as a configuration.
 */
export function entriesMissing(workspace: string, harness: HarnessId): { any: boolean; missing: string[] } | undefined {
  const t = targetFor(harness);
  if (t.kind === 'scripts') {
    const states = Object.keys(t.files).filter(f => !t.plain?.includes(f)).map(f => ({ f, text: readTarget(workspace, f).text }));
    const ours = (text: string | undefined) => text !== undefined && isOurCommand(text);
    return { any: states.some(x => ours(x.text)), missing: states.filter(x => !ours(x.text)).map(x => x.f) };
  }
  const { text, skip } = readTarget(workspace, t.file);
  if (skip) return undefined;
  if (text === undefined || !splitBom(text).body.trim()) return { any: false, missing: Object.keys(t.entries) };
  const parsed = usable(text, t);
  if ('skip' in parsed) return undefined;
  const hooks = hooksOf(parsed.root);
  const current = isObj(hooks) ? hooks : {};
  const oursIn = (event: string) => (Array.isArray(current[event]) ? (current[event] as unknown[]).filter(entryIsOurs) : []);
  const missing = Object.entries(t.entries).filter(([event, entries]) => JSON.stringify(oursIn(event)) !== JSON.stringify(entries)).map(([event]) => event);
  return { any: Object.keys(current).some(event => oursIn(event).length > 0), missing };
}

export interface SetupPlanOptions {
  harnesses: HarnessId[];
  remove?: boolean;
  /** The failure summary for a rules file written now (Cline's); default: none yet. */
  rulesSummary?: string;
}

/** What setup (or --remove) would change, file by file. Reads the workspace; writes nothing. */
export function planSetup(workspace: string, opts: SetupPlanOptions): FileChange[] {
  const byFile = new Map<string, { target: Target; harnesses: HarnessId[] }>();
  for (const h of opts.harnesses) {
    const t = targetFor(h);
    const key = t.kind === 'json' ? t.file : Object.keys(t.files)[0];
    const seen = byFile.get(key);
    if (seen) seen.harnesses.push(h);
    else byFile.set(key, { target: t, harnesses: [h] });
  }
  const changes: FileChange[] = [];
  for (const { target, harnesses } of byFile.values()) {
    if (target.kind === 'json') changes.push(planJson(workspace, target, harnesses, !!opts.remove));
    else changes.push(...planScripts(workspace, target, harnesses, !!opts.remove, opts.rulesSummary ?? ''));
  }
  return changes;
}

const writes = (c: FileChange) => c.action === 'remove' || ((c.action === 'create' || c.action === 'update') && c.content !== undefined);

/** Why a change cannot be written, checked before anything is (a link, a read-only file or folder). */
function preflight(workspace: string, c: FileChange): string | undefined {
  const link = linkOnPath(workspace, c.file);
  if (link) return `${c.file}: ${link === c.file ? 'it' : link} is a symbolic link; Failure Memory never writes through a link`;
  const abs = join(workspace, c.file);
  let dir = dirname(abs);
  try {
    if (c.action !== 'create') {
      if (!lstatSync(abs).isFile()) return `${c.file}: not a regular file`;
      accessSync(abs, constants.W_OK);
    }
    // the folder the file is (or will be) in, or the nearest one that exists
    for (;;) {
      try {
        if (!lstatSync(dir).isDirectory()) return `${c.file}: ${dir} is not a folder`;
        break;
      } catch (e) {
        if (errno(e) !== 'ENOENT' || dirname(dir) === dir) throw e;
        dir = dirname(dir);
      }
    }
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    const code = errno(e);
    return `${c.file}: ${code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'read-only' : 'cannot be written'} (${code})`;
  }
  return undefined;
}

// never follow a link at the last step, even one that appeared since the plan was made
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function writeFile(abs: string, content: string | Buffer, create: boolean, mode: number): void {
  const fd = openSync(abs, (create ? constants.O_CREAT | constants.O_EXCL : constants.O_TRUNC) | constants.O_WRONLY | NOFOLLOW, mode);
  try {
    const b = typeof content === 'string' ? Buffer.from(content) : content;
    for (let off = 0; off < b.length; ) off += writeSync(fd, b, off, b.length - off);
  } finally {
    closeSync(fd);
  }
}

/** Writes one change in place (same file, owner and mode); returns how to undo it. */
function writeOne(workspace: string, c: FileChange): () => void {
  const abs = join(workspace, c.file);
  if (c.action === 'create') {
    const made: string[] = [];
    for (let d = dirname(abs); !safeExists(d); d = dirname(d)) made.unshift(d);
    for (const d of made) mkdirSync(d);
    writeFile(abs, c.content!, true, c.executable ? 0o755 : 0o644);
    return () => {
      unlinkSync(abs);
      for (const d of made.reverse()) rmdirSync(d);
    };
  }
  const original = readFileSync(abs);
  const mode = lstatSync(abs).mode & 0o7777;
  if (c.action === 'remove') {
    unlinkSync(abs);
    return () => writeFile(abs, original, true, mode);
  }
  writeFile(abs, c.content!, false, mode);
  return () => writeFile(abs, original, false, mode);
}

function safeExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a plan (its creates, updates and removes) all or nothing: every target is checked first, and
 * a write that fails midway undoes the ones before it. Throws SetupWriteError (one line per file).
 */
export function applySetup(workspace: string, changes: FileChange[]): void {
  const todo = changes.filter(writes);
  const problems = todo.map(c => preflight(workspace, c)).filter((p): p is string => !!p);
  if (problems.length) throw new SetupWriteError(problems.map(p => `${p}; nothing was written.`));
  const undo: Array<() => void> = [];
  for (const c of todo) {
    try {
      undo.push(writeOne(workspace, c));
    } catch (e) {
      for (const u of undo.reverse()) {
        try {
          u();
        } catch {
          // best effort: the message below says the file names
        }
      }
      throw new SetupWriteError([`${c.file}: cannot be written (${errno(e)}); the files written before it were put back, nothing was changed.`]);
    }
  }
}

/** One line per file, for a person: what happens where. */
export function describeChanges(changes: FileChange[], removing = false): string[] {
  const verb = removing
    ? ({ create: 'create', update: 'take the entries out of', remove: 'delete', unchanged: 'nothing to remove in', skip: 'skip' } as const)
    : ({ create: 'create', update: 'add entries to', remove: 'delete', unchanged: 'already set up:', skip: 'skip' } as const);
  return changes.map(c => `${verb[c.action]} ${c.file} (${c.harnesses.join(', ')})${c.reason ? ` — ${c.reason}` : ''}`);
}
