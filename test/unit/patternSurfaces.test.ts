// A cause failing several commands, where decisions are made: the agents' deny reason, warning and
// session context (through the hooks' own journal path, in process), the tools' answers, the help
// dialog's facts, the panel's snapshot and the reflection.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readMemoryFull, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { readMemorySnapshot } from '../../src/app/hookMemory';
import { checkAnswerText, recordAnswerText } from '../../src/agents/tools';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { agentDenyReason, agentSummary } from '../../src/core/prompts/agentContext';
import { buildReflection } from '../../src/core/reflection';
import { helpFacts } from '../../src/core/rules/guardVerdict';
import { isSnapshot } from '../../src/shared/protocol';
import { InMemoryStore } from '../../src/store/inMemoryStore';
import { buildSnapshot } from '../../src/views/panelModel';
import { fill, fixture, parse } from '../support/hookPayloads';
import { tempDir } from '../support/tempFolders';
import { validateReflection } from '../support/reflection';
import { REFUSED_RUNS } from '../support/dbRefusals';

const RUNS = REFUSED_RUNS;

async function played(fix = false) {
  let t = Date.parse('2026-11-20T14:02:00Z');
  const m = new WorkspaceMemory('/w', { store: new InMemoryStore(), git: false, clock: () => new Date((t += 10_000)) });
  const play = async () => {
    for (let i = 0; i < 2; i++) for (const [command, exitCode, output] of RUNS) await m.record({ command, exitCode, output, source: 'agent' });
  };
  if (fix) {
    await play();
    await m.record({ command: 'docker compose up -d db', exitCode: 0, output: '', source: 'agent' });
    await m.record({ command: 'npm test', exitCode: 0, output: 'Tests: 1 passed, 1 total\n', source: 'agent' });
    t += 3600_000;
  }
  await play();
  return { m, now: () => new Date(t) };
}

describe('what an agent is told', () => {
  test('the deny reason names the cause, the commands it broke, its last error and the fix that worked before', async () => {
    const { m } = await played(true);
    const c = await m.check('npm test');
    const text = agentDenyReason(c, await m.read());
    assert.match(text, /^Failure Memory: NOT RUN — ⟦npm test⟧ in the workspace root fails on a cause that keeps failing other commands too\.$/m);
    assert.match(text, /^Why \(systemic-cause\): the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d, and nothing changed since: start it first; last time: ⟦docker compose up -d db⟧\.$/m);
    assert.match(text, /^One cause: the database at localhost:5432 — it already broke 3 command\(s\): ⟦npm test⟧, ⟦psql⟧, ⟦prisma migrate dev⟧\.$/m);
    assert.match(text, /^Last error \(command output, untrusted\): ⟦Error: P1001: Can't reach database server at `localhost`:`5432`⟧$/m);
    assert.match(text, /^Last time it was fixed by ⟦docker compose up -d db⟧\.$/m);
    assert.doesNotMatch(text, /resolve|allow once/i, 'never an instruction to unblock');
  });

  test('the session context puts one cause across commands first', async () => {
    const { m, now } = await played(true);
    const text = agentSummary(await m.read(), 5, undefined, now());
    const first = text.split('\n').find(l => l.startsWith('- '));
    assert.match(first!, /^- ONE CAUSE: the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d \(⟦npm test⟧, ⟦psql⟧, ⟦prisma migrate dev⟧\); last time fixed by ⟦docker compose up -d db⟧$/);
  });

  test('the tools: check says ONE CAUSE and what fixed it; record says which cause the failure joined', async () => {
    const { m } = await played(true);
    const c = await m.check('npx prisma migrate dev');
    const text = checkAnswerText(c, []);
    assert.match(text, /^ONE CAUSE — do not run ⟦npx prisma migrate dev⟧: the database at localhost:5432 refused 6 runs/);
    assert.match(text, /^Last time it was fixed by ⟦docker compose up -d db⟧\.$/m);
    const r = await m.record({ command: 'python manage.py migrate', exitCode: 1, output: 'django.db.utils.OperationalError: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n', source: 'agent' });
    assert.match(recordAnswerText(r, 5), /^One cause: the database at localhost:5432 — 7 failure\(s\) of 4 command\(s\) \(⟦npm test⟧; ⟦psql⟧; ⟦prisma migrate dev⟧; ⟦python manage\.py migrate⟧\)\. Last time it was fixed by ⟦docker compose up -d db⟧\.$/m);
  });
});

describe('where a person decides', () => {
  test('the help dialog: the cause as its headline, its commands and the fix that worked before', async () => {
    const { m } = await played(true);
    const c = await m.check('npm test');
    const f = helpFacts(c, (await m.read()).approaches[c.key]);
    assert.deepEqual(f.cause && { ...f.cause, sentence: f.cause.sentence.replace(/\d\d:\d\d/, 'HH:MM') }, {
      headline: 'one cause: database on :5432 — 3 commands',
      sentence: 'the database at localhost:5432 refused 6 runs of 3 commands since HH:MM',
      commands: ['npm test', 'psql', 'prisma migrate dev'],
      remedy: 'start it first',
      fix: 'docker compose up -d db',
      stops: true,
    });
  });

  test('the panel: a Patterns section entry with the cause, its commands, occurrences and the fix; the snapshot passes the protocol', async () => {
    const { m, now } = await played(true);
    const s = buildSnapshot([{ uri: 'file:///w', name: 'w', private: false, data: await m.read(), threshold: 5 }], { terminal: true, tasks: true, terminals: 1, terminalsWithIntegration: 1 }, { now: now() });
    assert.ok(isSnapshot(s));
    assert.equal(s.patterns?.length, 1);
    const p = s.patterns![0];
    assert.equal(p.headline, 'one cause: database on :5432 — 3 commands');
    assert.equal(p.status, 'active');
    assert.equal(p.stopping, true);
    assert.deepEqual([p.failures, p.occurrences], [6, 12]);
    assert.deepEqual(p.commands, ['npm test', 'psql', 'prisma migrate dev']);
    assert.equal(p.fix, 'docker compose up -d db');
    assert.equal(p.factors, 'host localhost, port 5432, service database, exit error (1-2)');
  });

  test('the reflection names the recurring cause across approaches, with its resolution seen before, and stays a valid Reflexion record', async () => {
    const { m } = await played(true);
    const data = await m.read();
    const a = data.approaches[(await m.check('npm test')).key];
    const r = buildReflection({ data, approach: a, threshold: 5, similar: [], id: 'r1' });
    assert.match(r.self_reflection.reflection_text, /The same cause failed “psql”, “prisma migrate dev” too \(the database at localhost:5432, 12 failure\(s\) in all\): it is not this command's alone\. Last time it was fixed by “docker compose up -d db”\.$/);
    assert.equal(r.self_reflection.actionable_insights[0], 'Fix the shared cause first (the database at localhost:5432): start it first; switching to another command that needs it fails the same way.');
    assert.deepEqual(r.failure_memory.cause, { subject: 'the database at localhost:5432', commands: ['npm test', 'psql', 'prisma migrate dev'], failures: 6, occurrences: 12, systemic: true, fix: 'docker compose up -d db', fix_worked: 1 });
    assert.ok(validateReflection(r), JSON.stringify(validateReflection.errors));
  });
});

describe("the hooks: a journaled run counts the cause as a full write does, and the reason reaches the harness's protocol", () => {
  const call = (event: 'pre' | 'session-start', name: string, ws: string, command = '') => {
    const f = fixture('claude', name)!;
    const vars = { CWD: ws, ROOT: ws, COMMAND: command };
    return runHook('claude', event, JSON.stringify(fill(f.payload, vars)), { record: recordHookResult, readFull: readMemoryFull, env: fill(f.env ?? {}, vars) as Record<string, string> });
  };

  test('six refusals recorded by the post hook (into the journal): the pre hook denies the seventh, warns an unseen command, and the session starts with the cause', async () => {
    const ws = realpathSync(tempDir('fm-pattern-hooks-'));
    mkdirSync(join(ws, '.git'));
    for (let i = 0; i < 2; i++) for (const [command, exitCode, output] of RUNS) await recordHookResult({ workspace: ws, command, cwd: '.', exitCode, output });
    // the journal's view and the store's full read hold the same pattern records
    const quick = readMemorySnapshot(ws)!;
    const full = await readMemoryFull(ws);
    assert.deepEqual(quick.patterns, full.patterns);
    assert.equal(full.patterns?.[0].failures, 6);

    const deny = parse(await call('pre', 'pre', ws, 'npm test'));
    assert.equal(deny.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(deny.hookSpecificOutput.permissionDecisionReason, /^Failure Memory: NOT RUN — ⟦npm test⟧ in the workspace root fails on a cause that keeps failing other commands too\.\nWhy \(systemic-cause\): the database at localhost:5432 refused 6 runs of 3 commands since/);

    const warn = parse(await call('pre', 'pre', ws, 'python manage.py migrate'));
    assert.equal(warn.hookSpecificOutput.permissionDecision, undefined);
    assert.match(warn.hookSpecificOutput.additionalContext, /^Failure Memory \(warning\): ⟦python manage\.py migrate⟧ — not seen failing with it, but the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d: if it needs it too, start it first\.$/);

    const start = parse(await call('session-start', 'session-start', ws));
    assert.match(start.hookSpecificOutput.additionalContext, /^- ONE CAUSE: the database at localhost:5432 refused 6 runs of 3 commands/m);

    // the database answers: a passing run of a command that needed it lifts the stop
    await recordHookResult({ workspace: ws, command: 'pg_isready -h localhost -p 5432', cwd: '.', exitCode: 0, output: 'localhost:5432 - accepting connections\n' });
    assert.equal(readMemorySnapshot(ws)!.patterns?.[0].status, 'resolved');
    // no stop and no cause: npm test's own two failures are what the model is told (a warning reaches it)
    const after = parse(await call('pre', 'pre', ws, 'npm test'));
    assert.equal(after.hookSpecificOutput.permissionDecision, undefined);
    assert.match(after.hookSpecificOutput.additionalContext, /^Failure Memory \(warning\): ⟦npm test⟧ failed 2 of 5 times in a row in the workspace root/);
    assert.doesNotMatch(after.hookSpecificOutput.additionalContext, /cause|localhost:5432/);
  });
});
