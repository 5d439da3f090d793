// The copy of a workspace's gate state (core/gateState.ts) in the user's data folder:
// ~/.failure-memory/state/<name of the workspace's real path>.json, one file per workspace, two lines:
// the header (the exhausted approaches' heads, the events, and an HMAC-SHA256 of both lines under a
// per-user secret kept beside it, ~/.failure-memory/state/secret, mode 0600) and the body (the
// approaches as the gate decides from them). A reader that only compares (the pre hook) reads the
// header line without checking it; the HMAC is checked before anything in the copy is used
// (restored, shown), and node:crypto is loaded only then.
//
// What the HMAC does: a copy written or edited by anything that does not hold the secret (a script,
// an editor, a copy of another workspace's file, a damaged disk) is refused as altered, so restoring
// never puts text into memory that Failure Memory did not write. What it does not: the secret is a
// file of the same user, so a program that targets Failure Memory can read it and write a copy that
// passes; and deleting both the workspace memory and this folder leaves nothing to compare. Those
// cases are for the pre hook's refusal of writes to these paths, and for doctor.

import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MAX_GATE_EVENTS, type GateEvent, type GateHead } from '../core/gateState';
import { list, object, oneOf, str, type Shape } from '../core/shape';
import { approachOf, gateEventShape, gateHeadShape } from '../core/storedShapes';
import type { Approach } from '../core/types';
import { shortName } from './agentRuns';
import { openRegularSync, readOpenSync, readRegularSync } from './regularFile';
import { hmac, sameMac, secret, stateDir, writePrivate } from './userSecret';

export { stateDir } from './userSecret';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const COPY_FORMAT = 1;
/** A copy larger than this is not read (a few hundred exhausted approaches are well under it). */
const MAX_COPY_BYTES = 16 * 1024 * 1024;

/** The copy of the workspace whose real path is `workspace`. */
export function copyFileFor(workspace: string, dir: string = stateDir()): string {
  return join(dir, `${shortName(workspace)}.json`);
}

export interface CopyHeader {
  v: number;
  /** The workspace's real path (a copy of another workspace's file is refused). */
  workspace: string;
  updatedAt: string;
  heads: GateHead[];
  events: GateEvent[];
  mac?: string;
}

export interface GateCopy {
  header: CopyHeader;
  approaches: Approach[];
}

export type CopyRead = { kind: 'missing' } | { kind: 'ok'; copy: GateCopy } | { kind: 'altered'; why: string };


const copyHeaderShape: Shape<CopyHeader> = object(
  { v: oneOf(COPY_FORMAT), workspace: str, updatedAt: str, heads: list(gateHeadShape), events: list(gateEventShape) },
  { mac: str },
);

/** The copy's approaches, read as memory.json's are (storedShapes.approachOf); undefined when one is not an approach. */
function approachesOf(v: unknown): Approach[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const now = new Date().toISOString();
  const out: Approach[] = [];
  for (const raw of v) {
    const key = typeof (raw as Approach | null)?.key === 'string' ? (raw as Approach).key : '';
    const read = approachOf(key, raw, now);
    if (!('approach' in read) || !key) return undefined;
    out.push(read.approach);
  }
  return out;
}

function parseHeader(line: string, workspace: string): CopyHeader | undefined {
  try {
    const h: unknown = JSON.parse(line);
    if (!copyHeaderShape(h) || h.workspace !== workspace) return undefined;
    return h;
  } catch {
    return undefined;
  }
}

/**
 * The header alone (the heads a reader compares with memory): one small read, and no node:crypto
 * while the file is the one Failure Memory last wrote or checked (its identity, kept beside it in
 * `<copy>.seen`); a copy changed since then is checked first. 'altered': it is not a copy of this
 * workspace that Failure Memory signed.
 */
export function readCopyHeader(file: string, workspace: string): CopyHeader | 'missing' | 'altered' {
  let opened;
  try {
    opened = openRegularSync(file, { noFollow: true });
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'altered';
  }
  let line: string;
  try {
    const chunks: Buffer[] = [];
    for (let at = 0; at < Math.min(opened.stat.size, MAX_COPY_BYTES); ) {
      const buf = Buffer.allocUnsafe(Math.min(64 * 1024, opened.stat.size - at));
      const n = readSync(opened.fd, buf, 0, buf.length, at);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      chunks.push(buf.subarray(0, nl < 0 ? n : nl));
      if (nl >= 0) break;
      at += n;
    }
    line = Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(opened.fd);
  }
  const header = parseHeader(line, workspace);
  if (!header) return 'altered';
  if (seenKey(opened.stat) === readSeen(file)) return header;
  // changed since Failure Memory last wrote or checked it: checked now, remembered when good
  const checked = readCopy(file, workspace);
  if (checked.kind !== 'ok') return checked.kind === 'missing' ? 'missing' : 'altered';
  noteSeen(file);
  return checked.copy.header;
}

/** The identity of one version of the copy (a rewrite renames a new file in; an edit changes size or times). */
const seenKey = (st: Stats) => `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
const seenFile = (file: string) => `${file.replace(/\.json$/, '')}.seen`;

function readSeen(file: string): string | undefined {
  try {
    return readRegularSync(seenFile(file), 'utf8', { noFollow: true, maxBytes: 256 });
  } catch {
    return undefined;
  }
}

/** Remembers the copy as it is now as checked (written or verified by Failure Memory). Best effort. */
function noteSeen(file: string): void {
  try {
    writePrivate(seenFile(file), seenKey(lstatSync(file)));
  } catch {
    // the next reader checks it again
  }
}

const macOf = (key: string, header: CopyHeader, body: string) => hmac(key, `${JSON.stringify({ ...header, mac: undefined })}\n${body}`);

/** The copy, checked: 'altered' when its HMAC, its workspace or its shape is not what Failure Memory wrote. */
export function readCopy(file: string, workspace: string): CopyRead {
  let text: string;
  try {
    const { fd, stat } = openRegularSync(file, { noFollow: true });
    try {
      const buf = readOpenSync(fd, stat.size, MAX_COPY_BYTES);
      if (!buf) return { kind: 'altered', why: 'it is too large' };
      text = buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'altered', why: (e as Error).message };
  }
  const nl = text.indexOf('\n');
  const header = parseHeader(nl < 0 ? text : text.slice(0, nl), workspace);
  if (!header) return { kind: 'altered', why: 'it is not a copy of this workspace' };
  const body = nl < 0 ? '' : text.slice(nl + 1).replace(/\n$/, '');
  const key = secret(join(file, '..'), false);
  if (!key) return { kind: 'altered', why: 'the secret that signs it is gone' };
  const want = macOf(key, header, body);
  if (!sameMac(header.mac, want)) {
    return { kind: 'altered', why: 'its signature does not match' };
  }
  try {
    const parsed = JSON.parse(body) as { approaches?: unknown };
    const approaches = approachesOf(parsed.approaches);
    if (!approaches) return { kind: 'altered', why: 'its body is not a list of approaches' };
    return { kind: 'ok', copy: { header, approaches } };
  } catch {
    return { kind: 'altered', why: 'its body is not JSON' };
  }
}

/** Writes the copy atomically (a new file renamed over it, never through a link), signed. */
export function writeCopy(file: string, copy: GateCopy): void {
  const dir = join(file, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = secret(dir, true)!;
  const header: CopyHeader = { ...copy.header, v: COPY_FORMAT, events: copy.header.events.slice(-MAX_GATE_EVENTS), mac: undefined };
  const body = JSON.stringify({ approaches: copy.approaches });
  header.mac = macOf(key, header, body);
  writePrivate(file, `${JSON.stringify(header)}\n${body}\n`);
  noteSeen(file);
  pruneOccasionally(dir);
}

/** Sets an altered copy aside (its bytes kept, for the user to look at), so that a new one can start. */
export function setAside(file: string): string | undefined {
  const target = `${file}.altered-${new Date().toISOString().replace(/:/g, '-')}`;
  try {
    renameSync(file, target);
    return target;
  } catch {
    return undefined;
  }
}

/** Events already told, per audience: a small file beside the copy (not signed: hiding a notice hides only a notice). */
export function toldFile(file: string): string {
  return `${file.replace(/\.json$/, '')}.told.json`;
}

export type Audience = 'hook' | 'editor';

export function readTold(file: string): Record<Audience, string[]> {
  try {
    const v = JSON.parse(readRegularSync(toldFile(file), 'utf8', { noFollow: true, maxBytes: 64 * 1024 })) as Partial<Record<Audience, unknown>>;
    const list = (x: unknown) => (Array.isArray(x) ? x.filter((id): id is string => typeof id === 'string').slice(-100) : []);
    return { hook: list(v.hook), editor: list(v.editor) };
  } catch {
    return { hook: [], editor: [] };
  }
}

/** Marks events told to `who` (best effort: a notice told twice is better than one lost). */
export function markTold(file: string, who: Audience, ids: readonly string[]): void {
  if (!ids.length) return;
  try {
    const told = readTold(file);
    told[who] = [...told[who], ...ids.filter(id => !told[who].includes(id))].slice(-100);
    writePrivate(toldFile(file), JSON.stringify(told));
  } catch {
    // the notice comes again next time
  }
}

/** Which harnesses setup-agents (or the extension) set up in the workspace, and when: doctor tells a removal from a never. */
export function setupFile(file: string): string {
  return `${file.replace(/\.json$/, '')}.setup.json`;
}

export function readSetupRecord(file: string): Record<string, string> {
  try {
    const v = JSON.parse(readRegularSync(setupFile(file), 'utf8', { noFollow: true, maxBytes: 64 * 1024 })) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** Notes harnesses set up (or, `removed`, taken out by the user) in the workspace. Best effort. */
export function writeSetupRecord(file: string, harnesses: readonly string[], removed = false): void {
  try {
    const record = readSetupRecord(file);
    for (const h of harnesses) {
      if (removed) delete record[h];
      else record[h] = new Date().toISOString();
    }
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writePrivate(setupFile(file), JSON.stringify(record));
  } catch {
    // doctor then cannot tell a removal from a harness never set up: it still sees partial removals
  }
}

const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
/** A copy not written for this long, of a workspace that no longer exists, is removed. */
const ABANDONED_MS = 30 * 24 * 60 * 60 * 1000;

/** At most once a day: copies of workspaces gone for a month are removed (throwaway folders, moved projects). */
function pruneOccasionally(dir: string, now = Date.now()): void {
  const marker = join(dir, '.pruned');
  try {
    if (now - statSync(marker).mtimeMs < PRUNE_EVERY_MS) return;
  } catch {
    // never pruned
  }
  try {
    rmSync(marker, { force: true });
    closeSync(openSync(marker, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600));
    for (const name of readdirSync(dir)) {
      if (!/^[0-9a-z]+\.json$/.test(name)) continue;
      const file = join(dir, name);
      if (now - statSync(file).mtimeMs < ABANDONED_MS) continue;
      const first = readRegularSync(file, 'utf8', { noFollow: true, maxBytes: MAX_COPY_BYTES }).split('\n', 1)[0];
      const ws = (JSON.parse(first) as { workspace?: unknown }).workspace;
      if (typeof ws === 'string' && !existsSync(ws)) for (const f of [file, toldFile(file), setupFile(file), seenFile(file)]) rmSync(f, { force: true });
    }
  } catch {
    // housekeeping
  }
}
