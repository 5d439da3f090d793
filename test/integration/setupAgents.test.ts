// `failure-memory setup-agents`: each harness's file gets Failure Memory's entries merged with the
// user's own hooks, a second run changes nothing, --remove gives the user's file back; the command
// written runs the launcher (a real gate end to end) and fails open where the launcher is missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { HARNESS_IDS, type HarnessId } from '../../src/agents/hooks/types';
import { installLauncher, launcherScript, readLauncher } from '../../src/agents/launcher';
import { RULES_MARKER } from '../../src/app/agentRules';
import { CLINE_RULES, detectHarnesses, hookCommand, isOurCommand, LAUNCHER_MISSING, targetFor } from '../../src/agents/setup';
import { applySetup, planSetup } from '../../src/agents/setupFiles';
import { recordHookResult } from '../../src/agents/hooks/record';
import { tempDir } from '../support/tempFolders';

const DIST = resolve(__dirname, '../../dist');
const CLI = join(DIST, 'cli.js');
const tmp = (p: string) => realpathSync(tempDir(p));
const read = (ws: string, f: string) => readFileSync(join(ws, f), 'utf8');

function filesOf(h: HarnessId): string[] {
  const t = targetFor(h);
  return t.kind === 'json' ? [t.file] : Object.keys(t.files);
}

describe('setup-agents: files per harness', () => {
  test('detects the harnesses present', () => {
    const ws = tmp('fm-setup-detect-');
    for (const d of ['.claude', '.cursor', '.gemini', '.windsurf']) mkdirSync(join(ws, d));
    writeFileSync(join(ws, 'CLAUDE.md'), '');
    assert.deepEqual(detectHarnesses(ws), ['claude', 'cursor', 'gemini', 'windsurf']);
  });

  for (const h of HARNESS_IDS) {
    test(`${h}: create, second run unchanged, remove`, () => {
      const ws = tmp('fm-setup-');
      const first = planSetup(ws, { harnesses: [h] });
      assert.ok(first.every(c => c.action === 'create'), JSON.stringify(first.map(c => c.action)));
      applySetup(ws, first);
      for (const f of filesOf(h)) assert.ok(existsSync(join(ws, f)), f);
      for (const f of filesOf(h).filter(f => f !== CLINE_RULES)) {
        const text = read(ws, f);
        assert.ok(text.includes(`hook ${h === 'vscode' ? 'copilot' : h} pre`) || f.endsWith('PostToolUse') || f.endsWith('TaskStart') || f.endsWith('UserPromptSubmit'), f);
      }
      const second = planSetup(ws, { harnesses: [h] });
      assert.ok(second.every(c => c.action === 'unchanged'), JSON.stringify(second));
      applySetup(ws, planSetup(ws, { harnesses: [h], remove: true }));
      for (const f of filesOf(h)) assert.equal(existsSync(join(ws, f)), false, `${f} removed (it was all ours)`);
    });
  }

  test("the user's own hooks and settings are kept, in place, and given back by --remove", () => {
    const ws = tmp('fm-setup-merge-');
    mkdirSync(join(ws, '.claude'));
    const mine = { permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'echo mine' }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } };
    const original = `${JSON.stringify(mine, null, 2)}\n`;
    writeFileSync(join(ws, '.claude/settings.json'), original);
    applySetup(ws, planSetup(ws, { harnesses: ['claude'] }));
    const s = JSON.parse(read(ws, '.claude/settings.json'));
    assert.deepEqual(s.permissions, mine.permissions);
    assert.deepEqual(s.hooks.Stop, mine.hooks.Stop);
    assert.deepEqual(s.hooks.PreToolUse[0], mine.hooks.PreToolUse[0], "the user's hook first, untouched");
    assert.equal(s.hooks.PreToolUse[1].matcher, 'Bash|Write|Edit|MultiEdit|NotebookEdit', 'the shell and the edit tools');
    assert.ok(isOurCommand(s.hooks.PreToolUse[1].hooks[0].command));
    assert.deepEqual(Object.keys(s.hooks).sort(), ['PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    assert.ok(planSetup(ws, { harnesses: ['claude'] }).every(c => c.action === 'unchanged'));
    applySetup(ws, planSetup(ws, { harnesses: ['claude'], remove: true }));
    assert.equal(read(ws, '.claude/settings.json'), original);
  });

  test('a file that is not JSON, or a hook script of the user, is left alone and reported', () => {
    const ws = tmp('fm-setup-skip-');
    mkdirSync(join(ws, '.cursor'));
    writeFileSync(join(ws, '.cursor/hooks.json'), '{ "version": 1, "hooks": { "beforeShellExecution": [ }');
    mkdirSync(join(ws, '.clinerules/hooks'), { recursive: true });
    writeFileSync(join(ws, '.clinerules/hooks/PreToolUse'), '#!/bin/sh\necho \'{"cancel":false}\'\n');
    const plan = planSetup(ws, { harnesses: ['cursor', 'cline'] });
    assert.equal(plan.find(c => c.file === '.cursor/hooks.json')!.action, 'skip');
    assert.match(plan.find(c => c.file === '.cursor/hooks.json')!.reason!, /not valid JSON \(\w+ at line 1, column \d+\)/);
    assert.equal(plan.find(c => c.file === '.clinerules/hooks/PreToolUse')!.action, 'skip');
    applySetup(ws, plan);
    assert.equal(read(ws, '.cursor/hooks.json'), '{ "version": 1, "hooks": { "beforeShellExecution": [ }');
    assert.ok(statSync(join(ws, '.clinerules/hooks/PostToolUse')).mode & 0o100, 'our scripts are executable');
  });

  test('vscode and copilot share one .github/hooks file in the Copilot format (VS Code reads it too)', () => {
    const ws = tmp('fm-setup-gh-');
    const plan = planSetup(ws, { harnesses: ['vscode', 'copilot'] });
    assert.equal(plan.length, 1);
    assert.deepEqual(plan[0].harnesses, ['vscode', 'copilot']);
    const doc = JSON.parse(plan[0].content!);
    assert.equal(doc.version, 1);
    // VS Code 1.139 turns both prompt names into its UserPromptSubmit and keeps the last: ours, which runs the vscode adapter
    assert.deepEqual(Object.keys(doc.hooks), ['preToolUse', 'postToolUse', 'postToolUseFailure', 'sessionStart', 'userPromptSubmitted', 'UserPromptSubmit']);
    assert.match(doc.hooks.preToolUse[0].bash, /hook copilot pre/);
    assert.match(doc.hooks.preToolUse[0].powershell, /hook copilot pre/);
    assert.match(doc.hooks.UserPromptSubmit[0].bash, /hook vscode prompt/);
  });

  test("cline: the summary goes into a rules file of ours (Cline CLI ignores TaskStart context); a user's file there is left alone", () => {
    const ws = tmp('fm-setup-rules-');
    applySetup(ws, planSetup(ws, { harnesses: ['cline'], rulesSummary: 'EXHAUSTED: `make` — boom' }));
    const text = read(ws, CLINE_RULES);
    assert.ok(text.startsWith(RULES_MARKER));
    assert.match(text, /EXHAUSTED: `make` — boom/);
    assert.equal(statSync(join(ws, CLINE_RULES)).mode & 0o111, 0, 'a rules file, not a script');
    const other = tmp('fm-setup-rules-mine-');
    mkdirSync(join(other, '.clinerules'), { recursive: true });
    writeFileSync(join(other, CLINE_RULES), '# my rules\n');
    assert.equal(planSetup(other, { harnesses: ['cline'] }).find(c => c.file === CLINE_RULES)!.action, 'skip');
  });
});

describe('the written command, run as a harness runs it', { skip: !existsSync(CLI) && 'dist/ is not built' }, () => {
  const sh = (command: string, input: string, env: NodeJS.ProcessEnv) =>
    spawnSync('sh', ['-c', command], { input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: env.HOME ?? process.env.HOME, ...(env.HOME ? {} : { FAILURE_MEMORY_STATE_DIR: process.env.FAILURE_MEMORY_STATE_DIR }), FAILURE_MEMORY_CACHE_DIR: join(tmpdir(), 'fm-setup-cache'), ...env } });

  test('through the launcher: an exhausted approach is denied; without the launcher: one line, the agent goes on', async () => {
    const ws = tmp('fm-setup-run-');
    for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'make test', cwd: '.', exitCode: 2, output: 'make: *** [test] Error 2' });
    applySetup(ws, planSetup(ws, { harnesses: ['claude'] }));
    const command = JSON.parse(read(ws, '.claude/settings.json')).hooks.PreToolUse[0].hooks[0].command as string;
    assert.equal(command, hookCommand('claude', 'pre'));
    const bin = tmp('fm-setup-bin-');
    const { dir } = installLauncher({ dist: DIST, node: process.execPath, version: 'test' }, bin, 'linux');
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make test' }, cwd: ws });
    const r = sh(command, payload, { FAILURE_MEMORY_BIN: join(dir, 'failure-memory'), CLAUDE_PROJECT_DIR: ws });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny');
    // a teammate without Failure Memory: no launcher in their home; Claude Code shows systemMessage
    const home = tmp('fm-setup-home-');
    const none = sh(command, payload, { HOME: home, CLAUDE_PROJECT_DIR: ws });
    assert.equal(none.status, 0, 'the agent goes on');
    assert.deepEqual(JSON.parse(none.stdout), { systemMessage: LAUNCHER_MISSING });
    assert.equal(none.stderr, `${LAUNCHER_MISSING}\n`);
    // Copilot CLI denies on a failing preToolUse hook: exit 0; its model is told at session start
    const copilotStart = sh(hookCommand('copilot', 'session-start'), '{}', { HOME: home });
    assert.equal(copilotStart.status, 0);
    assert.match(JSON.parse(copilotStart.stdout).additionalContext, /the gate is OFF on this machine.*Tell the user/);
    assert.equal(sh(hookCommand('copilot', 'pre'), '{}', { HOME: home }).status, 0);
  });

  test('the launcher: the CLI for everything else; a removed extension or no Node.js is said in one line', () => {
    const bin = tmp('fm-launcher-');
    const { dir } = installLauncher({ dist: DIST, node: process.execPath, version: 'test' }, bin, 'linux');
    const fm = join(dir, 'failure-memory');
    const help = spawnSync(fm, ['--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^failure-memory .* remembers failing commands/);
    assert.equal(installLauncher({ dist: DIST, node: process.execPath, version: 'test' }, bin, 'linux').changed, false, 'rewritten only when it changes');
    const gone = join(tmp('fm-launcher-gone-'), 'launcher');
    writeFileSync(gone, launcherScript({ dist: '/nonexistent/dist', node: process.execPath, version: 'x' }), { mode: 0o755 });
    const r = spawnSync(gone, ['hook', 'claude', 'pre'], { input: '{}', encoding: 'utf8' });
    assert.equal(r.status, 0, 'the agent goes on');
    const shown = JSON.parse(r.stdout).systemMessage as string;
    assert.equal(shown, 'Failure Memory: the gate is OFF: /nonexistent/dist is missing (Failure Memory was removed or moved). Run `failure-memory setup-agents` again, or reinstall; commands are not checked.');
    assert.equal(r.stderr, `${shown}\n`);
    const c = spawnSync(gone, ['hook', 'copilot', 'pre'], { input: '{}', encoding: 'utf8' });
    assert.equal(c.status, 0, 'Copilot CLI would deny on a non-zero exit');
    const w = spawnSync(gone, ['hook', 'windsurf', 'pre'], { input: '{}', encoding: 'utf8' });
    assert.equal(w.status, 1, 'Windsurf shows a non-blocking failure (show_output)');
    assert.equal(w.stdout, '');
    assert.match(w.stderr, /the gate is OFF/);
    assert.equal(spawnSync(gone, ['--help'], { encoding: 'utf8' }).status, 1);
    const noNode = join(tmp('fm-launcher-nonode-'), 'launcher');
    writeFileSync(noNode, launcherScript({ dist: DIST, node: 'node-that-is-not-there', version: 'x' }), { mode: 0o755 });
    const n = spawnSync(noNode, ['hook', 'gemini', 'session-start'], { input: '{}', encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
    assert.equal(n.status, 0);
    const g = JSON.parse(n.stdout);
    assert.equal(g.systemMessage, 'Failure Memory: the gate is OFF: Node.js 20 or later is needed and was not found on PATH; commands are not checked.');
    assert.equal(g.hookSpecificOutput.hookEventName, 'SessionStart');
  });

  test('failure-memory setup-agents: --dry-run writes nothing; a second run reports "already set up"', () => {
    const ws = tmp('fm-setup-cli-');
    const home = tmp('fm-setup-cli-home-');
    mkdirSync(join(ws, '.gemini'));
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'setup-agents', '--workspace', ws, ...args], { encoding: 'utf8', env: { ...process.env, HOME: home } });
    const dry = run('--dry-run', '--json');
    assert.equal(dry.status, 0, dry.stderr);
    assert.deepEqual(JSON.parse(dry.stdout).changes.map((c: { file: string; action: string }) => [c.file, c.action]), [['.gemini/settings.json', 'create']]);
    assert.equal(existsSync(join(ws, '.gemini/settings.json')), false);
    assert.equal(existsSync(join(home, '.failure-memory')), false, 'a dry run writes no launcher either');
    assert.equal(run().status, 0);
    assert.match(run().stdout, /already set up: \.gemini\/settings\.json \(gemini\)/);
    const bad = run('--harness', 'cursr');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown harness cursr/);
  });

  test('setup-agents with no --harness in a fresh project: the harnesses installed on this machine, else what to pass (exit 2); the command as the user can run it', () => {
    const ws = tmp('fm-setup-fresh-');
    const home = tmp('fm-setup-fresh-home-');
    const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [CLI, 'setup-agents', '--workspace', ws], { encoding: 'utf8', env: { PATH: dirname(process.execPath), HOME: home, ...env } });
    const none = run({});
    assert.equal(none.status, 2, none.stdout);
    assert.match(none.stderr, /no coding agent found in .* nor on this machine .*nothing set up: name them: --harness vscode,claude,copilot,cursor,gemini,codex,cline,windsurf/);
    assert.equal(existsSync(join(ws, '.claude')), false);
    // Codex used on this machine (~/.codex), a program on PATH (gemini): those two are set up, and said so
    mkdirSync(join(home, '.codex'));
    const bin = tmp('fm-setup-fresh-bin-');
    writeFileSync(join(bin, 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
    const found = run({ PATH: `${dirname(process.execPath)}:${bin}` });
    assert.equal(found.status, 0, found.stderr);
    assert.match(found.stdout, /^No coding agent's files in .* yet: setting up the ones installed on this machine \(gemini: gemini on PATH; codex: ~\/\.codex\)/);
    assert.ok(existsSync(join(ws, '.codex', 'hooks.json')) && existsSync(join(ws, '.gemini', 'settings.json')));
    // failure-memory is not on that PATH: the steps name the launcher's path, and how to add its folder to PATH
    const launcher = join(home, '.failure-memory', 'bin', 'failure-memory');
    assert.ok(found.stdout.includes(`Still to do (\`${launcher} doctor\` checks again):`), found.stdout);
    assert.match(found.stdout, /failure-memory is not on your PATH: add it with `export PATH="\$HOME\/\.failure-memory\/bin:\$PATH"`/);
    // and --remove with nothing of ours there says so
    const empty = tmp('fm-setup-fresh-empty-');
    const rm = spawnSync(process.execPath, [CLI, 'setup-agents', '--workspace', empty, '--remove'], { encoding: 'utf8', env: { PATH: dirname(process.execPath), HOME: home } });
    assert.equal(rm.status, 2);
    assert.match(rm.stderr, /no agent gate of Failure Memory is set up in .*; nothing removed/);
  });

  test('setup-agents from the CLI writes the launcher (pointing at itself), keeps one that works, repairs a broken one', () => {
    const ws = tmp('fm-setup-launch-');
    const home = tmp('fm-setup-launch-home-');
    const run = () => spawnSync(process.execPath, [CLI, 'setup-agents', '--workspace', ws, '--harness', 'claude', '--json'], { encoding: 'utf8', env: { ...process.env, HOME: home } });
    const first = JSON.parse(run().stdout);
    assert.equal(first.launcher.action, 'written');
    const file = join(home, '.failure-memory', 'bin', 'failure-memory');
    const written = readLauncher(join(home, '.failure-memory', 'bin'));
    assert.deepEqual({ ...written, target: undefined }, { file, exists: true, dist: DIST, distOk: true, ours: true, target: undefined }, 'exactly what Failure Memory writes');
    assert.equal(written.target?.node, process.execPath);
    assert.equal(JSON.parse(run().stdout).launcher.action, 'unchanged');
    // the extension's launcher (another dist that works) is kept: the extension keeps it current
    const other = tmp('fm-setup-launch-ext-');
    writeFileSync(join(other, 'cli.js'), '');
    installLauncher({ dist: other, node: process.execPath, version: 'ext' }, join(home, '.failure-memory', 'bin'), 'linux');
    assert.equal(JSON.parse(run().stdout).launcher.action, 'kept');
    // one that points at a removed install is repaired
    installLauncher({ dist: '/nonexistent/dist', node: process.execPath, version: 'old' }, join(home, '.failure-memory', 'bin'), 'linux');
    assert.equal(JSON.parse(run().stdout).launcher.action, 'updated');
    assert.equal(readLauncher(join(home, '.failure-memory', 'bin')).dist, DIST);
    // and the hook command written runs through it
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'true' }, cwd: ws });
    const r = spawnSync('sh', ['-c', hookCommand('claude', 'pre')], { input: payload, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
  });
});
