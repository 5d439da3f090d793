// Every reader of a stored shape agrees: the same approach, list entry or journal record, in many
// variants (each field left out, each field of the wrong type, a field this version does not know),
// is accepted by all of them or refused by all of them, and those that accept it read the same thing.
// The readers: the store's full read (migrateMemory), the hooks' partial read of its slice through
// memory.index.json (readView with keys, readApproach), the whole read without an index (readView),
// and the journal's (a run record holding the attempt, applied by core/journal.ts and by readView).
// A field added to a type and to one reader only makes this fail.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { applyRecord, newRunRecord } from '../../src/core/journal';
import { sharedAttempt } from '../../src/core/rules/team';
import { approachOf, journalStateOf, listOf, outboxEntryOf } from '../../src/core/storedShapes';
import { DEFAULT_SETTINGS, emptyMemory, SCHEMA_VERSION, type Approach, type Attempt, type MemoryData } from '../../src/core/types';
import { appendRecordLocked, readJournalSync } from '../../src/store/journal';
import { indexText, INDEX_FILE_NAME, serializeMemory } from '../../src/store/memoryIndex';
import { migrateMemory, MEMORY_FILE_NAME } from '../../src/store/memorySchema';
import { readApproach, readView } from '../../src/store/quickView';
import { tempFolders } from '../support/tempFolders';

const temp = tempFolders('fm-shapes-');
const KEY = '.::npm test';
const ctx = { redact: (t: string) => t };
const settings = { threshold: DEFAULT_SETTINGS.threshold, shortTermWindow: DEFAULT_SETTINGS.shortTermWindow, limits: { maxApproaches: 500, maxTotalBytes: 10_000_000, maxReflections: 50, maxLearnings: 200 } };

const attempt = (): Attempt => ({
  id: 'r1', command: 'npm test', key: KEY, cwd: '.', exitCode: 1, outcome: 'failure', note: 'n', source: 'agent', startedAt: '2026-01-01T09:00:00.000Z',
  endedAt: '2026-01-01T09:00:01.000Z', durationMs: 1000, output: 'Error: x', outputTruncated: false, outputBytes: 8, errorSignature: 'Error: x', errorLine: 'Error: x',
  testResults: { framework: 'jest', total: 3, passed: 2, failed: 1, skipped: 0, failures: [{ name: 'adds', message: 'no' }] }, timestamp: '2026-01-01T09:00:01.000Z',
  git: { head: 'abc', branch: 'main', fingerprint: 'f', dirty: { 'a.ts': 'h' }, committed: { from: 'abb', files: ['b.ts'] } }, work: ['npm test'],
  cause: { kind: 'module_missing', cls: 'toolchain', key: 'module_missing|x', factors: { module: 'x' } },
});

const approach = (): Approach => ({
  key: KEY, command: 'npm test', label: 'npm test', cwd: '.', status: 'active', failures: 1, totalAttempts: 1, firstFailure: '2026-01-01T09:00:01.000Z',
  lastFailure: '2026-01-01T09:00:01.000Z', lastErrorSignature: 'Error: x', alternativesTried: [], streakErrors: ['Error: x'], streakChanged: [false], learnedFacts: [],
  attempts: [attempt()], ledger: [{ at: '2026-01-01T09:00:01.000Z', outcome: 'failure', exitCode: 1, signature: 'Error: x' }], updatedAt: '2026-01-01T09:00:01.000Z',
});

/** Values of the wrong type for a field: one of another JSON type, and one of the right JSON type where that is still wrong. */
const WRONG: unknown[] = [42, 'text', true, [], { a: 1 }];

/** The variants of an object: each field left out, each set to each wrong value, and one unknown field added. */
function variants(base: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [['as written', base], ['a field this version does not know', { ...base, later: { x: 1 } }]];
  for (const k of Object.keys(base)) {
    const { [k]: _left, ...rest } = base;
    out.push([`${k} left out`, rest]);
    for (const w of WRONG) if (typeof w !== typeof base[k] || Array.isArray(w) !== Array.isArray(base[k])) out.push([`${k}: ${JSON.stringify(w)}`, { ...base, [k]: w }]);
  }
  return out;
}

/** memory.json holding `data` as given (wrong fields included), and its index describing it. */
function writeMemory(dir: string, data: Record<string, unknown>, withIndex: boolean): void {
  fs.mkdirSync(dir, { recursive: true });
  const written = serializeMemory(data as unknown as MemoryData);
  fs.writeFileSync(join(dir, MEMORY_FILE_NAME), written.text);
  fs.rmSync(join(dir, INDEX_FILE_NAME), { force: true });
  if (withIndex) {
    // the index's head of KEY is never read (a reader of KEY loads it whole): made from a well-formed approach
    const heads = { ...data, approaches: { [KEY]: approach() } };
    fs.writeFileSync(join(dir, INDEX_FILE_NAME), indexText(heads as unknown as MemoryData, written, fs.statSync(join(dir, MEMORY_FILE_NAME))));
  }
}

/** What each reader of memory.json makes of the approach of KEY in `doc`: the approach, or 'refused'. */
function memoryReaders(doc: Record<string, unknown>): Record<string, unknown> {
  const dir = temp();
  const out: Record<string, unknown> = {};
  try {
    out.full = migrateMemory(doc).approaches[KEY];
  } catch {
    out.full = 'refused';
  }
  writeMemory(dir, doc, true);
  assert.ok(fs.existsSync(join(dir, INDEX_FILE_NAME)));
  out.partial = readView(dir, [KEY], ctx)?.data.approaches[KEY] ?? 'refused';
  out.own = readApproach(dir, KEY, ctx)?.approach ?? 'refused';
  writeMemory(dir, doc, false);
  out.whole = readView(dir, [KEY], ctx)?.data.approaches[KEY] ?? 'refused';
  return out;
}

const memoryOf = (a: unknown, lists: Record<string, unknown> = {}) => ({ ...emptyMemory('2026-01-01T10:00:00.000Z'), approaches: { [KEY]: a }, ...lists });

/** The readers agree: all refused, or all read the same approach (the time a reader fills in for a missing updatedAt aside). */
function assertAgree(name: string, read: Record<string, unknown>): void {
  const refused = Object.entries(read).filter(([, v]) => v === 'refused').map(([k]) => k);
  assert.ok(refused.length === 0 || refused.length === Object.keys(read).length, `${name}: refused by ${refused.join(', ')} only`);
  if (refused.length) return;
  const norm = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'updatedAt' && typeof x === 'string' && x > '2026-06' ? 'now' : x))) as unknown;
  for (const [k, v] of Object.entries(read)) assert.deepEqual(norm(v), norm(read.full), `${name}: the ${k} read differs from the full read`);
}

describe('one shape per stored format: every reader accepts and refuses the same', () => {
  test('an approach: each field left out, of the wrong type, or unknown', () => {
    let refused = 0;
    for (const [name, a] of variants(approach() as unknown as Record<string, unknown>)) {
      const read = memoryReaders(memoryOf(a));
      assertAgree(`approach ${name}`, read);
      if (read.full === 'refused') refused++;
    }
    assert.ok(refused > 10, 'wrong types are refused');
  });

  test('an attempt in memory.json and the same attempt in a journal record', () => {
    let refused = 0;
    for (const [name, t] of variants(attempt() as unknown as Record<string, unknown>)) {
      const read = memoryReaders(memoryOf({ ...approach(), attempts: [t] }));
      assertAgree(`attempt ${name}`, read);
      // the journal: the record a hook appends holding this attempt, applied by core and by a hook's read
      if (name === 'key left out') continue; // in memory.json an attempt's key is its approach's; a record has no approach around it
      const record = { ...newRunRecord(attempt(), settings, []), attempt: t };
      const applied = applyRecord(emptyMemory(), record, ctx) !== undefined;
      const dir = temp();
      fs.mkdirSync(dir, { recursive: true });
      appendRecordLocked(dir, record, readJournalSync(dir));
      const seen = readView(dir, [KEY], ctx)?.data.approaches[KEY] !== undefined;
      assert.equal(applied, read.full !== 'refused', `attempt ${name}: the journal ${applied ? 'applies' : 'refuses'} what memory.json ${applied ? 'refuses' : 'reads'}`);
      assert.equal(seen, applied, `attempt ${name}: a hook's read of the journal and core's apply disagree`);
      if (read.full === 'refused') refused++;
    }
    assert.ok(refused > 10, 'wrong types are refused');
  });

  test('the lists beside the approaches: a wrong learning refuses the memory, a wrong log entry or pattern record is dropped, by every reader', () => {
    const lists: Record<string, Record<string, unknown>> = {
      learnings: { id: 'l1', type: 'learning', text: 'x', source: 'note', createdAt: '2026-01-01T09:00:00.000Z' },
      edits: { at: '2026-01-01T09:00:00.000Z', path: 'a.ts', ok: true, source: 'save', tool: 'Edit', hash: 'h' },
      starts: { at: '2026-01-01T09:00:00.000Z', command: 'npm start' },
      decisions: { at: 'a', command: 'c', key: KEY, label: 'l', cwd: '.', decision: 'deny', policy: 'deny', code: 'x', reason: 'r', via: 'cli' },
      patterns: {
        id: 'p1', cause: 'conn_refused|localhost:5432', kind: 'conn_refused', cls: 'service', subject: 'the database at localhost:5432', factors: { host: 'localhost', port: '5432' },
        approaches: [{ key: KEY, label: 'npm test', cwd: '.', failures: 2, lastSeen: 'b' }], runs: ['r1'], occurrences: 2, failures: 2, firstSeen: 'a', since: 'a', lastSeen: 'b',
        lastError: 'ECONNREFUSED', systemic: false, status: 'active', fixes: [{ command: 'docker compose up -d db', worked: 1, lastWorked: 'a' }], tried: [{ command: 'x', at: 'a' }],
      },
    };
    for (const [list, entry] of Object.entries(lists)) {
      for (const [name, e] of variants(entry)) {
        const doc = memoryOf(approach(), { [list]: [entry, e] });
        const full = (() => {
          try {
            return migrateMemory(doc)[list as 'edits'];
          } catch {
            return 'refused';
          }
        })();
        const dir = temp();
        writeMemory(dir, doc, true);
        const partial = readView(dir, [KEY], ctx)?.data[list as 'edits'] ?? 'refused';
        assert.deepEqual(partial, full, `${list}, ${name}: the partial read differs from the full read`);
      }
    }
  });

  test('the journal state memory.json claims: wrong entries are dropped, the rest kept', () => {
    assert.equal(journalStateOf(undefined), undefined);
    assert.equal(journalStateOf({ folded: 'x' }), undefined);
    assert.deepEqual(journalStateOf({ folded: [{ id: 'j', bytes: 10 }, { id: 3, bytes: 1 }, { id: 'k', bytes: -1 }], carried: [{ kind: 'later', id: 'x', more: 1 }, { kind: 'later' }] }), {
      folded: [{ id: 'j', bytes: 10 }],
      carried: [{ kind: 'later', id: 'x', more: 1 }],
    });
  });

  test('a team outbox line: an entry of a kind this version queues is checked whole, one of a newer kind is kept as it is', () => {
    const entry = { kind: 'attempt', id: 'e1', queuedAt: '2026-01-01T09:00:00.000Z', machine: 'm', ci: false, attempt: sharedAttempt(attempt(), 'npm test', false) };
    assert.equal(outboxEntryOf(entry), entry);
    const later = { kind: 'later-kind', id: 'e2', anything: 1 };
    assert.equal(outboxEntryOf(later), later);
    for (const [name, v] of variants(entry.attempt as unknown as Record<string, unknown>)) {
      if (name === 'as written' || name === 'a field this version does not know') continue;
      assert.equal(outboxEntryOf({ ...entry, attempt: v }), 'wrong', `attempt ${name}`);
    }
    assert.equal(outboxEntryOf({ kind: 'attempt' }), undefined);
  });

  test('an older approach is read with its left-out fields filled, and a field of the wrong type is named', () => {
    const read = approachOf(KEY, { command: 'npm test', attempts: [{ command: 'npm test', outcome: 'failure', testResults: { passed: 1, failed: 1, total: 2 } }] }, 'now');
    assert.ok('approach' in read);
    assert.equal(read.approach.label, 'npm test');
    assert.equal(read.approach.attempts[0].key, KEY);
    assert.deepEqual(read.approach.attempts[0].testResults, { passed: 1, failed: 1, total: 2, framework: '', failures: [] });
    assert.deepEqual(approachOf(KEY, { ...approach(), streakErrors: 'x' }, 'now'), { wrong: 'streakErrors', value: 'x' });
    assert.deepEqual(listOf('learnings', [{ type: 'nonsense', text: 'x' }]), undefined);
    assert.equal(migrateMemory(memoryOf(approach())).schemaVersion, SCHEMA_VERSION);
  });
});
