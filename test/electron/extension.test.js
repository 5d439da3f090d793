// Runs inside desktop VS Code (npm run test:electron). Kept small: the full scenarios are the
// code-server e2e tests, which run everywhere without downloading VS Code.
const assert = require('node:assert/strict');
const vscode = require('vscode');

suite('Failure Memory in desktop VS Code', () => {
  test('activates and contributes its commands', async () => {
    const ext = vscode.extensions.getExtension('failure-memory.failure-memory');
    assert.ok(ext, 'extension present');
    await ext.activate();
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['failureMemory.reflect', 'failureMemory.showMemory', 'failureMemory.markResolved', 'failureMemory.clearMemory', 'failureMemory.exportMemory', 'failureMemory.openLog']) {
      assert.ok(commands.includes(id), id);
    }
  });

  test('records a failing terminal command through shell integration', async function () {
    const terminal = vscode.window.createTerminal({ name: 'fm-test', shellPath: '/bin/bash' });
    const integration = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no shell integration')), 20000);
      const d = vscode.window.onDidChangeTerminalShellIntegration(e => {
        if (e.terminal === terminal) { clearTimeout(t); d.dispose(); resolve(e.shellIntegration); }
      });
    });
    const ended = new Promise(resolve => {
      const d = vscode.window.onDidEndTerminalShellExecution(e => { if (e.terminal === terminal) { d.dispose(); resolve(e.exitCode); } });
    });
    integration.executeCommand('bash -c "exit 3"');
    assert.equal(await ended, 3);
    terminal.dispose();
  });
});
