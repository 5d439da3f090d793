// Lessons that tell the truth and approaches that keep their address, in a real VS Code (both
// versions), run in its terminal on a git workspace:
//  - `node app.js` fails twice with a TypeError; a save of config.js with a typo makes it fail with a
//    SyntaxError; the real fix makes it pass. The lesson names the TypeError (the error of the streak
//    the fix ends), not the typo's SyntaxError, and the file that fixed it.
//  - `curl` to a port where nothing listens (:9) is exhausted; `curl` to another port is another
//    approach: it fails once, then passes once a server listens there, and :9 stays exhausted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { findPanelFrame } from './harness.mjs';

export const vscode = ['1.100', '1.139'];
export const timeout = 300_000;

// the config is read after 0.3 s, so that VS Code's execution.read() captures what the run prints
const APP_JS = `setTimeout(() => {
  const config = require('./config');
  console.log('listening on ' + config.server.port);
}, 300);
`;
const CONFIG = {
  missing: 'module.exports = { port: 3000 };\n',
  typo: 'module.exports = { server: { port: 3000,, } };\n',
  fixed: 'module.exports = { server: { port: 3000 } };\n',
};

export const options = {
  settings: { 'failureMemory.threshold': 3, 'workbench.activityBar.location': 'default' },
  workspaceFiles: { 'app.js': APP_JS, 'config.js': CONFIG.missing },
};

export async function run(h) {
  const git = (...args) => execFileSync('git', args, { cwd: h.workspace, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', 'add', 'app.js', 'config.js');
  git('-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', 'commit', '-q', '-m', 'app');
  const memory = () => JSON.parse(fs.readFileSync(path.join(h.workspace, '.vscode/failure-memory/memory.json'), 'utf8'));
  const runIn = async (command, exitCode, outcome) => {
    const since = h.readEvents().length;
    const r = await h.typeInTerminal(command);
    assert.equal(r.exitCode, exitCode, `${command}: ${r.output}`);
    return h.waitForEvent(e => e.event === 'recorded' && e.command === command && e.outcome === outcome, { since, what: `${command} recorded as ${outcome}` });
  };

  await h.waitForActivation();
  await h.openTerminal();
  await h.waitForEvent(e => e.event === 'shellIntegration', { what: 'shell integration reported to the extension' });

  // ---- a TypeError twice, a typo's SyntaxError on the way, then the fix ----
  await runIn('node app.js', 1, 'failure');
  await runIn('node app.js', 1, 'failure');
  fs.writeFileSync(path.join(h.workspace, 'config.js'), CONFIG.typo);
  await runIn('node app.js', 1, 'failure');
  const streak = memory().approaches['.::node app.js'];
  assert.match(streak.ledger.at(-1).signature, /SyntaxError/, 'the typo run failed with a SyntaxError');
  assert.match(streak.ledger[0].signature, /TypeError/);
  fs.writeFileSync(path.join(h.workspace, 'config.js'), CONFIG.fixed);
  const passed = await runIn('node app.js', 0, 'success');
  assert.deepEqual(passed.fixedBy, ['config.js']);
  const lesson = memory().learnings.find(l => l.source === 'fix');
  assert.ok(lesson, 'a fix lesson is kept');
  assert.match(lesson.text, /“node app\.js” fixed by changing “config\.js” \(the error was: TypeError: Cannot read properties of undefined \(reading 'port'\)/);
  assert.doesNotMatch(lesson.text, /SyntaxError/, 'not the typo on the way');
  h.log('[lessons] the fix lesson names the TypeError');

  // the panel shows it as a learning, in words
  await h.runCommand('Failure Memory: Show Memory');
  const frame = await h.waitFor(() => findPanelFrame(h.page), 20000, 'the memory panel');
  const shown = frame.locator('#section-learnings .learning', { hasText: 'fixed by changing' });
  await shown.first().waitFor({ state: 'visible', timeout: 10000 });
  assert.match(await shown.first().innerText(), /TypeError/);

  // ---- a URL on another port is another approach ----
  const server = http.createServer((_, res) => res.end('ok\n'));
  const port = await new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
  server.close(); // nothing listens there until it is started again below
  try {
    for (let i = 0; i < 3; i++) await runIn('curl -sS http://127.0.0.1:9/health', 7, 'failure');
    const nine = '.::curl http://127.0.0.1:9/health';
    assert.equal(memory().approaches[nine].status, 'exhausted');
    await runIn(`curl -sS http://127.0.0.1:${port}/health`, 7, 'failure');
    const other = `.::curl http://127.0.0.1:${port}/health`;
    assert.equal(memory().approaches[other].failures, 1, 'another port: another approach, with its own count');
    assert.equal(memory().approaches[nine].failures, 3);
    await new Promise(resolve => server.listen(port, '127.0.0.1', resolve));
    await runIn(`curl -sS http://127.0.0.1:${port}/health`, 0, 'success');
    const after = memory().approaches;
    assert.equal(after[other].status, 'resolved');
    assert.equal(after[nine].status, 'exhausted', 'a pass on another port does not clear :9');
    assert.equal(after[nine].failures, 3);
    await frame.locator('#section-exhausted .card', { hasText: 'curl http://127.0.0.1:9/health' }).waitFor({ state: 'visible', timeout: 10000 });
    h.log('[lessons] :9 stays exhausted after a pass on another port');
  } finally {
    server.close();
  }
  await h.screenshot(`lessons-${h.vscode}`);
}
