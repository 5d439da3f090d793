// The hooks' journal beside memory.json (core/journal.ts, store/journal.ts, store/journalStore.ts)
// and the index that lets a hook read one approach (store/memoryIndex.ts, store/quickView.ts): a
// journaled run is seen by every reader at once, the next full write folds it in exactly once,
// whatever crashed in between, and the quick partial read answers as the full read does.
// Processes racing and killed: journalProcesses.test.ts.

import assert from 'node:assert/strict';
import { CHANGE_BUDGET } from '../../src/core/rules/policy';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { agentDenyReason, agentWarning } from '../../src/core/prompts/agentContext';
import { approachKey } from '../../src/core/approach';
import { checkCommand } from '../../src/core/rules/check';
import { addEdits } from '../../src/core/rules/edits';
import { applyRecord, pendingRecords, newRunRecord, type JournalRecord } from '../../src/core/journal';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory, type EngineSettings, type MemoryData } from '../../src/core/types';
import { openWorkspaceMemory } from '../../src/app/openMemory';
import { JOURNAL_FILE_NAME, parseJournal, readJournalSync } from '../../src/store/journal';
import { INDEX_FILE_NAME, serializeMemory } from '../../src/store/memoryIndex';
import { MemoryStore, memoryDirFor } from '../../src/store/memoryStore';
import { readApproach, readView } from '../../src/store/quickView';
import { runHook } from '../../src/agents/hooks/runner';
import { tempFolders } from '../support/tempFolders';
import { NODE_PG, PG, PRISMA, PSQL, REDIS } from '../support/dbRefusals';

const workspace = tempFolders('fm-journal-');
const redactor = createRedactor();
const redact = (t: string) => redactor.redact(t).text;
const T0 = Date.UTC(2026, 0, 1, 9);
const ERRORS = [
  (i: number) => `Error: Cannot find module 'dep${i % 4}'\nRequire stack:\n- /w/index.js`,
  (i: number) => `FAIL src/t${i % 3}.test.ts\n  ● adds\n    expect(received).toBe(expected)\nTests:       1 failed, 2 passed, 3 total`,
  (i: number) => `src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'. ${i % 2 ? '' : 'again'}`,
];

/** A memory of `n` approaches (some exhausted, some resolved), as the engine builds it. */
function memoryOf(n: number, settings: EngineSettings = DEFAULT_SETTINGS): MemoryData {
  const data = emptyMemory();
  let t = T0;
  for (let a = 0; a < n; a++) {
    const runs = a % 5 === 0 ? 6 : 1 + (a % 3);
    for (let k = 0; k < runs; k++) {
      const exitCode = a % 7 === 3 && k === runs - 1 ? 0 : 1;
      const command = a % 4 === 1 ? `npx jest src/t${a}.test.ts` : `tool${a} run --step ${k}`;
      applyAttempt(data, prepareAttempt({ command, cwd: a % 3 ? '.' : 'pkg', exitCode, source: 'agent', output: ERRORS[(a + k) % 3](a) }, settings, redactor, new Date((t += 60_000))), settings);
      // an edit between some runs: what the gate weighs (tried a fix, or looping blind) is in memory too
      if ((a + k) % 4 === 1) addEdits(data, [{ path: `src/f${a}.ts`, source: 'agent', tool: 'Edit' }], new Date((t += 1_000)).toISOString());
    }
  }
  return data;
}

/** The workspace's memory opened as a hook opens it (journal mode, no git). */
const hookMemory = (ws: string, warnings: string[] = []) => openWorkspaceMemory({ workspace: ws, journal: true, git: false, onWarning: m => warnings.push(m) }).memory;
const fullMemory = (ws: string, warnings: string[] = []) => openWorkspaceMemory({ workspace: ws, git: false, onWarning: m => warnings.push(m) }).memory;
const fail = (command: string, cwd = '.') => ({ command, cwd, exitCode: 1, source: 'agent' as const, output: "Error: Cannot find module 'left-pad'" });
const journalPath = (ws: string) => join(memoryDirFor(ws), JOURNAL_FILE_NAME);
const memoryPath = (ws: string) => join(memoryDirFor(ws), 'memory.json');

async function seeded(n = 40): Promise<string> {
  const ws = workspace();
  await new MemoryStore(memoryDirFor(ws), { cache: false }).replace(memoryOf(n));
  return ws;
}

async function failures(ws: string, command: string, cwd = '.'): Promise<number> {
  return (await new MemoryStore(memoryDirFor(ws), { cache: false }).read()).approaches[approachKey(command, cwd)]?.failures ?? 0;
}

describe('a run a hook records goes into the journal, and every reader sees it at once', () => {
  test('memory.json is not rewritten; the store (cached or not), the quick read, check and the CLI all count the run', async () => {
    const ws = await seeded();
    const before = fs.readFileSync(memoryPath(ws));
    const cached = new MemoryStore(memoryDirFor(ws));
    assert.equal((await cached.read()).approaches[approachKey('make lint', '.')], undefined);
    for (let i = 0; i < 3; i++) await hookMemory(ws).record(fail('make lint'));
    assert.deepEqual(fs.readFileSync(memoryPath(ws)), before, 'memory.json untouched');
    assert.equal(readJournalSync(memoryDirFor(ws)).kind, 'ok');
    const key = approachKey('make lint', '.');
    assert.equal((await cached.read()).approaches[key].failures, 3, 'the long-lived store');
    assert.equal(await failures(ws, 'make lint'), 3, 'a one-shot store');
    assert.equal(readView(memoryDirFor(ws), [key], { redact })?.data.approaches[key].failures, 3, 'the hook gate');
    assert.equal((await fullMemory(ws).check('make lint')).attempts, 3, 'check');
    const cli = spawnSync(process.execPath, [join(__dirname, '../../dist/cli.js'), 'check', '--command', 'make lint', '--json', '--workspace', ws], { encoding: 'utf8' });
    assert.equal(JSON.parse(cli.stdout).attempts, 3, `the CLI: ${cli.stderr}`);
  });

  test('the gate blocks a command exhausted by journaled runs alone, with the reason a full read gives', async () => {
    const ws = await seeded();
    for (let i = 0; i < DEFAULT_SETTINGS.threshold; i++) await hookMemory(ws).record(fail('cargo build'));
    const key = approachKey('cargo build', '.');
    const quick = readView(memoryDirFor(ws), [key], { redact })!.data;
    const full = await new MemoryStore(memoryDirFor(ws), { cache: false }).read();
    const now = new Date(T0 + 86_400_000);
    const q = checkCommand(quick, 'cargo build', '.', DEFAULT_SETTINGS, now);
    assert.equal(q.verdict, 'block');
    assert.deepEqual(q, checkCommand(full, 'cargo build', '.', DEFAULT_SETTINGS, now));
    assert.equal(agentDenyReason(q, quick), agentDenyReason(q, full));
  });

  test('a success of a command that never failed writes nothing, not even a journal', async () => {
    const ws = await seeded();
    await hookMemory(ws).record({ command: 'ls -la', cwd: '.', exitCode: 0, source: 'agent', output: 'a\nb' });
    assert.equal(fs.existsSync(journalPath(ws)), false);
  });

  test('the store says memory changed when a hook appends (the extension polls this)', async () => {
    const ws = await seeded();
    const store = new MemoryStore(memoryDirFor(ws));
    const before = await store.mtimeMs();
    await new Promise(r => setTimeout(r, 15));
    await hookMemory(ws).record(fail('make lint'));
    assert.ok((await store.mtimeMs())! > before!);
  });
});

describe('pattern records: a journaled run counts the cause as a full write does', () => {
  const RUNS: Array<[string, number, string]> = [
    ['npm test', 1, NODE_PG()],
    [PSQL, 2, PG()],
    ['redis-cli ping', 1, REDIS],
    ['npx prisma migrate dev', 1, PRISMA],
    ['npm test', 1, NODE_PG()],
    [PSQL, 2, PG()],
    ['docker compose up -d db', 0, 'Container db Started\n'],
    ['pg_isready -h localhost -p 5432', 0, 'localhost:5432 - accepting connections\n'],
    ['node worker.js', 1, 'Error: connect ECONNREFUSED 127.0.0.1:6379\n'],
  ];
  /** The records without the run ids (each memory's attempts have their own ids). */
  const shape = (d: MemoryData) => (d.patterns ?? []).map(p => ({ ...p, runs: p.runs.length, resolution: p.resolution && { ...p.resolution, run: typeof p.resolution.run } }));

  test('the same runs recorded by hooks (into the journal) and written at once give the same pattern records; readers and the fold agree', async () => {
    const direct = workspace();
    const hooked = workspace();
    let t = T0;
    let journaled = 0;
    for (const [command, exitCode, output] of RUNS) {
      t += 10_000;
      const clock = () => new Date(t);
      await openWorkspaceMemory({ workspace: direct, git: false, clock }).memory.record({ command, exitCode, output, source: 'agent' });
      await openWorkspaceMemory({ workspace: hooked, journal: true, git: false, clock }).memory.record({ command, exitCode, output, source: 'agent' });
      if (!fs.existsSync(journalPath(hooked))) continue;
      journaled++;
      // runs pending in the journal: the hooks' own read and the gate's partial read see the store's records
      const full = (await new MemoryStore(memoryDirFor(hooked), { cache: false }).read()).patterns;
      assert.deepEqual(readView(memoryDirFor(hooked), 'all', { redact })!.data.patterns, full, `after ${command}: the hooks' own read`);
      assert.deepEqual(readView(memoryDirFor(hooked), [approachKey('npm test', '.')], { redact })!.data.patterns, full, `after ${command}: the partial read`);
    }
    assert.ok(journaled >= 5, `the hooks wrote into the journal (it held runs after ${journaled} of ${RUNS.length})`);
    const want = await new MemoryStore(memoryDirFor(direct), { cache: false }).read();
    assert.deepEqual(want.patterns?.map(p => [p.cause, p.status, p.failures, p.occurrences]), [
      ['conn_refused|localhost:5432', 'resolved', 5, 5],
      ['conn_refused|localhost:6379', 'active', 2, 2],
    ]);
    const got = await new MemoryStore(memoryDirFor(hooked), { cache: false }).read();
    assert.deepEqual(shape(got), shape(want));
    assert.deepEqual(readView(memoryDirFor(hooked), 'all', { redact })!.data.patterns, got.patterns, "the hooks' own read");
    assert.deepEqual(readView(memoryDirFor(hooked), [approachKey('npm test', '.')], { redact })!.data.patterns, got.patterns, "the gate's partial read");
    await new MemoryStore(memoryDirFor(hooked)).update(() => undefined);
    assert.ok(!fs.existsSync(journalPath(hooked)), 'folded');
    assert.deepEqual(shape(await new MemoryStore(memoryDirFor(hooked), { cache: false }).read()), shape(want));
  });

  test('a success of a command never seen failing that answers for a pending cause is journaled, not dropped as nothing to remember', async () => {
    const ws = workspace();
    for (const [command, exitCode, output] of RUNS.slice(0, 6)) await hookMemory(ws).record({ command, exitCode, output, source: 'agent' });
    await hookMemory(ws).record({ command: 'pg_isready -h localhost -p 5432', exitCode: 0, output: 'accepting connections\n', source: 'agent' });
    const p = (await new MemoryStore(memoryDirFor(ws), { cache: false }).read()).patterns?.find(x => x.cause === 'conn_refused|localhost:5432');
    assert.equal(p?.status, 'resolved');
    assert.equal(p?.resolution?.command, 'pg_isready -h localhost -p 5432');
  });
});

describe('folding: the next full write takes the journal into memory.json, each run once', () => {
  test('a full write folds the journal and removes it; nothing is counted twice', async () => {
    const ws = await seeded();
    for (let i = 0; i < 3; i++) await hookMemory(ws).record(fail('make lint'));
    const viewBefore = await new MemoryStore(memoryDirFor(ws), { cache: false }).read();
    await fullMemory(ws).addLearning('learning', 'lint needs the generated types');
    assert.equal(fs.existsSync(journalPath(ws)), false);
    const after = JSON.parse(fs.readFileSync(memoryPath(ws), 'utf8')) as MemoryData;
    assert.equal(after.approaches[approachKey('make lint', '.')].failures, 3);
    assert.deepEqual(after.approaches, viewBefore.approaches);
  });

  test('a crash between writing memory.json and removing the journal counts no run twice, and later appends still count', async () => {
    const ws = await seeded();
    for (let i = 0; i < 3; i++) await hookMemory(ws).record(fail('make lint'));
    const journal = fs.readFileSync(journalPath(ws));
    await new MemoryStore(memoryDirFor(ws), { cache: false }).update(() => undefined);
    fs.writeFileSync(journalPath(ws), journal); // as if the fold had died before its unlink
    assert.equal(await failures(ws, 'make lint'), 3);
    await hookMemory(ws).record(fail('make lint'));
    assert.equal(await failures(ws, 'make lint'), 4);
    await new MemoryStore(memoryDirFor(ws), { cache: false }).update(() => undefined);
    assert.equal(await failures(ws, 'make lint'), 4);
  });

  test('a reader that read the journal just before a fold (even two folds) does not count it twice', async () => {
    const ws = await seeded();
    await hookMemory(ws).record(fail('make lint'));
    const early = readJournalSync(memoryDirFor(ws));
    assert.equal(early.kind, 'ok');
    const store = new MemoryStore(memoryDirFor(ws), { cache: false });
    await store.update(() => undefined);
    await hookMemory(ws).record(fail('make test'));
    await store.update(() => undefined);
    const memory = JSON.parse(fs.readFileSync(memoryPath(ws), 'utf8')) as MemoryData;
    assert.deepEqual(pendingRecords(memory, early.kind === 'ok' ? early.contents : undefined), []);
  });

  test('clear forgets journaled runs too, even if the journal outlives it', async () => {
    const ws = await seeded();
    for (let i = 0; i < 2; i++) await hookMemory(ws).record(fail('make lint'));
    const journal = fs.readFileSync(journalPath(ws));
    await fullMemory(ws).clear();
    assert.deepEqual((await fullMemory(ws).read()).approaches, {});
    fs.writeFileSync(journalPath(ws), journal);
    assert.deepEqual((await fullMemory(ws).read()).approaches, {});
  });
});

describe('a journal that is not whole', () => {
  test('a writer killed mid-line: the cut line never counts, the lock it left is broken, the next run starts a line of its own', async () => {
    const ws = await seeded();
    for (let i = 0; i < 2; i++) await hookMemory(ws).record(fail('make lint'));
    const key = approachKey('make lint', '.');
    const line = JSON.stringify(newRunRecord(prepareAttempt(fail('make lint'), DEFAULT_SETTINGS, redactor), DEFAULT_SETTINGS, []));
    fs.appendFileSync(journalPath(ws), line.slice(0, line.length >> 1));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.writeFileSync(`${memoryPath(ws)}.lock`, JSON.stringify({ pid: Number(dead), host: hostname(), time: new Date().toISOString(), token: 'dead' }));
    assert.equal(readView(memoryDirFor(ws), [key], { redact })?.data.approaches[key].failures, 2, 'the cut record is not a record');
    await hookMemory(ws).record(fail('make lint'));
    assert.equal(await failures(ws, 'make lint'), 3);
    const parsed = parseJournal(fs.readFileSync(journalPath(ws)))!;
    assert.deepEqual(parsed.entries.map(e => !!e.record), [true, true, false, true]);
    await new MemoryStore(memoryDirFor(ws), { cache: false }).update(() => undefined);
    assert.equal(await failures(ws, 'make lint'), 3);
  });

  test('a record of a kind this version does not know is carried by every fold, never applied nor dropped', async () => {
    const ws = await seeded();
    await hookMemory(ws).record(fail('make lint'));
    const edit: JournalRecord = { kind: 'edit', id: 'edit-1', path: 'src/a.ts', at: new Date(T0).toISOString() };
    fs.appendFileSync(journalPath(ws), `${JSON.stringify(edit)}\n`);
    const store = new MemoryStore(memoryDirFor(ws), { cache: false });
    const before = await store.read();
    await store.update(() => undefined);
    await store.update(() => undefined);
    const memory = JSON.parse(fs.readFileSync(memoryPath(ws), 'utf8')) as MemoryData;
    assert.deepEqual(memory.journal?.carried, [edit]);
    assert.deepEqual((await store.read()).approaches, before.approaches);
  });

  test('a damaged journal is moved aside with its bytes, said once, and recording goes on', async () => {
    const ws = await seeded();
    fs.writeFileSync(journalPath(ws), 'garbage\u0000 not a journal\n');
    const warnings: string[] = [];
    await hookMemory(ws, warnings).record(fail('make lint'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /could not be used \(its first line is not a journal header\)\. It was saved as /);
    assert.doesNotMatch(warnings[0], /garbage/, 'the warning quotes nothing of the file');
    const aside = fs.readdirSync(memoryDirFor(ws)).filter(f => f.startsWith(`${JOURNAL_FILE_NAME}.corrupt-`));
    assert.equal(aside.length, 1);
    assert.equal(fs.readFileSync(join(memoryDirFor(ws), aside[0]), 'utf8'), 'garbage\u0000 not a journal\n');
    assert.equal(await failures(ws, 'make lint'), 1);
  });

  test('a journal that is a symbolic link is never read through', async () => {
    const ws = await seeded();
    const elsewhere = join(workspace(), 'j.jsonl');
    fs.writeFileSync(elsewhere, `{"journal":1,"id":"0123456789abcdef"}\n${JSON.stringify(newRunRecord(prepareAttempt(fail('evil'), DEFAULT_SETTINGS, redactor), DEFAULT_SETTINGS, []))}\n`);
    fs.symlinkSync(elsewhere, journalPath(ws));
    assert.equal(await failures(ws, 'evil'), 0);
    assert.equal(readView(memoryDirFor(ws), [approachKey('evil', '.')], { redact })?.data.approaches[approachKey('evil', '.')], undefined);
  });
});

describe('memory.index.json: reading one approach of memory.json', () => {
  test('memory.json is JSON.stringify of the memory, and each span in the index is its approach', () => {
    const data = memoryOf(30);
    data.approaches['__proto__'] = { ...Object.values(data.approaches)[0], key: '__proto__', command: 'über 🚀 "q" \\ \u2028' };
    const s = serializeMemory(data);
    assert.equal(s.text, JSON.stringify(data));
    const buf = Buffer.from(s.text);
    for (const [key, start, length] of s.approaches) assert.deepEqual(JSON.parse(buf.subarray(start, start + length).toString()), JSON.parse(JSON.stringify(data.approaches[key])));
    for (const name of ['learnings', 'edits', 'starts', 'decisions'] as const) assert.deepEqual(JSON.parse(buf.subarray(s.lists[name]![0], s.lists[name]![0] + s.lists[name]![1]).toString()), data[name], name);
  });

  test('an index that does not describe memory.json (another writer, a damaged file) is never trusted', async () => {
    const ws = await seeded();
    const other = memoryOf(40);
    const key = Object.keys(other.approaches)[5];
    other.approaches[key].failures = 42;
    fs.writeFileSync(memoryPath(ws), JSON.stringify(other)); // an older Failure Memory: no index written
    assert.equal(readView(memoryDirFor(ws), [key], { redact })?.data.approaches[key].failures, 42);
    fs.writeFileSync(join(memoryDirFor(ws), INDEX_FILE_NAME), '{"format":1,"file":');
    assert.equal(readView(memoryDirFor(ws), [key], { redact })?.data.approaches[key].failures, 42);
  });
});

describe('the quick partial read answers as the full read', () => {
  /** A deterministic pseudo-random sequence. */
  function rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  }

  for (const [name, settings] of [
    ['default limits', DEFAULT_SETTINGS],
    ['at the approach limit (each new failure evicts)', { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, maxApproaches: 40 } }],
    ['at the byte limit', { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, maxTotalBytes: 60_000 } }],
  ] as const) {
    test(`${name}: the gate, the deny reason and the next run's effect are the same for every command`, async () => {
      const ws = workspace();
      const dir = memoryDirFor(ws);
      await new MemoryStore(dir, { cache: false }).replace(memoryOf(40, settings));
      const random = rng(name.length);
      const commands = [...Array.from({ length: 12 }, () => `tool${Math.floor(random() * 40)} run`), 'npx jest src/other.test.ts', 'make lint', 'cargo build'];
      // a journal of runs: failures and passes of known and new commands, recent enough to be alternatives
      let t = T0 + 3_600_000;
      for (let i = 0; i < 7; i++) {
        const command = commands[Math.floor(random() * commands.length)];
        const input = { command, cwd: random() < 0.3 ? 'pkg' : '.', exitCode: random() < 0.75 ? 1 : 0, source: 'agent' as const, output: ERRORS[i % 3](i) };
        const attempt = prepareAttempt(input, settings, redactor, new Date((t += 60_000)));
        await new MemoryStore(dir, { cache: false }).appendRecord(newRunRecord(attempt, settings, []));
      }
      const full = await new MemoryStore(dir, { cache: false }).read();
      const now = new Date(t + 60_000);
      for (const command of commands) {
        for (const cwd of ['.', 'pkg']) {
          const key = approachKey(command, cwd);
          const view = readView(dir, [key], { redact })!;
          assert.ok(view);
          const q = checkCommand(view.data, command, cwd, settings, now);
          const f = checkCommand(full, command, cwd, settings, now);
          assert.deepEqual(q, f, `${command} in ${cwd}`);
          assert.deepEqual(view.data.approaches[key], full.approaches[key]);
          assert.deepEqual(view.data.patterns, full.patterns);
          // a writer's read of the one approach: its own history as the full read has it (others may only add alternatives)
          const own = readApproach(dir, key, { redact })?.approach;
          if (full.approaches[key]) assert.deepEqual({ ...own, alternativesTried: [] }, { ...full.approaches[key], alternativesTried: [] }, `own history of ${command} in ${cwd}`);
          if (f.verdict === 'block') assert.equal(agentDenyReason(q, view.data), agentDenyReason(f, full));
          const next = newRunRecord(prepareAttempt({ command, cwd, exitCode: 1, source: 'agent', output: ERRORS[0](1) }, settings, redactor, now), settings, []);
          const a = applyRecord(view.data, next, { redact, sizeOf: view.sizeOf })!;
          const b = applyRecord(JSON.parse(JSON.stringify(full)) as MemoryData, next, { redact })!;
          assert.deepEqual([a.becameExhausted, a.evicted, a.reason, a.approach, a.pattern], [b.becameExhausted, b.evicted, b.reason, b.approach, b.pattern], `next run of ${command} in ${cwd}`);
        }
      }
    });
  }
});

describe('the gate with runs waiting in the journal', () => {
  const settings = DEFAULT_SETTINGS;
  const reply = async (ws: string, command: string) => {
    const r = await runHook('claude', 'pre', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: ws }), { env: { CLAUDE_PROJECT_DIR: ws }, record: async () => undefined, readFull: async () => emptyMemory() });
    return r.stdout;
  };
  /** What a full read answers: a deny's reason, a warning's text (the model's context), or nothing. */
  const expected = async (ws: string, command: string) => {
    const full = await new MemoryStore(memoryDirFor(ws), { cache: false }).read();
    const c = checkCommand(full, command, '.', settings);
    return c.verdict === 'block' ? { deny: agentDenyReason(c, full) } : c.decision === 'warn' ? { warn: agentWarning(c, full) } : {};
  };
  const same = (out: string, want: { deny?: string; warn?: string }, command: string) => {
    if (want.deny) assert.equal(JSON.parse(out).hookSpecificOutput.permissionDecisionReason, want.deny, `${command}: denied, for the same reason`);
    else if (want.warn) assert.equal(JSON.parse(out).hookSpecificOutput.additionalContext, want.warn, `${command}: warned, in the same words`);
    else assert.equal(out, '', `${command}: allowed`);
  };

  for (const [name, journal] of [
    ['nothing pending', [] as string[]],
    ["only the command's own runs pending", ['make check', 'make check']],
    ['runs of other approaches pending', ['tool3 run', 'npx jest src/t9.test.ts', 'make check']],
  ] as const) {
    test(`${name}: every command gets the answer a full read gives (test runners with exhausted siblings too)`, async () => {
      const ws = await seeded(60);
      for (const command of journal) await hookMemory(ws).record(fail(command));
      for (const command of ['make check', 'tool0 run', 'tool5 run', 'tool1 run', 'npx jest src/t1.test.ts', 'npx jest src/new.test.ts', 'brand new', 'tool3 run']) {
        same(await reply(ws, command), await expected(ws, command), command);
      }
    });
  }

  test('runs pending that evict approaches (at the limit): every command still gets the answer a full read gives', async () => {
    const ws = await seeded(60);
    const full = await new MemoryStore(memoryDirFor(ws), { cache: false }).read();
    const atLimit = { ...settings, limits: { ...settings.limits, maxApproaches: Object.keys(full.approaches).length } };
    for (const [i, command] of ['new one', 'new two', 'tool0 run', 'new three'].entries()) {
      const attempt = prepareAttempt(fail(command), atLimit, redactor, new Date(T0 + 86_400_000 + i * 1000));
      await new MemoryStore(memoryDirFor(ws), { cache: false }).appendRecord(newRunRecord(attempt, atLimit, []));
    }
    const after = await new MemoryStore(memoryDirFor(ws), { cache: false }).read();
    assert.ok(Object.keys(full.approaches).some(k => !after.approaches[k]), 'the pending runs evicted approaches');
    for (const command of ['tool0 run', 'tool5 run', 'tool10 run', 'tool15 run', 'tool1 run', 'new one', 'npx jest src/t5.test.ts']) {
      same(await reply(ws, command), await expected(ws, command), command);
    }
  });
});


describe('the pre hook decides from one approach only when nothing else was used', () => {
  test('a head asked for more than the index holds (history, a field it lacks, its keys, the reflections) says so; its own fields and what the reader wrote do not', async () => {
    const ws = await seeded(20);
    const dir = memoryDirFor(ws);
    const full = await new MemoryStore(dir, { cache: false }).read();
    const [mine, other] = Object.keys(full.approaches);
    const read = () => {
      const guard = { touched: false };
      const view = readView(dir, [mine], { redact }, {}, guard)!;
      return { data: view.data, head: view.data.approaches[other], guard };
    };
    const fresh = read();
    const h = fresh.head;
    void [h.key, h.label, h.command, h.cwd, h.status, h.failures, h.updatedAt, h.lastFailure, h.lastErrorSignature, fresh.data.approaches[mine].attempts, fresh.data.edits, fresh.data.learnings];
    assert.equal(fresh.guard.touched, false, 'the head fields, the loaded approach and the lists are exact');
    h.allowOnce = true;
    assert.equal(h.allowOnce, true);
    assert.equal(fresh.guard.touched, false, 'a field the reader wrote reads back');
    for (const [what, use] of [
      ['its attempts', (x: ReturnType<typeof read>) => x.head.attempts],
      ['its ledger', (x: ReturnType<typeof read>) => x.head.ledger],
      ['its alternatives', (x: ReturnType<typeof read>) => x.head.alternativesTried],
      ['a field heads do not carry', (x: ReturnType<typeof read>) => x.head.lastSuccess],
      ['whether it has a field', (x: ReturnType<typeof read>) => 'allowOnce' in x.head],
      ['its keys', (x: ReturnType<typeof read>) => ({ ...x.head })],
      ['its size', (x: ReturnType<typeof read>) => JSON.stringify(x.head)],
      ['the reflections', (x: ReturnType<typeof read>) => x.data.reflections],
    ] as const) {
      const x = read();
      use(x);
      assert.equal(x.guard.touched, true, what);
    }
  });

  for (const waiting of [true, false]) {
    test(`every command gets the answer of a full read, and the quick read answers most of them alone (${waiting ? 'a run waiting in the journal' : 'nothing waiting: heads made only when asked for'})`, async () => {
      const ws = await seeded(60);
      const dir = memoryDirFor(ws);
      // a test runner exhausted on an environment error (another test file is the same loop: decided from its history)
      // a loop the fixes did not reach: the same error after each of the last changes, a person decides (ask)
      for (let i = 0; i < 5; i++) await hookMemory(ws).record(fail('bash build.sh'));
      for (let i = 0; i <= CHANGE_BUDGET; i++) {
        await fullMemory(ws).recordEdits([{ path: join(ws, `fix${i}.txt`), source: 'agent', tool: 'Edit' }]);
        if (i < CHANGE_BUDGET) await hookMemory(ws).record(fail('bash build.sh'));
      }
      for (let i = 0; i < 6; i++) await hookMemory(ws).record({ command: 'npx vitest run src/a.test.ts', cwd: '.', exitCode: 1, source: 'agent', output: 'Error: collection error while importing conftest' });
      await fullMemory(ws).record(fail('tool2 run')); // folds the journal: the test runner is a head in a partial read
      if (waiting) await hookMemory(ws).record(fail('tool4 run'));
      else await fullMemory(ws).record(fail('tool4 run'));
      const journal = readJournalSync(dir);
      assert.equal(journal.kind === 'ok' && journal.contents.entries.length > 0, waiting, 'what waits in the journal');
      // the left-pad failures of several commands are one systemic cause: a command not seen with it is warned
      // (compared too), a read-only one is allowed
      const commands = ['make check', 'brand new', 'git status', 'npx vitest run src/b.test.ts', 'npx vitest run src/a.test.ts', 'npx jest src/new.test.ts', 'cd pkg && tool0 run', 'npm te\\st'];
      const full = await new MemoryStore(dir, { cache: false }).read();
      for (const a of Object.values(full.approaches)) commands.push(a.cwd === '.' ? a.command : `cd ${a.cwd} && ${a.command}`);
      const reply = async (command: string) => {
        const r = await runHook('claude', 'pre', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: ws }), { env: { CLAUDE_PROJECT_DIR: ws }, record: async () => undefined, readFull: async () => assert.fail('memory.json is current') });
        return [r.exitCode, r.stdout, r.stderr];
      };
      const quick = [];
      for (const command of commands) quick.push(await reply(command));
      fs.renameSync(join(dir, INDEX_FILE_NAME), join(dir, `${INDEX_FILE_NAME}.away`)); // no index: the whole memory, always
      const answers = new Set<string>();
      for (const [i, command] of commands.entries()) {
        assert.deepEqual(quick[i], await reply(command), command);
        answers.add(quick[i][1] === '' ? 'allow' : JSON.parse(quick[i][1] as string).hookSpecificOutput.permissionDecision ?? 'context');
      }
      assert.ok(answers.has('allow') && answers.has('context') && answers.has('deny') && answers.has('ask'), `allows, warnings, asks and denies were compared: ${[...answers]}`);
      fs.renameSync(join(dir, `${INDEX_FILE_NAME}.away`), join(dir, INDEX_FILE_NAME));
      // which read answered: the guard of the same partial read, with the same check
      let alone = 0;
      for (const command of commands.filter(c => !c.startsWith('cd ') && c !== 'npm te\\st')) {
        const guard = { touched: false };
        const view = readView(dir, [approachKey(command, '.')], { redact }, {}, guard)!;
        const c = checkCommand(view.data, command, '.', DEFAULT_SETTINGS);
        if (command === 'npx vitest run src/b.test.ts') assert.ok(c.verdict === 'block' || guard.touched, 'another test file of the environment loop is never allowed by the quick read');
        if (!guard.touched && c.verdict !== 'block') alone++;
      }
      assert.ok(alone >= commands.length / 2, `${alone} of ${commands.length} answered by the quick read alone`);
    });
  }
});
