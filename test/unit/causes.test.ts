// A failure's cause (src/core/rules/causes.ts): the error concept of its own error lines and the
// factors that tell one instance from another, read once when the run is recorded (prepareAttempt).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { prepareAttempt } from '../../src/core/memory';
import { causeOf, describeCause, exitFamily } from '../../src/core/rules/causes';
import { lineSetsUp } from '../../src/core/rules/causePolicy';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, type AttemptCause } from '../../src/core/types';

const redactor = createRedactor();
const cause = (command: string, exitCode: number, output: string, storeOutput = true): AttemptCause | undefined =>
  prepareAttempt({ command, exitCode, output, source: 'agent' }, { ...DEFAULT_SETTINGS, storeOutput }, redactor).cause;

describe('the concept and its salient factors', () => {
  test('a refused connection: host and port from psql, Node, Prisma and redis-cli alike; the port names the service', () => {
    const psql = cause('psql', 2, 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n');
    assert.deepEqual(psql, { kind: 'conn_refused', cls: 'service', key: 'conn_refused|localhost:5432', factors: { host: 'localhost', port: '5432', service: 'database', exit: 'error (1-2)' } });
    assert.equal(cause('npm test', 1, ' FAIL t.test.js\n  ● db › connects\n\n    connect ECONNREFUSED 127.0.0.1:5432\n')?.key, 'conn_refused|localhost:5432');
    assert.equal(cause('npx prisma db push', 1, "Error: P1001: Can't reach database server at `localhost`:`5432`\n")?.key, 'conn_refused|localhost:5432');
    const redis = cause('redis-cli ping', 1, 'Could not connect to Redis at 127.0.0.1:6379: Connection refused\n');
    assert.equal(redis?.key, 'conn_refused|localhost:6379');
    assert.equal(describeCause(redis!), 'the Redis at localhost:6379');
  });

  test('the port comes from the output as printed, also when the stored output is off (the signature masks it)', () => {
    const c = cause('node app.js', 1, 'Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect\n', false);
    assert.equal(c?.key, 'conn_refused|localhost:6379');
  });

  test('a port taken, the Docker daemon, credentials refused for a host', () => {
    assert.equal(cause('npm run dev', 1, 'Error: listen EADDRINUSE: address already in use :::3000\n')?.key, 'addr_in_use|3000');
    assert.equal(cause('docker compose up', 1, 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n')?.kind, 'docker_daemon');
    const push = cause('git push', 128, 'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n');
    assert.deepEqual([push?.kind, push?.cls, push?.factors.host], ['auth', 'credentials', 'github.com']);
  });

  test('the toolchain: a missing program, a missing module (its top package), a variable not set', () => {
    assert.equal(cause('ffmpeg -i a.mp4 b.gif', 127, 'bash: ffmpeg: command not found\n')?.key, 'command_missing|ffmpeg');
    const numpy = cause('python a.py', 1, "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nModuleNotFoundError: No module named 'numpy.linalg'\n");
    assert.equal(numpy?.key, 'module_missing|numpy', 'a submodule is its package');
    assert.equal(cause('node a.js', 1, "Error: Cannot find module '@prisma/client/runtime'\n")?.key, 'module_missing|@prisma/client');
    assert.equal(cause('python app.py', 1, "Traceback (most recent call last):\nKeyError: 'OPENAI_API_KEY'\n")?.key, 'env_missing|OPENAI_API_KEY');
    assert.equal(cause('npm start', 1, 'Error: DATABASE_URL is not set\n')?.key, 'env_missing|DATABASE_URL');
  });

  test("the workspace's own code is not the toolchain: a relative module, a dict's KeyError, a missing file not named", () => {
    assert.deepEqual(cause('node app.js', 1, "Error: Cannot find module './utils'\n")?.cls, 'code');
    assert.equal(cause('python app.py', 1, "Traceback (most recent call last):\nKeyError: 'name'\n")?.kind, 'error');
    assert.equal(cause('python x.py', 1, 'Error: file not found\n')?.kind, 'error', 'a missing file it does not name merges nothing');
    assert.equal(cause('cat data/train.csv', 1, 'cat: data/train.csv: No such file or directory\n')?.key, 'file_missing|data/train.csv');
  });

  test("a concept in the output but not in the error's own lines is not the cause: an assertion whose test logged a refusal", () => {
    const c = cause('pytest', 1, 'WARNING connection refused, retrying\nE   assert 3 == 4\nFAILED tests/test_a.py::test_x - assert 3 == 4\n1 failed in 0.1s\n');
    assert.equal(c?.kind, 'error');
    assert.match(c!.key, /^error\|failing_assertion\|FAILED tests\/test_a\.py::test_x - assert <n> == <n>$/);
  });

  test('no cause to tell without an error line; none for a success', () => {
    assert.equal(causeOf({ exitCode: 1, errorSignature: '', output: '' }), undefined);
    assert.equal(cause('python x.py', 1, '{\n  "ok": false\n}\n'), undefined);
    assert.equal(cause('ls', 0, 'a\nb\n'), undefined);
  });

  test('the exit family is a factor told, never a key', () => {
    assert.equal(exitFamily(127), 'not found (127)');
    assert.equal(exitFamily(137), 'killed (137)');
    assert.equal(exitFamily(2), 'error (1-2)');
    assert.equal(cause('psql', 2, 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n')?.key, cause('node x.js', 1, 'Error: connect ECONNREFUSED 127.0.0.1:5432\n')?.key);
  });
});

describe('a line that sets up what the cause lacks is not the same loop', () => {
  test('an activated environment for a missing module (corpus 073c82 gen_art_dataset_1 #35 passed that way), the variable given on the line', () => {
    assert.ok(lineSetsUp({ kind: 'module_missing', factors: { module: 'datasets' } }, 'source /p/.venv/bin/activate && python -c "from datasets import load_dataset"'));
    assert.ok(lineSetsUp({ kind: 'command_missing', factors: { program: 'uv' } }, 'PATH=$HOME/.local/bin:$PATH uv sync'));
    assert.ok(lineSetsUp({ kind: 'env_missing', factors: { variable: 'DATABASE_URL' } }, 'DATABASE_URL=postgres://localhost/app npm test'));
    assert.equal(lineSetsUp({ kind: 'env_missing', factors: { variable: 'DATABASE_URL' } }, 'npm test'), undefined);
    assert.equal(lineSetsUp({ kind: 'conn_refused', factors: { port: '5432' } }, 'source .venv/bin/activate && pytest'), undefined, 'an environment does not start a database');
  });
});
