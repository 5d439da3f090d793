// "Failure Memory: Set Up Agent Gates" from the palette: the found agents are preselected, the
// dialog says what is written where, the files are written next to the user's own hooks, and a
// second run changes nothing. The launcher is on PATH in an integrated terminal: `failure-memory`
// works there, and its hook answers as the agent's hook will.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export const timeout = 300_000;

const USER_HOOKS = { hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'echo mine' }] }] } };

export const options = {
  workspaceFiles: { '.claude/settings.json': `${JSON.stringify(USER_HOOKS, null, 2)}\n`, 'CLAUDE.md': '# project\n' },
};

export async function run(h) {
  await h.waitForActivation();
  const launcher = await h.waitForEvent(e => e.event === 'launcher', { what: 'the launcher event' });
  assert.equal(launcher.error, undefined, launcher.error);
  assert.ok(fs.existsSync(path.join(launcher.dir, 'failure-memory')), 'launcher written');

  const page = h.page;
  const setUp = async () => {
    const since = h.readEvents().length;
    await h.runCommand('Failure Memory: Set Up Agent Gates', { waitHidden: false });
    const pick = page.locator('.quick-input-widget');
    await pick.waitFor({ timeout: 10000 });
    await pick.locator('.monaco-list-row', { hasText: 'Claude Code' }).first().waitFor({ timeout: 10000 });
    const picked = await pick.locator('.quick-input-list .monaco-list-row[aria-checked="true"], .quick-input-list .monaco-list-row[aria-selected="true"]').allInnerTexts();
    const rows = await pick.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    await page.keyboard.press('Enter');
    return { since, picked, rows };
  };

  // 1. first run: the pick says what was found (and by what) and what was not; the dialog lists the files
  const first = await setUp();
  const row = label => first.rows.find(r => r.includes(label)) ?? '';
  assert.match(row('Claude Code'), /found in this folder: \.claude, CLAUDE\.md/);
  assert.match(row('VS Code agent mode'), /this editor/);
  assert.match(row('Cursor'), /not found in this folder/);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 15000 });
  const text = await dialog.innerText();
  assert.match(text, /add entries to \.claude\/settings\.json \(claude\)/);
  assert.match(text, /create \.github\/hooks\/failure-memory\.json \(vscode\)/);
  assert.match(text, /Found here: Claude Code \(\.claude, CLAUDE\.md\)\./);
  assert.match(text, /Not found here: .*Cursor/);
  assert.doesNotMatch(text, /`/, 'no Markdown backticks in a dialog that shows text as is');
  await h.screenshot('agent-gates-dialog');
  await dialog.locator('.monaco-button', { hasText: 'Write Files' }).click();
  const done = await h.waitForEvent(e => e.event === 'agentGates', { since: first.since, what: 'agent gates written' });
  assert.deepEqual([...done.written].sort(), ['.claude/settings.json', '.github/hooks/failure-memory.json']);
  // failure-memory doctor's verdict on what was just set up: Claude Code needs no further step
  // (and VS Code's own is this extension)
  const doctor = await h.waitForEvent(e => e.event === 'agentGatesDoctor', { since: first.since, what: "the gates' state" });
  assert.deepEqual(doctor.gates.map(g => g.id), []);

  const claude = JSON.parse(fs.readFileSync(path.join(h.workspace, '.claude/settings.json'), 'utf8'));
  assert.deepEqual(claude.hooks.PreToolUse[0], USER_HOOKS.hooks.PreToolUse[0], "the user's hook is kept");
  assert.match(claude.hooks.PreToolUse[1].hooks[0].command, /failure-memory.*hook claude pre/);
  assert.match(claude.hooks.SessionStart[0].hooks[0].command, /hook claude session-start/);
  const gh = JSON.parse(fs.readFileSync(path.join(h.workspace, '.github/hooks/failure-memory.json'), 'utf8'));
  assert.equal(gh.version, 1);
  assert.match(gh.hooks.preToolUse[0].bash, /hook copilot pre/);
  const snapshot = ['.claude/settings.json', '.github/hooks/failure-memory.json'].map(f => fs.readFileSync(path.join(h.workspace, f), 'utf8'));

  // 2. second run: nothing to write, nothing changes
  const second = await setUp();
  const again = await h.waitForEvent(e => e.event === 'agentGates', { since: second.since, what: 'the second run' });
  assert.deepEqual(again.written, []);
  assert.deepEqual(['.claude/settings.json', '.github/hooks/failure-memory.json'].map(f => fs.readFileSync(path.join(h.workspace, f), 'utf8')), snapshot);

  // 3. the CLI on PATH in a new integrated terminal, and the hook as an agent's harness runs it
  await h.openTerminal();
  const which = await h.typeInTerminal('command -v failure-memory; sleep 0.3');
  assert.equal(which.exitCode, 0, which.output);
  const help = await h.typeInTerminal('failure-memory --help | head -1; sleep 0.3');
  assert.equal(help.exitCode, 0);
  assert.match(help.output, /failure-memory .* remembers failing commands/);
  for (let i = 0; i < 5; i++) {
    const r = await h.typeInTerminal(`echo 'Error: boom' | failure-memory record --command 'make deploy' --exit-code 2 --source agent >/dev/null`);
    assert.equal(r.exitCode, 0);
  }
  const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make deploy' }, cwd: h.workspace });
  const gate = await h.typeInTerminal(`echo '${payload}' | CLAUDE_PROJECT_DIR="$PWD" failure-memory hook claude pre | grep -c '"permissionDecision":"deny"'; sleep 0.3`);
  assert.equal(gate.exitCode, 0, gate.output);
  assert.match(gate.output, /^1$/m);
  await h.screenshot('agent-gates-terminal');
}
