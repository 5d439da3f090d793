// Smoke: the extension activates in a real VS Code, and a real bash terminal with VS Code's shell
// integration runs a failing command, which the extension records.
import assert from 'node:assert/strict';

export const timeout = 120_000;
// the oldest supported VS Code and the current one
export const vscode = ['1.100', '1.139'];

export async function run(h) {
  // activation, seen two ways: the event in $FAILURE_MEMORY_E2E_LOG, and the extension's own log
  // shown by its command (which proves the command is wired up)
  const activated = await h.waitForEvent(e => e.event === 'activated', { what: 'the activated event' });
  h.log('activated event', JSON.stringify(activated));
  await h.showLogLine('[activate] Failure Memory activated');

  await h.openTerminal(); // waits for shell integration too
  const failed = await h.typeInTerminal('false');
  assert.equal(failed.exitCode, 1);
  // the extension's terminal watcher saw it
  const rec = await h.waitForEvent(e => e.event === 'recorded' && e.command === 'false', { what: 'the recorded event of `false`' });
  assert.equal(rec.exitCode, 1);
  const ok = await h.typeInTerminal('echo e2e-smoke-ok');
  assert.deepEqual(ok, { exitCode: 0, output: 'e2e-smoke-ok' });
  // shell integration marked them: error for `false`, success for `echo`, and the open prompt
  let marks = [];
  await h.waitFor(async () => (marks = await h.commandDecorations()).join(' ') === 'error success incomplete',
    10000, 'decorations "error success incomplete"').catch(e => assert.fail(`${e.message}; got "${marks.join(' ')}"`));

  await h.screenshot('smoke');
}
