// The CLI as a new user (or an agent's hook) uses it: the built dist/cli.js in a real folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { tempFolders } from '../support/tempFolders';

const CLI = resolve(__dirname, '../../dist/cli.js');

function cli(ws: string, args: string[], input = '') {
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

const workspace = tempFolders('fm-cli-');
const PRISMA = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /home/dev/app/node_modules/.prisma/client/index.js\n";

before(() => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
});

describe('failure-memory CLI', () => {
  test('five failing runs exhaust the approach; check exits 2 and says why', () => {
    const ws = workspace();
    for (let i = 1; i <= 5; i++) {
      const r = cli(ws, ['record', '--command', i % 2 ? 'npx prisma generate' : 'npx prisma generate --schema prisma/schema.prisma', '--exit-code', '1', '--json'], PRISMA);
      assert.equal(r.code, 0, r.stderr);
      const j = r.json();
      assert.equal(j.key, '.::prisma generate');
      assert.equal(j.attempts, i);
      assert.equal(j.status, i < 5 ? 'active' : 'exhausted');
      assert.match(j.errorSignature, /Cannot find module '@prisma\/client'/);
      assert.equal(j.testResults, null);
      assert.match(j.output, /Require stack/);
    }
    const check = cli(ws, ['check', '--command', 'npx prisma generate', '--json']);
    assert.equal(check.code, 2);
    const c = check.json();
    assert.equal(c.status, 'exhausted');
    assert.equal(c.attempts, 5);
    assert.equal(c.key, '.::prisma generate');
    assert.match(c.lastError, /@prisma\/client/);
    assert.ok(Array.isArray(c.alternatives));
    assert.match(check.stderr, /NOT RUN/);
    assert.match(check.stderr, /failed 5 times/);

    const human = cli(ws, ['check', '--command', 'prisma generate']);
    assert.equal(human.code, 2);
    assert.match(human.stderr, /exhausted approach/);

    const other = cli(ws, ['check', '--command', 'npx prisma migrate dev', '--json']);
    assert.equal(other.code, 0);
    assert.equal(other.json().status, 'clear');

    const mem = JSON.parse(readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8'));
    assert.equal(mem.approaches['.::prisma generate'].attempts.length, 5);
    assert.equal(readFileSync(join(ws, '.vscode/failure-memory/.gitignore'), 'utf8').trim(), '*');
  });

  test('a success resolves; allow lets one run through; resolve unblocks', () => {
    const ws = workspace();
    for (let i = 0; i < 5; i++) cli(ws, ['record', '--command', 'pytest -x', '--exit-code', '1'], '===== 1 failed, 2 passed in 0.12s =====\nFAILED tests/test_a.py::test_add - assert 3 == 4\n');
    assert.equal(cli(ws, ['check', '--command', 'pytest']).code, 2);
    assert.equal(cli(ws, ['allow', '--command', 'pytest']).code, 0);
    assert.equal(cli(ws, ['check', '--command', 'pytest', '--json']).json().verdict, 'allow');
    cli(ws, ['record', '--command', 'pytest', '--exit-code', '1'], 'FAILED tests/test_a.py::test_add\n===== 1 failed, 2 passed in 0.1s =====\n');
    assert.equal(cli(ws, ['check', '--command', 'pytest']).code, 2, 'allow is used up by one run');
    const ok = cli(ws, ['record', '--command', 'pytest -q', '--exit-code', '0', '--json'], '===== 3 passed in 0.1s =====\n').json();
    assert.equal(ok.status, 'resolved');
    assert.equal(ok.attempts, 0);
    assert.equal(ok.testResults.passed, 3);
    assert.equal(cli(ws, ['check', '--command', 'pytest', '--json']).json().status, 'clear');

    for (let i = 0; i < 5; i++) cli(ws, ['record', '--command', 'make build', '--exit-code', '2'], 'make: *** [Makefile:3: build] Error 1\n');
    assert.equal(cli(ws, ['resolve', '--command', 'make build']).code, 0);
    assert.equal(cli(ws, ['check', '--command', 'make build']).code, 0);
    assert.equal(cli(ws, ['resolve', '--command', 'never ran']).code, 1);
  });

  test('record parses test results and reports patterns', () => {
    const ws = workspace();
    const out = '  ● Calc › adds\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 3 passed, 4 total\n';
    cli(ws, ['record', '--command', 'npx jest', '--exit-code', '1'], out);
    const j = cli(ws, ['record', '--command', 'npx jest --ci', '--exit-code', '1', '--json'], out).json();
    assert.deepEqual([j.testResults.passed, j.testResults.failed, j.testResults.total], [3, 1, 4]);
    assert.ok(j.patterns.includes('same_test_failure'), JSON.stringify(j.patterns));
    assert.equal(j.progress, 'stable');
  });

  test('secrets never reach the memory file', () => {
    const ws = workspace();
    const key = 'AKIA' + 'IOSFODNN7EXAMPLE';
    const r = cli(ws, ['record', '--command', `curl -H "Authorization: Bearer abc.def.ghi" https://user:hunter2@example.com --exit`, '--exit-code', '22', '--json'], `aws_access_key_id=${key}\ncurl: (22) The requested URL returned error: 403\n`);
    assert.equal(r.code, 0, r.stderr);
    const file = readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8');
    for (const secret of [key, 'hunter2', 'abc.def.ghi']) assert.ok(!file.includes(secret), `memory holds ${secret}`);
    assert.match(file, /REDACTED/);
    const red = cli(ws, ['redact'], `token: ghp_${'x1Y2z3'.repeat(6)}\nplain text stays\n`);
    assert.equal(red.code, 0);
    assert.match(red.stdout, /\[REDACTED:github-token\]/);
    assert.match(red.stdout, /plain text stays/);
  });

  test('recall ranks similar failures first', () => {
    const ws = workspace();
    cli(ws, ['record', '--command', 'python train.py', '--exit-code', '1'], "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\nModuleNotFoundError: No module named 'numpy'\n");
    cli(ws, ['record', '--command', 'npm run dev', '--exit-code', '1'], 'Error: listen EADDRINUSE: address already in use :::5173\n');
    cli(ws, ['record', '--command', 'cargo build', '--exit-code', '101'], 'error[E0425]: cannot find value `foo` in this scope\n');
    const hits = cli(ws, ['recall', '--query', 'ImportError: No module named numpy', '--k', '2', '--json']).json();
    assert.equal(hits.length >= 1, true);
    assert.equal(hits[0].key, '.::python train.py');
    for (const h of hits) for (const f of ['command', 'key', 'errorSignature', 'score', 'status']) assert.ok(f in h, f);
    const port = cli(ws, ['recall', '--query', 'Port 5173 is already in use', '--json']).json();
    assert.equal(port[0].key, '.::npm run dev');
  });

  test('reflect prints Markdown, or the stored record as JSON', () => {
    const ws = workspace();
    for (let i = 0; i < 3; i++) cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], PRISMA);
    const md = cli(ws, ['reflect']);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /# Reflection: `npm test`/);
    assert.match(md.stdout, /Failed 3 times in a row \(the limit is 5\) · failing · the same error each time/);
    assert.match(md.stdout, /Am I repeating the same approach/);
    const j = cli(ws, ['reflect', '--command', 'npm test', '--json']).json();
    assert.equal(j.failure_memory.key, '.::npm test');
    assert.equal(j.failure_memory.attempts, 3);
    const mem = JSON.parse(cli(ws, ['export']).stdout);
    assert.equal(mem.reflections.length, 2);
    const none = cli(workspace(), ['reflect']);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /Nothing to reflect on/);
  });

  test('list, learn, export and clear', () => {
    const ws = workspace();
    for (let i = 0; i < 5; i++) cli(ws, ['record', '--command', 'docker compose up', '--exit-code', '1'], 'Error response from daemon: port is already allocated\n');
    cli(ws, ['record', '--command', 'docker build .', '--exit-code', '1'], 'ERROR: failed to solve: dockerfile parse error\n');
    const l = cli(ws, ['learn', '--type', 'decision', '--text', 'Use port 8081 for the dev stack', '--command', 'docker compose up', '--json']).json();
    assert.equal(l.key, '.::docker compose up');
    const list = cli(ws, ['list', '--json']).json();
    assert.equal(list.exhausted.length, 1);
    assert.equal(list.failing.length, 1);
    assert.equal(list.learnings, 1);
    assert.equal(cli(ws, ['clear']).code, 1, 'clear without --yes refuses');
    assert.equal(cli(ws, ['clear', '--yes']).code, 0);
    assert.deepEqual(JSON.parse(cli(ws, ['export']).stdout).approaches, {});
  });

  test('the workspace threshold setting is honoured (settings.json with comments)', () => {
    const ws = workspace();
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode/settings.json'), '{\n  // stricter here\n  "failureMemory.threshold": 2,\n}\n');
    cli(ws, ['record', '--command', 'tsc', '--exit-code', '2'], "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n");
    const j = cli(ws, ['record', '--command', 'tsc -p .', '--exit-code', '2', '--json'], "src/a.ts(9,1): error TS2322: Type 'string' is not assignable to type 'number'.\n").json();
    assert.equal(j.status, 'exhausted');
    assert.equal(j.threshold, 2);
  });

  test('bad usage exits 1 with a clear message', () => {
    const ws = workspace();
    for (const args of [['record', '--exit-code', '1'], ['record', '--command', 'x', '--exit-code', 'abc'], ['frobnicate'], ['check'], ['recall', '--query', 'x', '--k', '0'], ['learn', '--type', 'nope', '--text', 'x'], ['check', '--command']]) {
      const r = cli(ws, args);
      assert.equal(r.code, 1, `${args.join(' ')} → ${r.code}`);
      assert.match(r.stderr, /failure-memory: /);
    }
    const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: failure-memory/);
  });

  test('a corrupt memory file is moved aside with a warning, and recording goes on', () => {
    const ws = workspace();
    mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
    writeFileSync(join(ws, '.vscode/failure-memory/memory.json'), '{"schemaVersion":1,"approaches":{');
    const r = cli(ws, ['record', '--command', 'false', '--exit-code', '1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /corrupt/i);
    assert.equal(r.json().attempts, 1);
  });

  test('an unknown exit code is recorded and not counted', () => {
    const ws = workspace();
    const j = cli(ws, ['record', '--command', 'npm start', '--exit-code', 'unknown', '--json']).json();
    assert.equal(j.outcome, 'unknown');
    assert.equal(j.stored, true);
    assert.equal(j.attempts, 0);
    assert.equal(j.status, 'active');
  });
});

describe('the CLI: one cause across commands', () => {
  const NODE_PG = ' FAIL test/db.test.js\n  ● db › connects\n\n    connect ECONNREFUSED 127.0.0.1:5432\n';
  const PG = 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n';
  const PRISMA_DB = "Error: P1001: Can't reach database server at `localhost`:`5432`\n";

  test('three commands refused twice each by the database: check exits 2 naming the cause, `patterns` lists it, a success lifts it and `patterns` keeps the fix', () => {
    const ws = workspace();
    for (let i = 0; i < 2; i++) {
      for (const [command, code, out] of [['npm test', '1', NODE_PG], ['psql -h localhost -U app -c "select 1"', '2', PG], ['npx prisma migrate dev', '1', PRISMA_DB]]) {
        assert.equal(cli(ws, ['record', '--command', command, '--exit-code', code], out).code, 0);
      }
    }
    const check = cli(ws, ['check', '--command', 'npm test']);
    assert.equal(check.code, 2);
    assert.match(check.stderr, /^Failure Memory: NOT RUN — `npm test` fails on a cause that keeps failing other commands too\.$/m);
    assert.match(check.stderr, /^Why \(systemic-cause\): the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d, and nothing changed since: start it first$/m);
    const json = cli(ws, ['check', '--command', 'npx prisma migrate dev', '--json']).json();
    assert.equal(json.code, 'systemic-cause');
    assert.equal(json.mustNotRun, true);
    assert.deepEqual(json.pattern.commands, ['npm test', 'psql', 'prisma migrate dev']);
    const warn = cli(ws, ['check', '--command', 'python manage.py migrate']);
    assert.equal(warn.code, 0);
    assert.match(warn.stdout, /warn \(systemic-cause\): not seen failing with it, but the database at localhost:5432 refused 6 runs of 3 commands/);

    const listed = cli(ws, ['patterns']);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /^  ACTIVE, systemic — the database at localhost:5432 refused 6 runs of 3 commands since \d\d:\d\d$/m);
    assert.match(listed.stdout, /^      commands: npm test; psql; prisma migrate dev$/m);

    assert.equal(cli(ws, ['record', '--command', 'docker compose up -d db', '--exit-code', '0', '--no-stdin']).code, 0);
    const pass = cli(ws, ['record', '--command', 'npm test', '--exit-code', '0'], 'Tests: 3 passed, 3 total\n');
    assert.match(pass.stdout, /^resolved: the database at localhost:5432 answers again \(after ⟦docker compose up -d db⟧\)\.$/m);
    assert.equal(cli(ws, ['check', '--command', 'npx prisma migrate dev']).code, 0);
    const after = cli(ws, ['patterns', '--json']).json();
    assert.equal(after.patterns[0].status, 'resolved');
    assert.deepEqual(after.patterns[0].fix, { command: 'docker compose up -d db', worked: 1 });
    assert.match(cli(ws, ['patterns']).stdout, /^      fixed before by: `docker compose up -d db`$/m);
  });

  test('`patterns` says so when no cause failed several commands', () => {
    const ws = workspace();
    assert.equal(cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], NODE_PG).code, 0);
    const r = cli(ws, ['patterns']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'No cause has failed several commands here (1 cause(s) of one command each: --all lists them).\n');
    assert.match(cli(ws, ['patterns', '--all']).stdout, /^  ACTIVE — the database at localhost:5432 refused 1 run of 1 command/m);
  });
});

describe('write amplification', () => {
  test('a command that succeeds and never failed does not rewrite the memory file', () => {
    const ws = workspace();
    cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], 'Error: boom\n');
    const file = join(ws, '.vscode/failure-memory/memory.json');
    const before = readFileSync(file, 'utf8');
    const mtime = statSync(file).mtimeMs;
    const r = cli(ws, ['record', '--command', 'ls -la', '--exit-code', '0', '--json']).json();
    assert.equal(r.stored, false);
    assert.equal(statSync(file).mtimeMs, mtime, 'file untouched');
    assert.equal(readFileSync(file, 'utf8'), before);
    // a success of a remembered approach is written (it resolves it)
    assert.equal(cli(ws, ['record', '--command', 'npm test', '--exit-code', '0', '--json']).json().status, 'resolved');
  });
});

test('an absolute --cwd inside the workspace is stored relative to it', () => {
  const ws = workspace();
  const j = cli(ws, ['record', '--command', 'npm test', '--exit-code', '1', '--cwd', join(ws, 'packages', 'api'), '--json'], 'Error: x\n').json();
  assert.equal(j.cwd, 'packages/api');
  assert.equal(j.key, 'packages/api::npm test');
  assert.equal(cli(ws, ['check', '--command', 'npm test', '--cwd', 'packages/api', '--json']).json().attempts, 1);
  assert.equal(cli(ws, ['record', '--command', 'make', '--exit-code', '2', '--cwd', ws, '--json']).json().cwd, '.');
});

describe('the CLI: edit, report, check', () => {
  test('`edit` records a change, `check` sees it, `report` lists every ask and deny with its rule, also in shadow mode', () => {
    const ws = workspace();
    for (let i = 0; i < 3; i++) cli(ws, ['record', '--command', 'make build', '--exit-code', '2', '--threshold', '3'], 'make: *** [build] Error 2\n');
    const denied = cli(ws, ['check', '--command', 'make build', '--threshold', '3', '--json']);
    assert.equal(denied.code, 2);
    assert.deepEqual(['decision', 'code'].map(k => JSON.parse(denied.stdout)[k]), ['deny', 'same-error-unchanged']);
    const e = cli(ws, ['edit', '--path', 'Makefile', '--json']);
    assert.equal(e.code, 0, e.stderr);
    assert.equal(JSON.parse(e.stdout).path, 'Makefile');
    const after = cli(ws, ['check', '--command', 'make build', '--threshold', '3']);
    assert.notEqual(JSON.parse(cli(ws, ['check', '--command', 'make build', '--threshold', '3', '--json']).stdout).decision, 'deny');
    assert.doesNotMatch(after.stderr, /NOT RUN/);
    assert.equal(cli(ws, ['edit', '--path', 'x.c', '--failed', '--json']).code, 0);
    // shadow mode: nothing is stopped, what would have been is recorded
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{ "failureMemory.gate.strongestAnswer": "warn" }');
    const shadowWs = workspace();
    mkdirSync(join(shadowWs, '.vscode'));
    writeFileSync(join(shadowWs, '.vscode', 'settings.json'), '{ "failureMemory.gate.strongestAnswer": "warn", "failureMemory.threshold": 3 }');
    for (let i = 0; i < 3; i++) cli(shadowWs, ['record', '--command', 'make build', '--exit-code', '2'], 'make: *** [build] Error 2\n');
    const shadow = cli(shadowWs, ['check', '--command', 'make build', '--json']);
    assert.equal(shadow.code, 0, 'shadow mode stops nothing');
    assert.deepEqual(['decision', 'policyDecision'].map(k => JSON.parse(shadow.stdout)[k]), ['warn', 'deny']);
    const report = cli(shadowWs, ['report']);
    assert.equal(report.code, 0);
    assert.match(report.stdout, /strongest answer warn \(shadow mode/);
    assert.match(report.stdout, /would have denied/);
    assert.match(report.stdout, /same-error-unchanged — the same error again with nothing changed/);
    const json = JSON.parse(cli(shadowWs, ['report', '--json']).stdout);
    assert.deepEqual([json.byPolicy.deny, json.shadowed], [1, 1]);
    assert.equal(JSON.parse(readFileSync(join(shadowWs, '.vscode/failure-memory/memory.json'), 'utf8')).decisions[0].via, 'cli');
  });
});

describe('recall', () => {
  test('the CLI recalls with the offline embedder by default (same JSON shape)', () => {
    const ws = workspace();
    cli(ws, ['record', '--command', 'python train.py', '--exit-code', '1'], "ModuleNotFoundError: No module named 'numpy'\n");
    cli(ws, ['record', '--command', 'npm run dev', '--exit-code', '1'], 'Error: listen EADDRINUSE: address already in use :::5173\n');
    const r = cli(ws, ['recall', '--query', 'vite says the port is taken', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const hits = JSON.parse(r.stdout) as Record<string, unknown>[];
    assert.equal(hits[0].key, '.::npm run dev');
    for (const h of hits) assert.deepEqual(Object.keys(h).filter(k => k !== 'lesson').sort(), ['command', 'errorSignature', 'key', 'score', 'status']);
    const index = JSON.parse(readFileSync(join(ws, '.vscode/failure-memory/vectors.json'), 'utf8')) as { embedder: string };
    assert.match(index.embedder, /^offline-v1:/);
    const lexicalOnly = cli(ws, ['recall', '--query', 'vite says the port is taken', '--json', '--lexical']);
    assert.equal(lexicalOnly.code, 0, lexicalOnly.stderr);
  });
});
