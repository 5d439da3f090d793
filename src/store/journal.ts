// journal.jsonl beside memory.json: the runs hooks recorded since memory.json was last written
// (what a record is and how it is applied: core/journal.ts). The first line names the journal
// (`{"journal":1,"id":"<random>"}`), then one record a line. Appends happen under memory.json's
// lock, each as one write of a whole line; a writer killed mid-line leaves a line without its
// newline, which no reader counts and the next append closes with a newline of its own. A fold
// (the next full write of memory.json) marks the bytes it consumed in memory.json, then removes
// the file, so a reader that read the journal just before the fold never counts it twice.
// Small on purpose: the hooks' gate reads it without loading the store.

import { closeSync, constants, fstatSync, openSync, readSync, writeSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { JournalContents, JournalRecord } from '../core/journal';
import { journalRecordShape } from '../core/storedShapes';
import { randomHex } from './lock';
import { noteNotRegular, O_NONBLOCK } from './regularFile';

export const JOURNAL_FILE_NAME = 'journal.jsonl';
/** A journal over this size is not read (a hook folds long before: FOLD_BYTES). */
export const MAX_JOURNAL_BYTES = 16 * 1024 * 1024;
/** A hook folds the journal into memory.json once it holds this many records… */
export const FOLD_RECORDS = 8;
/** …or this many bytes (each reader applies every pending record: the journal stays short). */
export const FOLD_BYTES = 128 * 1024;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NEWLINE = 0x0a;

export const journalFile = (dir: string) => path.join(dir, JOURNAL_FILE_NAME);

/** A journal file as read: what it holds, or why it cannot be used (`corrupt`: not a journal; the fold moves it aside). */
export type JournalRead =
  | { kind: 'missing' }
  | { kind: 'ok'; contents: JournalContents; stat: Stats; unterminated: boolean }
  | { kind: 'corrupt'; reason: string; stat?: Stats };

function headerLine(id: string): string {
  return `${JSON.stringify({ journal: 1, id })}\n`;
}

/** The id of a journal from its first line; undefined when that line is not a journal header. */
function headerId(first: Buffer): string | undefined {
  try {
    const h = JSON.parse(first.toString('utf8')) as { journal?: unknown; id?: unknown };
    return h && h.journal === 1 && typeof h.id === 'string' && /^[0-9a-f]{16,64}$/.test(h.id) ? h.id : undefined;
  } catch {
    return undefined;
  }
}

/** Splits journal bytes into records. Only lines ended by a newline count; a line that is not a record is kept as undefined. */
export function parseJournal(buf: Buffer): JournalContents | undefined {
  const first = buf.indexOf(NEWLINE);
  if (first < 0) return undefined;
  const id = headerId(buf.subarray(0, first));
  if (!id) return undefined;
  const entries: JournalContents['entries'] = [];
  for (let start = first + 1; start < buf.length; ) {
    const end = buf.indexOf(NEWLINE, start);
    if (end < 0) break; // a line still being written, or cut by a kill: not a record (yet)
    if (end > start) entries.push({ start, record: parseRecord(buf.subarray(start, end)) });
    start = end + 1;
  }
  return { id, bytes: buf.length, entries };
}

function parseRecord(line: Buffer): JournalRecord | undefined {
  try {
    const v: unknown = JSON.parse(line.toString('utf8'));
    return journalRecordShape(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** What a journal file's bytes are (undefined: it was too large to read). */
export function journalFrom(buf: Buffer | undefined, stat: Stats): JournalRead {
  if (!buf) return { kind: 'corrupt', reason: `it is larger than ${MAX_JOURNAL_BYTES / 1024 / 1024} MB`, stat };
  const contents = parseJournal(buf);
  // an empty file (its creator killed before the header) holds nothing: the next append starts it again
  if (!contents) return buf.length ? { kind: 'corrupt', reason: 'its first line is not a journal header', stat } : { kind: 'missing' };
  return { kind: 'ok', contents, stat, unterminated: buf[buf.length - 1] !== NEWLINE };
}

/** Reads the journal synchronously (the hooks), never through a symbolic link. */
export function readJournalSync(dir: string): JournalRead {
  let fd: number;
  try {
    // never blocking: a FIFO in its place is "not a regular file" below, not a wait for a writer
    fd = openSync(journalFile(dir), constants.O_RDONLY | NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'corrupt', reason: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'corrupt', reason: noteNotRegular(journalFile(dir), stat).message, stat };
    if (stat.size > MAX_JOURNAL_BYTES) return journalFrom(undefined, stat);
    const buf = Buffer.allocUnsafe(stat.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return journalFrom(buf.subarray(0, got), stat);
  } finally {
    closeSync(fd);
  }
}

/** Identity of one state of the journal (appends change size and mtime). */
export function journalKey(read: JournalRead): string {
  return read.kind === 'ok' ? `${read.stat.dev}:${read.stat.ino}:${read.stat.size}:${read.stat.mtimeMs}` : read.kind;
}

export interface Appended {
  /** Records in the journal now (this one included). */
  records: number;
  bytes: number;
}

/**
 * Appends one record to the journal as `current` read it. The caller holds memory.json's lock (so
 * nothing changed since that read: appends and folds never interleave) and has moved a corrupt
 * journal aside. The whole line goes in one write; no fsync: a killed process loses nothing it
 * wrote, and memory.json is never at risk (its own rewrite is synced before it is renamed in).
 * Synchronous: only hooks append, one line each.
 */
export function appendRecordLocked(dir: string, record: JournalRecord, current: JournalRead): Appended {
  const line = `${JSON.stringify(record)}\n`;
  // none yet (or an empty one a killed writer left): a new journal with a new id
  const fresh = current.kind !== 'ok';
  const text = fresh ? headerLine(randomHex(8)) + line : current.unterminated ? `\n${line}` : line;
  const flags = constants.O_WRONLY | NOFOLLOW | O_NONBLOCK | (fresh ? constants.O_CREAT | constants.O_TRUNC : constants.O_APPEND);
  const fd = openSync(journalFile(dir), flags, 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  const bytes = Buffer.byteLength(text);
  return fresh ? { records: 1, bytes } : { records: current.contents.entries.length + 1, bytes: current.contents.bytes + bytes };
}
