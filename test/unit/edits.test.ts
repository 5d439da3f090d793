// Edits as evidence in the engine and the store: what a shell line writes, installs, starts or only reads;
// the workspace's edit events (bounded, redacted, Failure Memory's own files left out, schema 3 with its
// migration); the terminal's own policy (decideStart). The CLI's `edit` and `report`: test/integration/cli.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { checkCommand } from '../../src/core/rules/check';
import { addEdits, editsSince, MAX_EDITS } from '../../src/core/rules/edits';
import { isOwnFile } from '../../src/core/ownFiles';
import { decideStart } from '../../src/core/rules/guardVerdict';
import { changesWorkspace, editsBeforeRun, shellEffects, workSignature } from '../../src/core/rules/shellEffects';
import { DEFAULT_SETTINGS, emptyMemory, SCHEMA_VERSION } from '../../src/core/types';
import { InMemoryStore } from '../../src/store/inMemoryStore';
import { migrateMemory } from '../../src/store/memorySchema';
import { parseCorpus } from '../../src/replay/corpus';
import { replayTrajectory } from '../../src/replay/replay';

describe('what a shell line does to the workspace', () => {
  test('files written: in-place editors, redirections of writers, tee, cp/mv, rm, git apply', () => {
    assert.deepEqual(shellEffects("sed -i 's/a/b/' src/x.py src/y.py").writes, ['src/x.py', 'src/y.py']);
    assert.deepEqual(shellEffects("perl -pi -e 's/a/b/' lib/a.pm").writes, ['lib/a.pm']);
    assert.deepEqual(shellEffects("cat > t.py <<'EOF'\nprint(1)\nEOF").writes, ['t.py']);
    assert.deepEqual(shellEffects('echo "x=1" >> .env').writes, ['.env']);
    assert.deepEqual(shellEffects('make 2>&1 | tee build.log').writes, ['build.log']);
    assert.deepEqual(shellEffects('cp a.cfg b.cfg').writes, ['b.cfg']);
    assert.deepEqual(shellEffects('git apply fix.patch').writes, ['fix.patch']);
    assert.deepEqual(shellEffects('rm -f out.json').writes, ['out.json']);
    // a run's own output is not an edit
    assert.deepEqual(shellEffects('python gen.py > data.json 2>&1').writes, []);
    assert.deepEqual(shellEffects('ls > /dev/null').writes, []);
  });

  test('installs change what the next run imports; starts are jobs and services a probe may wait for', () => {
    for (const c of ['pip install numpy', 'uv add requests', 'npm i -D vitest', 'apt-get install -y ffmpeg', 'python setup.py develop']) assert.ok(shellEffects(c).installs, c);
    assert.ok(!shellEffects('pip list').installs);
    for (const c of ['npm run dev &', 'nohup python train.py > log 2>&1 &', 'docker compose up -d', 'uvicorn main:app --port 8000', 'python -m http.server 8080', 'systemctl restart nginx']) assert.ok(shellEffects(c).starts, c);
    assert.ok(!shellEffects('npm test && npm run build').starts);
  });

  test('read-only lines, and the ones that wait before they look', () => {
    const poll = shellEffects('sleep 30; tail -5 train.log; ls out.json');
    assert.ok(poll.readOnly && poll.waits);
    const hammer = shellEffects('ps aux | grep method.py | grep -v grep; tail -10 logs/run.log');
    assert.ok(hammer.readOnly && !hammer.waits);
    assert.ok(!shellEffects('python x.py').readOnly);
    assert.ok(!shellEffects('cat a > b').readOnly);
  });

  test('an edit chained before the run, and lines that only edit', () => {
    assert.ok(editsBeforeRun(shellEffects("sed -i 's/a/b/' x.py && python x.py")));
    assert.ok(editsBeforeRun(shellEffects("cat > t.py <<'EOF'\nx\nEOF\npython t.py")));
    assert.ok(!editsBeforeRun(shellEffects("sed -i 's/a/b/' x.py")));
    assert.ok(changesWorkspace(shellEffects("sed -i 's/a/b/' x.py")));
    assert.ok(!editsBeforeRun(shellEffects('python x.py && cat out.txt')));
  });

  test('the work signature folds cosmetics: output filters, flags, `--opt=v` vs `--opt v`, python3 vs python', () => {
    assert.equal(workSignature('python3 x.py 2>&1 | tail -20'), workSignature('python x.py | tail -50'));
    assert.equal(workSignature('npx prisma generate --schema=a.prisma'), workSignature('npx prisma generate --schema a.prisma'));
    assert.equal(workSignature('false 5 && echo done'), workSignature('false 6'));
    assert.notEqual(workSignature('python run_lean.py p.lean'), workSignature('python run_lean.py p2.lean'));
    assert.notEqual(workSignature("python - <<'PY'\nprint(1)\nPY"), workSignature("python - <<'PY'\nprint(2)\nPY"));
  });
});

describe('edit events in the memory', () => {
  test('bounded, oldest dropped; Failure Memory\'s own files are not edits; failed edits are kept but change nothing', () => {
    const data = emptyMemory();
    addEdits(data, Array.from({ length: MAX_EDITS + 10 }, (_, i) => ({ path: `f${i}.ts`, source: 'save' as const, at: new Date(1000 + i).toISOString() })), new Date().toISOString());
    assert.equal(data.edits!.length, MAX_EDITS);
    assert.equal(data.edits![0].path, 'f10.ts');
    assert.ok(isOwnFile('.vscode/failure-memory/memory.json') && isOwnFile('failure-memory-export.json'));
    assert.equal(addEdits(data, [{ path: '.vscode/failure-memory/memory.json', source: 'save' }], new Date().toISOString()).length, 0);
    const since = new Date(5000).toISOString();
    addEdits(data, [{ path: 'bad.ts', ok: false, source: 'agent', at: new Date(6000).toISOString() }], since);
    assert.deepEqual(editsSince(data, since).map(e => e.path), []);
  });

  test('a v2 memory migrates to v3 with empty edits, starts and decisions; entries of the wrong shape are dropped', () => {
    const v2 = { schemaVersion: 2, approaches: {}, reflections: [], learnings: [], updatedAt: '2026-11-20T10:00:00Z' };
    const data = migrateMemory(v2);
    assert.equal(data.schemaVersion, SCHEMA_VERSION);
    assert.deepEqual([data.edits, data.starts, data.decisions], [[], [], []]);
    const odd = migrateMemory({ ...v2, schemaVersion: 3, edits: [{ at: 'x', path: 'a', ok: true, source: 'save' }, { path: 3 }] });
    assert.equal(odd.edits!.length, 1);
  });

  test('recordEdits redacts, makes paths workspace-relative, and keeps the time given', async () => {
    const m = new WorkspaceMemory('/w', { store: new InMemoryStore(), git: false });
    const [e] = await m.recordEdits([{ path: '/w/src/app.ts', source: 'save', at: '2026-11-20T10:00:00.000Z' }]);
    assert.deepEqual([e.path, e.at, e.ok], ['src/app.ts', '2026-11-20T10:00:00.000Z', true]);
    const [secret] = await m.recordEdits([{ path: '/w/keys/sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789.txt', source: 'agent' }]);
    assert.doesNotMatch(secret.path, /abcdefghijklmnop/);
  });

  test('replay reads a corpus\'s edit events through the same path (devcorpus2 format: {"kind":"edit","tool","path","ok"})', async () => {
    const line = (edit: boolean) =>
      JSON.stringify({
        source: 's',
        commands: [
          { command: 'python x.py', exitCode: 1, cwd: '/app', output: 'NameError: y' },
          { command: 'python x.py', exitCode: 1, cwd: '/app', output: 'NameError: y' },
          { command: 'python x.py', exitCode: 1, cwd: '/app', output: 'NameError: y' },
          ...(edit ? [{ kind: 'edit', tool: 'Edit', path: '/app/lib.py', ok: true }] : [{ kind: 'edit', tool: 'Edit', path: '/app/lib.py', ok: false }]),
          { command: 'python x.py', exitCode: 1, cwd: '/app', output: 'NameError: y' },
        ],
      });
    const { trajectories, problems } = parseCorpus([line(true), line(false)].join('\n'));
    assert.deepEqual(problems, []);
    assert.equal(trajectories[0].commands.length, 4, 'edit events are not commands: indexes count shell commands');
    const withEdit = await replayTrajectory(trajectories[0], { threshold: 3 });
    const failedEdit = await replayTrajectory(trajectories[1], { threshold: 3 });
    assert.equal(withEdit[3].decision, 'warn', 'a change earns a run');
    assert.equal(failedEdit[3].decision, 'deny', 'an ok: false edit changed nothing');
  });
});

describe('the terminal\'s own policy (a person at the keyboard)', () => {
  const failing = () => {
    const data = emptyMemory();
    const m = new WorkspaceMemory('/w', { store: new InMemoryStore('t', data), git: false });
    return m;
  };

  test('interrupts only a denied run; after a change it lets it run quietly; what the setting turns into ask is shown, not interrupted', async () => {
    const m = failing();
    for (let i = 0; i < 5; i++) await m.record({ command: 'npm test', exitCode: 1, output: 'Tests: 1 failed, 3 passed, 4 total\n  ● cart › total', source: 'terminal' });
    const unchanged = await m.check('npm test');
    assert.equal(unchanged.decision, 'deny');
    assert.equal(decideStart(unchanged, 'interrupt'), 'stop');
    assert.equal(decideStart(unchanged, 'warn'), 'warn');
    assert.equal(decideStart(unchanged, 'off'), 'remember');
    await m.recordEdits([{ path: '/w/src/cart.js', source: 'save', at: new Date(Date.now() + 1000).toISOString() }]);
    const changed = await m.check('npm test');
    assert.notEqual(changed.decision, 'deny');
    assert.equal(decideStart(changed, 'interrupt'), 'notice', 'a fix was saved: never interrupted');
    const data = await m.read();
    const capped = checkCommand(JSON.parse(JSON.stringify({ ...data, edits: [] })), 'npm test', '.', { ...DEFAULT_SETTINGS, 'gate.strongestAnswer': 'ask' });
    assert.equal(capped.decision, 'ask');
    assert.equal(decideStart(capped, 'interrupt'), 'warn', 'the person decides in the dialog; the run is not interrupted');
    const shadow = checkCommand(JSON.parse(JSON.stringify({ ...data, edits: [] })), 'npm test', '.', { ...DEFAULT_SETTINGS, 'gate.strongestAnswer': 'warn' });
    assert.equal(decideStart(shadow, 'interrupt'), 'notice');
  });
});

