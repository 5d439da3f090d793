// The script table read from a real package.json, and chains, through the built programs: dist/hook.js as
// Claude Code runs it (pre, post into the journal, an edit tool's post) and dist/cli.js (`check`, `record`).
// `npm test` whose script is `jest` and `npx jest` are one approach on every door; a chain hides no step;
// after an edit the run goes, and its pass clears the approach for every spelling.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { readMemoryFull } from '../../src/agents/hooks/record';
import { tempFolders } from '../support/tempFolders';

const HOOK_JS = resolve(__dirname, '../../dist/hook.js');
const CLI = resolve(__dirname, '../../dist/cli.js');
const tempDir = tempFolders('fm-script-spellings-');
const FAIL = 'FAIL src/cart.test.js\n  ● cart › total\n    expect(received).toBe(expected)\nTests: 1 failed, 3 passed, 4 total';

describe('scripts and chains through the built hook and CLI', { skip: (!existsSync(HOOK_JS) || !existsSync(CLI)) && 'dist/ is not built (node esbuild.mjs)' }, () => {
  const cacheDir = tempDir();
  const hook = (event: string, payload: Record<string, unknown>, ws: string) => {
    const r = spawnSync(process.execPath, [HOOK_JS, 'claude', event], { input: JSON.stringify(payload), encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, FAILURE_MEMORY_STATE_DIR: process.env.FAILURE_MEMORY_STATE_DIR, FAILURE_MEMORY_CACHE_DIR: cacheDir, CLAUDE_PROJECT_DIR: ws } });
    return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const cli = (ws: string, args: string[], input = '') => spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, FAILURE_MEMORY_STATE_DIR: process.env.FAILURE_MEMORY_STATE_DIR } });
  let call = 0;
  const pre = (ws: string, command: string) => {
    const r = hook('pre', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: ws, tool_use_id: `t${++call}` }, ws);
    assert.equal(r.exitCode, 0, r.stderr);
    return r.stdout ? (JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string }) : undefined;
  };
  const failed = (ws: string, command: string) =>
    hook('post', { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, cwd: ws, tool_use_id: `t${++call}`, error: `Exit code 1\n${FAIL}` }, ws);

  function project(): string {
    const ws = realpathSync(tempDir());
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'shop', scripts: { test: 'jest', build: 'tsc -p . && node esbuild.mjs' } }, null, 2));
    writeFileSync(join(ws, 'src', 'cart.js'), 'module.exports = 1;\n');
    return ws;
  }

  test('the hook reads package.json: `npm test` recorded five times is `jest`; every spelling and chain of it is denied', async () => {
    const ws = project();
    for (let i = 0; i < 5; i++) assert.equal(failed(ws, 'npm test').exitCode, 0);
    const data = await readMemoryFull(ws);
    assert.deepEqual(Object.keys(data.approaches), ['.::jest']);
    assert.equal(data.approaches['.::jest'].status, 'exhausted');
    for (const line of ['npm test', 'npx jest', 'yarn test', 'npm run test', 'npm t && git status', 'npm test; echo done', "bash -c 'npm test'", 'echo npm test | bash']) {
      const d = pre(ws, line);
      assert.equal(d?.permissionDecision, 'deny', line);
      assert.match(d!.permissionDecisionReason, /same-error-unchanged/);
    }
    // the CLI reads the same table: the same approach, the same answer
    const c = cli(ws, ['check', '--command', 'npx jest', '--json']);
    assert.equal(c.status, 2, c.stderr);
    assert.deepEqual([JSON.parse(c.stdout).key, JSON.parse(c.stdout).decision], ['.::jest', 'deny']);
    // a full write (the CLI's record) keys a run as the hook's journal did
    const r = cli(ws, ['record', '--command', 'yarn test', '--exit-code', '1'], `${FAIL}\n`);
    assert.equal(r.status, 0, r.stderr);
    const after = await readMemoryFull(ws);
    assert.deepEqual([Object.keys(after.approaches), after.approaches['.::jest'].failures], [['.::jest'], 6]);
  });

  test('after an edit by the edit tool the run goes (warned); its pass, in any spelling, clears the approach', async () => {
    const ws = project();
    for (let i = 0; i < 5; i++) failed(ws, 'npx jest');
    assert.equal(pre(ws, 'npm test')?.permissionDecision, 'deny');
    writeFileSync(join(ws, 'src', 'cart.js'), 'module.exports = 2;\n');
    const edit = hook('post', { hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'src', 'cart.js'), old_string: '1', new_string: '2' }, tool_response: { filePath: join(ws, 'src', 'cart.js') }, cwd: ws, tool_use_id: `t${++call}` }, ws);
    assert.equal(edit.exitCode, 0, edit.stderr);
    assert.notEqual(pre(ws, 'npm test')?.permissionDecision, 'deny', 'a change earns a run');
    const pass = hook('post', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, cwd: ws, tool_use_id: `t${++call}`, tool_response: { stdout: 'Tests: 4 passed, 4 total', stderr: '', interrupted: false } }, ws);
    assert.equal(pass.exitCode, 0, pass.stderr);
    assert.equal((await readMemoryFull(ws)).approaches['.::jest'].status, 'resolved');
    assert.equal(pre(ws, 'npx jest'), undefined, 'cleared for every spelling');
  });

  test('a script that runs several commands: its exhausted command stops it; recording through the CLI keys it the same way', async () => {
    const ws = project();
    for (let i = 0; i < 5; i++) {
      const r = cli(ws, ['record', '--command', 'node esbuild.mjs', '--exit-code', '1'], 'Error: Could not resolve "./missing"\n');
      assert.equal(r.status, 0, r.stderr);
    }
    assert.equal(pre(ws, 'yarn build')?.permissionDecision, 'deny');
    assert.equal(pre(ws, 'git status'), undefined);
    assert.equal(pre(ws, 'npm run build && npm test')?.permissionDecision, 'deny');
  });
});
