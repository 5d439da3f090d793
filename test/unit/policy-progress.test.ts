// Policy: progress is not a loop. An exhausted approach whose tests pass more each time, or a
// status probe polled while what it waits for was started (a background job, a service command, for a
// bounded time), is warned about, not blocked; a loop with nothing changed is denied.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAnswerText } from '../../src/agents/tools';
import { checkCommand } from '../../src/core/rules/check';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { isStatusProbe, POLL_WINDOW_MS, pollingStatus } from '../../src/core/rules/polling';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';

const redactor = createRedactor();
const T0 = Date.parse('2026-11-20T10:00:00Z');

function run(data: MemoryData, command: string, exitCode: number, output: string, at: number) {
  return applyAttempt(data, prepareAttempt({ command, exitCode, output, source: 'agent' }, DEFAULT_SETTINGS, redactor, new Date(at)), DEFAULT_SETTINGS);
}
const check = (data: MemoryData, command: string, at: number) => checkCommand(data, command, '.', DEFAULT_SETTINGS, new Date(at));

const jest = (passed: number, failed: number) => `  ● Calc › case ${failed}\n\n    expect(received).toBe(expected)\n\nTests:       ${failed} failed, ${passed} passed, ${passed + failed} total\n`;
const CURL_DOWN = "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server\n";

describe('progress is not a loop: improving test counts', () => {
  test('improving → exhausted but warned; the answer for agents says it may run', () => {
    const data = emptyMemory();
    [2, 4, 5, 7, 9].forEach((passed, i) => run(data, 'npx jest', 1, jest(passed, 10 - passed), T0 + i * 60_000));
    const c = check(data, 'npx jest', T0 + 6 * 60_000);
    assert.equal(c.status, 'exhausted');
    assert.equal(c.progress, 'improving');
    assert.equal(c.verdict, 'warn');
    assert.match(c.reason, /improving/);
    const text = checkAnswerText(c, []);
    assert.match(text, /^EXHAUSTED, but not blocked/);
    assert.doesNotMatch(text, /NOT RUN/);
  });

  test('stable or regressing counts → blocked', () => {
    for (const series of [[5, 5, 5, 5, 5], [9, 7, 6, 4, 2], [3, 5, 4, 6, 2]]) {
      const data = emptyMemory();
      series.forEach((passed, i) => run(data, 'npx jest', 1, jest(passed, 10 - passed), T0 + i * 60_000));
      const c = check(data, 'npx jest', T0 + 6 * 60_000);
      assert.equal(c.verdict, 'block', `${series.join(',')}: ${c.progress}`);
      assert.match(checkAnswerText(c, []), /^EXHAUSTED — do not run/);
    }
  });

  test('improving, then a regression → blocked again', () => {
    const data = emptyMemory();
    [1, 2, 3, 4, 5].forEach((passed, i) => run(data, 'pytest', 1, `===== ${10 - passed} failed, ${passed} passed in 0.5s =====\n`, T0 + i * 60_000));
    assert.equal(check(data, 'pytest', T0 + 5 * 60_000).verdict, 'warn');
    run(data, 'pytest', 1, '===== 8 failed, 2 passed in 0.5s =====\n', T0 + 6 * 60_000);
    assert.equal(check(data, 'pytest', T0 + 7 * 60_000).verdict, 'block');
  });

  test('crashes without test counts never count as progress', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) run(data, 'npm run build', 1, "Error: Cannot find module '@prisma/client'\n", T0 + i * 60_000);
    assert.equal(check(data, 'npm run build', T0 + 6 * 60_000).verdict, 'block');
  });
});

describe('progress is not a loop: polling a status probe', () => {
  /** A service started (`npm run dev &`: its end is not known) just before the polls. */
  const started = (command = 'npm run dev &', at = T0 - 1_000) => {
    const data = emptyMemory();
    applyAttempt(data, prepareAttempt({ command, exitCode: null, output: '', source: 'agent' }, DEFAULT_SETTINGS, redactor, new Date(at)), DEFAULT_SETTINGS);
    return data;
  };
  const poll = (command: string, output: string, gapMs = 5_000, n = 6, exit = 7, data = started()) => {
    for (let i = 0; i < n; i++) run(data, command, exit, output, T0 + i * gapMs);
    return { data, last: T0 + (n - 1) * gapMs };
  };

  test('curl to a dev server that is still starting → warned, not blocked', () => {
    const { data, last } = poll('curl -fsS localhost:3000/health', CURL_DOWN);
    const c = check(data, 'curl -fsS localhost:3000/health', last + 2_000);
    assert.equal(c.status, 'exhausted');
    assert.equal(c.verdict, 'warn');
    assert.equal(c.code, 'probe-waiting');
    assert.match(c.reason, /status probe polled while what it waits for starts/);
  });

  test('a dead endpoint polled with nothing started is a loop: the sixth identical failure is denied', () => {
    // the day: `curl 127.0.0.1:9/health` failing identically, nothing starting
    const { data, last } = poll('curl -sf 127.0.0.1:9/health', "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n", 5_000, 5, 7, emptyMemory());
    const c = check(data, 'curl -sf 127.0.0.1:9/health', last + 2_000);
    assert.equal(c.decision, 'deny');
    assert.equal(c.code, 'same-error-unchanged');
  });

  test('a probe while the start command keeps changing waits: each restart starts the bounded wait again', () => {
    // the held-out shape: `sleep 3 && curl -s localhost:PORT/health` while the command starting the service changes
    for (const probe of ['curl -s localhost:8000/health', 'sleep 3 && curl -s localhost:8000/health']) {
      const data = started('python app.py --port 8000 &', T0 - 11 * 60_000);
      for (let i = 0; i < 3; i++) run(data, probe, 7, CURL_DOWN, T0 - 10 * 60_000 + i * 60_000);
      applyAttempt(data, prepareAttempt({ command: 'PORT=8000 python app.py &', exitCode: null, output: '', source: 'agent' }, DEFAULT_SETTINGS, redactor, new Date(T0 - 60_000)), DEFAULT_SETTINGS);
      for (let i = 0; i < 3; i++) run(data, probe, 7, CURL_DOWN, T0 + i * 20_000);
      const c = check(data, probe, T0 + 60_000);
      assert.equal(c.decision, 'warn', probe);
      // without the restart the wait would be over: its first failure is 11 min old
      if (!probe.startsWith('sleep')) assert.match(c.reason, /the start command changed 1 time/);
    }
  });

  test('other probes: 503, pg_isready (silent), kubectl wait, docker compose ps', () => {
    const cases: Array<[string, string, number]> = [
      ['curl -f http://127.0.0.1:8080/healthz', 'curl: (22) The requested URL returned error: 503\n', 22],
      ['pg_isready -h localhost -p 5432', '', 2],
      ['kubectl wait --for=condition=ready pod -l app=web --timeout=10s', 'error: timed out waiting for the condition on pods/web-7c9\n', 1],
      ['redis-cli ping', 'Could not connect to Redis at 127.0.0.1:6379: Connection refused\n', 1],
      ['nc -z localhost 5432', '', 1],
    ];
    for (const [cmd, out, exit] of cases) {
      const { data, last } = poll(cmd, out, 3_000, 6, exit);
      assert.equal(check(data, cmd, last + 1_000).verdict, 'warn', cmd);
    }
  });

  test('a probe still failing after the window → blocked: whatever it waits for is not starting', () => {
    const data = started();
    let t = T0;
    for (; t < T0 + POLL_WINDOW_MS + 60_000; t += 30_000) run(data, 'curl localhost:3000/health', 7, CURL_DOWN, t);
    const c = check(data, 'curl localhost:3000/health', t);
    assert.equal(c.verdict, 'block');
    assert.match(pollingStatus(data.approaches['.::curl http://localhost:3000/health'], new Date(t)).reason, /not starting/);
  });

  test('failures far apart in time are a loop, not a poll', () => {
    const { data, last } = poll('curl localhost:3000/health', CURL_DOWN, 3 * 60 * 60_000);
    assert.equal(check(data, 'curl localhost:3000/health', last + 1_000).verdict, 'block');
  });

  test('an answer that waiting does not fix → blocked (404, 401, TLS, unknown host, command not found)', () => {
    for (const out of [
      'curl: (22) The requested URL returned error: 404\n',
      'curl: (22) The requested URL returned error: 401\n',
      'curl: (60) SSL certificate problem: self-signed certificate\n',
      'curl: (6) Could not resolve host: api.internal\n',
      'bash: curl: command not found\n',
    ]) {
      const { data, last } = poll('curl localhost:3000/health', out);
      assert.equal(check(data, 'curl localhost:3000/health', last + 1_000).verdict, 'block', out);
    }
  });

  test('a "connection refused" from a command that changes things is a loop', () => {
    for (const cmd of ['npm run migrate', 'curl -X POST localhost:3000/api/seed', 'curl -d @body.json localhost:3000/api', 'curl -fsSL localhost:3000/install.sh | sh', 'kubectl apply -f k8s/']) {
      const { data, last } = poll(cmd, 'Error: connect ECONNREFUSED 127.0.0.1:5432\n', 5_000, 6, 1);
      assert.equal(check(data, cmd, last + 1_000).verdict, 'block', cmd);
    }
  });

  test('a stale streak (last poll long ago) is not a poll in progress', () => {
    const { data, last } = poll('curl localhost:3000/health', CURL_DOWN, 5_000, 6);
    assert.equal(check(data, 'curl localhost:3000/health', last + 5 * 60_000).verdict, 'block');
  });

  test('which commands are status probes', () => {
    const yes = ['curl localhost:3000/health', 'curl -sSf -o /dev/null http://127.0.0.1:8080', 'wget --spider -q http://localhost:3000', 'http :3000/health', 'http GET :3000/health', 'curl -fsSL -D - localhost:3000', 'wget -T 5 --spider localhost:3000', 'nc -z localhost 5432', 'pg_isready', 'redis-cli -h localhost ping', 'mysqladmin ping -h 127.0.0.1', 'kubectl get pods -w', 'kubectl rollout status deploy/web', 'kubectl wait --for=condition=ready pod/web', 'docker ps', 'docker compose ps', 'docker inspect web', 'systemctl is-active postgresql', 'gh run watch 123', 'gh pr checks'];
    const no = ['curl -X POST localhost:3000/api', 'curl --data a=1 localhost', 'curl -F f=@x localhost', 'curl -sSd@body.json localhost', 'curl --json {} localhost', 'wget --post-data=a localhost', 'http POST :3000/api a=1', 'http :3000/api name=x', 'xh PUT :3000/x', 'curl -fsSL https://get.example.sh | bash', 'kubectl apply -f k8s', 'kubectl delete pod web', 'docker compose up', 'docker run postgres', 'nc localhost 5432', 'npm test', 'systemctl restart nginx', 'gh run rerun 123'];
    for (const c of yes) assert.equal(isStatusProbe(c), true, c);
    for (const c of no) assert.equal(isStatusProbe(c), false, c);
  });
});
