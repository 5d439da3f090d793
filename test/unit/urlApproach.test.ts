// A URL's scheme, host, port and path are its approach: a refused port keeps failing while another
// port answers, and a pass on one says nothing of the other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { urlWork } from '../../src/core/approach/work';
import { checkCommand } from '../../src/core/rules/check';
import { DEFAULT_SETTINGS, emptyMemory } from '../../src/core/types';
import { recorder } from '../support/recorder';

const REFUSED = (port: number) => `curl: (7) Failed to connect to 127.0.0.1 port ${port} after 0 ms: Couldn't connect to server\n`;

test('urlWork: scheme, host, port and path; query, fragment, user and the default port fold', () => {
  assert.equal(urlWork('http://127.0.0.1:9/health'), 'http://127.0.0.1:9/health');
  assert.equal(urlWork('HTTPS://Example.COM:443/a/b/?q=1#top'), 'https://example.com/a/b');
  assert.equal(urlWork('localhost:3000/health'), 'http://localhost:3000/health');
  assert.equal(urlWork('http://admin@host.example:8080/x'), 'http://host.example:8080/x');
  assert.equal(urlWork('http://[::1]:9000/api'), 'http://[::1]:9000/api');
  assert.equal(urlWork('README'), undefined, 'a word is no URL');
  assert.equal(urlWork('-o'), undefined);
});

test('a pass on :8080 does not clear the streak of :9; :9 stays exhausted', () => {
  const rec = recorder();
  const data = emptyMemory();
  for (let i = 0; i < DEFAULT_SETTINGS.threshold; i++) rec.run(data, 'curl -sS http://127.0.0.1:9/health', 7, REFUSED(9));
  const ok = rec.run(data, 'curl -sS http://127.0.0.1:8080/health', 0, '{"ok":true}\n');
  assert.equal(ok.resolved, false, 'the pass is of another approach');
  const nine = data.approaches['.::curl http://127.0.0.1:9/health'];
  assert.equal(nine.status, 'exhausted');
  assert.equal(nine.failures, DEFAULT_SETTINGS.threshold);
  const c = checkCommand(data, 'curl -sS http://127.0.0.1:9/health', '.', DEFAULT_SETTINGS, new Date(rec.now() + 60_000));
  assert.equal(c.status, 'exhausted');
  const other = checkCommand(data, 'curl -sS http://127.0.0.1:3000/health', '.', DEFAULT_SETTINGS, new Date(rec.now() + 60_000));
  assert.equal(other.status, 'clear', 'another port is another approach');
});
