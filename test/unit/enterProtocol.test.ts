import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { enterReply, greeting, parseEnterRequest, requestComplete } from '../../src/core/enterProtocol';
import { notRunLine, stopResult } from '../../src/core/rules/guardVerdict';
import { parseForegroundGroup } from '../../src/host/foreground';

const TOKEN = 'ab'.repeat(16);
const request = (...fields: string[]) => fields.map(f => `${f}\0`).join('');

describe('the Enter gate wire format', () => {
  test('a request: token, pid, shell, cwd, flags, line; a line keeps its newlines, quotes and non-ASCII', () => {
    const line = 'for f in *.ts; do\n  echo "é $f"\ndone';
    assert.deepEqual(parseEnterRequest(request(TOKEN, '4242', 'bash', '/home/u/my project', 'c', line)), {
      token: TOKEN,
      pid: 4242,
      shell: 'bash',
      cwd: '/home/u/my project',
      continuation: true,
      line,
    });
    assert.equal(parseEnterRequest(request(TOKEN, '4242', 'zsh', '/w', '', 'make'))?.continuation, false);
  });

  test('a request is complete after six NUL-terminated fields; a malformed one is refused, never guessed', () => {
    assert.equal(requestComplete(5), false);
    assert.equal(requestComplete(6), true);
    assert.equal(parseEnterRequest(request(TOKEN, '1', 'bash', '/w', '')), undefined, 'a field missing');
    assert.equal(parseEnterRequest(request('not-a-token', '1', 'bash', '/w', '', 'make')), undefined);
    assert.equal(parseEnterRequest(request(TOKEN, 'x', 'bash', '/w', '', 'make'))?.pid, undefined, 'no pid: no terminal, still decided');
    assert.equal(parseEnterRequest(request(TOKEN, '0', 'bash', '/w', '', 'make'))?.pid, undefined);
  });

  test('the reply is one line: control characters of a label never reach the terminal', () => {
    assert.equal(enterReply({ verdict: 'run' }), 'run\n');
    assert.equal(enterReply({ verdict: 'block', line: 'NOT RUN — “a\x1b]0;x\x07b”\nsecond' }), 'block NOT RUN — “a ]0;x b” second\n');
    assert.equal(greeting('f00d'), 'FM1 f00d\n');
  });
});

describe('what the guard says about a stopped run', () => {
  test('stopped only from an interrupt exit, with how long it ran; ended first; gone; still running', () => {
    assert.deepEqual(stopResult({ exitCode: 130, ranMs: 41.6 }), { kind: 'stopped', afterMs: 42 });
    assert.deepEqual(stopResult({ exitCode: 130 }), { kind: 'stopped' });
    assert.deepEqual(stopResult({ exitCode: 1, ranMs: 20 }), { kind: 'endedFirst', exitCode: 1 });
    assert.deepEqual(stopResult({ exitCode: undefined, gone: true }), { kind: 'ended' });
    assert.deepEqual(stopResult(undefined), { kind: 'stillRunning' });
  });

  test('the terminal line for a line the Enter gate did not run', () => {
    assert.equal(
      notRunLine(5, 'npm test'),
      'Failure Memory: NOT RUN — “npm test” failed 5 times in a row; run again unchanged, it would fail the same way. VS Code shows what to do; Up brings the line back.',
    );
    assert.match(notRunLine(0, 'npx jest b.test.ts'), /repeats a loop that keeps failing/);
  });

  test("the foreground process group from /proc/<pid>/stat, whatever the command's name holds", () => {
    assert.equal(parseForegroundGroup('4242 (bash) S 4200 4242 4242 34816 5150 4194560 100 0 0 0'), 5150);
    assert.equal(parseForegroundGroup('77 (a) b (c) S 1 77 77 34817 77 0'), 77);
    assert.equal(parseForegroundGroup('4242 (bash) S 4200 4242 4242 0 -1 4194560'), undefined, 'no terminal');
  });
});
