// Runs inside desktop VS Code (npm run test:electron). Kept small: the full scenarios are the
// code-server e2e tests, which run everywhere without downloading VS Code. It checks the extension,
// not VS Code: its commands are registered, and a failing terminal command is recorded by it (the
// `recorded` event it appends to $FAILURE_MEMORY_E2E_LOG, set in .vscode-test.mjs).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const vscode = require('vscode');

const EVENTS = process.env.FAILURE_MEMORY_E2E_LOG;

function events() {
  try {
    return fs.readFileSync(EVENTS, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line));
  } catch {
    return [];
  }
}

async function waitForEvent(pred, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const found = events().find(pred);
    if (found) return found;
    if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms; events: ${JSON.stringify(events().map(e => e.event))}`);
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

suite('Failure Memory in desktop VS Code', () => {
  suiteSetup(() => assert.ok(EVENTS, 'FAILURE_MEMORY_E2E_LOG is set (see .vscode-test.mjs)'));

  test('activates and registers its commands', async () => {
    const ext = vscode.extensions.getExtension('failure-memory.failure-memory');
    assert.ok(ext, 'extension present');
    await ext.activate();
    assert.equal(ext.isActive, true);
    // registered by the extension's code, not merely contributed by package.json
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['failureMemory.reflect', 'failureMemory.showMemory', 'failureMemory.markResolved', 'failureMemory.clearMemory', 'failureMemory.exportMemory', 'failureMemory.openLog']) {
      assert.ok(commands.includes(id), id);
    }
    await waitForEvent(e => e.event === 'activated', 10000, 'activated event');
  });

  test('records a failing terminal command through shell integration', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const terminal = vscode.window.createTerminal({ name: 'fm-test', shellPath: '/bin/bash', cwd: folder.uri });
    const integration = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no shell integration')), 20000);
      const d = vscode.window.onDidChangeTerminalShellIntegration(e => {
        if (e.terminal === terminal) { clearTimeout(t); d.dispose(); resolve(e.shellIntegration); }
      });
    });
    integration.executeCommand('bash -c "exit 3"');
    // the extension recorded it: one failure of that approach, exit code 3, from the terminal
    const rec = await waitForEvent(e => e.event === 'recorded' && e.command === 'bash -c "exit 3"', 20000, '`recorded` event');
    assert.equal(rec.source, 'terminal');
    assert.equal(rec.exitCode, 3);
    assert.equal(rec.outcome, 'failure');
    assert.equal(rec.attempts, 1);
    assert.equal(rec.status, 'active');
    terminal.dispose();
  });
});
