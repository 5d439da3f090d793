// The harness side of the gate's answers: how a hook tells a headless session from an interactive one
// (the harness's environment, its process's command line and stdin), where a warning reaches the model
// in each harness (Gemini CLI's through its post hook, with the call's result), the command a message
// names as the user can run it, and the rules file every writer keeps current (Cline's summary).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { modeOfProcess, sessionMode, type ProcessInfo } from '../../src/agents/hooks/sessionMode';
import { readMemoryFull, recordHookDecision, recordHookEdits, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { onPath, pathAdvice, userCommand } from '../../src/agents/userCommand';
import { rulesText } from '../../src/app/agentRules';
import { openWorkspaceMemory } from '../../src/app/openMemory';
import { fill, fixture } from '../support/hookPayloads';
import { tempFolders } from '../support/tempFolders';

const tempDir = tempFolders('fm-harness-answers-');
const proc = (argv: string[], tty: boolean, ppid = 1): ProcessInfo => ({ argv, tty, ppid });

describe('is anyone there to answer? (the session mode a hook reads)', () => {
  test('Claude Code says it in CLAUDE_CODE_ENTRYPOINT: cli is interactive, sdk-cli (-p) headless; without it, its process', () => {
    const none = () => undefined;
    assert.equal(sessionMode('claude', { CLAUDE_CODE_ENTRYPOINT: 'cli' }, none), 'interactive');
    assert.equal(sessionMode('claude', { CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' }, none), 'headless');
    assert.equal(sessionMode('claude', {}, () => proc(['/usr/lib/node_modules/.bin/claude', '-p', 'Build.'], false), 7), 'headless');
    assert.equal(sessionMode('claude', { CLAUDE_CODE_ENTRYPOINT: 'sdk-ts' }, none), undefined, 'an SDK program: its own canUseTool decides');
  });

  test('Copilot CLI and Gemini CLI: the harness process among the hook\'s parents; -p/--prompt is headless, a terminal on its stdin interactive', () => {
    const chain = (...ps: ProcessInfo[]) => (pid: number) => ps[pid - 10];
    const shell = proc(['/bin/sh', '-c', 'exec launcher hook copilot pre'], false, 11);
    assert.equal(sessionMode('copilot', {}, chain(shell, proc(['/opt/copilot-linux-x64/copilot', '-p', 'Build.', '--allow-all-tools'], true)), 10), 'headless');
    assert.equal(sessionMode('copilot', {}, chain(shell, proc(['/opt/copilot-linux-x64/copilot', '--allow-all-tools'], true)), 10), 'interactive');
    assert.equal(modeOfProcess('gemini', proc(['/usr/bin/node', '--max-old-space-size=12052', '/usr/lib/node_modules/.bin/gemini', '--yolo'], true)), 'interactive');
    assert.equal(modeOfProcess('gemini', proc(['node', '/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js', '--prompt=Build.', '--yolo'], true)), 'headless');
    assert.equal(modeOfProcess('gemini', proc(['node', '/x/gemini', '-i', 'Build.'], true)), 'interactive', '--prompt-interactive stays interactive');
    assert.equal(modeOfProcess('gemini', proc(['node', '/x/gemini'], false)), 'headless', 'stdin not a terminal: Gemini CLI runs non-interactive');
    assert.equal(modeOfProcess('gemini', proc(['node', '/x/other-tool', '-p'], true)), undefined, 'not the harness: look further up');
    // nothing to read (another platform), or no harness within a few levels: unknown
    assert.equal(sessionMode('copilot', {}, () => undefined, 10), undefined);
    assert.equal(sessionMode('gemini', {}, pid => proc(['bash'], false, pid + 1), 10), undefined);
    assert.equal(sessionMode('vscode', {}, () => undefined), 'interactive');
    assert.equal(sessionMode('codex', {}, () => proc(['codex', 'exec'], false)), undefined, "Codex's mode is in its transcript");
  });
});

describe('the command as the user can run it', () => {
  test('by name when failure-memory is on PATH; else the launcher\'s path, and how to put its folder on PATH', () => {
    const home = realpathSync(tempDir());
    const bin = join(home, '.failure-memory', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'failure-memory'), '#!/bin/sh\n');
    chmodSync(join(bin, 'failure-memory'), 0o755);
    const env = { HOME: home, PATH: '/nowhere', SHELL: '/bin/zsh' };
    assert.equal(onPath('failure-memory', env, 'linux'), false);
    assert.equal(userCommand(env, home, 'linux'), join(bin, 'failure-memory'));
    assert.equal(pathAdvice(env, home, 'linux'), `failure-memory is not on your PATH: add it with \`export PATH="$HOME/.failure-memory/bin:$PATH"\` in ~/.zshrc (then open a new terminal); until then run it as ${join(bin, 'failure-memory')}.`);
    const onIt = { ...env, PATH: `/nowhere:${bin}` };
    assert.equal(userCommand(onIt, home, 'linux'), 'failure-memory');
    assert.equal(pathAdvice(onIt, home, 'linux'), undefined);
    // no launcher either: what the caller knows runs (the CLI running now)
    assert.equal(userCommand({ PATH: '' }, join(home, 'none'), 'linux', "node '/opt/fm/dist/cli.js'"), "node '/opt/fm/dist/cli.js'");
  });
});

describe('a warning reaches the model where the harness has a channel for it', () => {
  async function warned(): Promise<string> {
    const ws = realpathSync(tempDir());
    mkdirSync(join(ws, '.git'));
    for (let i = 0; i < 3; i++) await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'" });
    return ws;
  }
  const opts = { record: recordHookResult, readFull: readMemoryFull, recordEdits: recordHookEdits, recordDecision: recordHookDecision, env: {}, sessionMode: () => undefined };

  test("Gemini CLI's BeforeTool shows it to the user; its AfterTool gives it to the model with the call's result, once", async () => {
    const ws = await warned();
    const vars = { CWD: ws, ROOT: ws, COMMAND: 'npm test', OUTPUT: "Error: Cannot find module 'left-pad'" };
    const pre = fixture('gemini', 'pre')!;
    const r = await runHook('gemini', 'pre', JSON.stringify(fill(pre.payload, vars)), { ...opts, env: fill(pre.env ?? {}, vars) as NodeJS.ProcessEnv });
    assert.match(JSON.parse(r.stdout).systemMessage, /^Failure Memory \(warning\): ⟦npm test⟧ failed 3 of 5 times in a row in the workspace root \(same error\); at 5 the same way it is stopped\./);
    const post = fixture('gemini', 'post')!;
    const after = await runHook('gemini', 'post', JSON.stringify(fill(post.payload, vars)), { ...opts, env: fill(post.env ?? {}, vars) as NodeJS.ProcessEnv });
    const out = JSON.parse(after.stdout).hookSpecificOutput;
    assert.equal(out.hookEventName, 'AfterTool');
    assert.match(out.additionalContext, /^Failure Memory \(warning\): ⟦npm test⟧ failed 3 of 5 times/);
    const again = await runHook('gemini', 'post', JSON.stringify(fill(post.payload, vars)), { ...opts, env: fill(post.env ?? {}, vars) as NodeJS.ProcessEnv });
    assert.doesNotMatch(again.stdout, /warning/, 'the note is taken once');
  });

  test("Copilot CLI's preToolUse: a top-level additionalContext (the model reads it after the call's result)", async () => {
    const ws = await warned();
    const pre = fixture('copilot', 'pre')!;
    const r = await runHook('copilot', 'pre', JSON.stringify(fill(pre.payload, { CWD: ws, ROOT: ws, COMMAND: 'npm test' })), opts);
    assert.match(JSON.parse(r.stdout).additionalContext, /^Failure Memory \(warning\): ⟦npm test⟧ failed 3 of 5 times/);
  });
});

describe("a harness's rules file says what memory says, whoever wrote (Cline's summary)", () => {
  test('a failure recorded from the CLI or the terminal rewrites it; a resolve too; a workspace without one pays a stat', async () => {
    const ws = realpathSync(tempDir());
    mkdirSync(join(ws, '.git'));
    mkdirSync(join(ws, '.clinerules'));
    const file = join(ws, '.clinerules', 'failure-memory.md');
    writeFileSync(file, rulesText(''));
    assert.match(readFileSync(file, 'utf8'), /No command has failed in this workspace yet/);
    const { memory } = openWorkspaceMemory({ workspace: ws, onWarning: () => undefined, git: false });
    for (let i = 0; i < 5; i++) await memory.record({ command: 'npm test', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'", source: 'terminal' });
    assert.match(readFileSync(file, 'utf8'), /EXHAUSTED: ⟦npm test⟧ in the workspace root, 5 failure\(s\)/);
    await memory.markByCommand('resolve', 'npm test');
    assert.match(readFileSync(file, 'utf8'), /No command has failed in this workspace yet/);
    // the hooks' own quick write (another harness's post hook) keeps it current too
    await recordHookResult({ workspace: ws, command: 'make', cwd: '.', exitCode: 2, output: 'make: *** No rule to make target' });
    assert.match(readFileSync(file, 'utf8'), /failing: ⟦make⟧ in the workspace root, 1 failure\(s\)/);
    // a file that is not ours is left alone
    writeFileSync(file, '# my own rules\n');
    await memory.record({ command: 'make', cwd: '.', exitCode: 2, output: 'x', source: 'terminal' });
    assert.equal(readFileSync(file, 'utf8'), '# my own rules\n');
  });
});
