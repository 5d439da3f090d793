// The built dist/hook.js as a harness runs it (stdin, exit code, stderr, the V8 code cache); the
// harnesses' payloads and answers through the runner in process are in test/unit/agentHooks.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { readMemoryFull } from '../../src/agents/hooks/record';
import { denyReason, EXHAUSTED_VARIANT, EXPECTED_REASON, seeded } from '../support/hookPayloads';
import { tempFolders } from '../support/tempFolders';

const HOOK_JS = resolve(__dirname, '../../dist/hook.js');
const tempDir = tempFolders('fm-hook-js-');

describe('dist/hook.js as a harness runs it', { skip: !existsSync(HOOK_JS) && 'dist/hook.js is not built (npm run build)' }, () => {
  const cacheDir = tempDir();
  const run = (args: string[], input: string, env: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(process.execPath, [HOOK_JS, ...args], { input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, FAILURE_MEMORY_STATE_DIR: process.env.FAILURE_MEMORY_STATE_DIR, FAILURE_MEMORY_CACHE_DIR: cacheDir, ...env } });
    return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  test('pre denies (twice: the second run with its code cache), post records (hook-post.js, into the journal)', async () => {
    const ws = await seeded();
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: EXHAUSTED_VARIANT }, cwd: join(ws, 'api') });
    for (let i = 0; i < 2; i++) {
      const r = run(['hook', 'claude', 'pre'], payload, { CLAUDE_PROJECT_DIR: ws });
      assert.equal(denyReason('claude', { exitCode: r.exitCode!, stdout: r.stdout, stderr: r.stderr }), EXPECTED_REASON);
    }
    const post = JSON.stringify({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'go build ./...' }, cwd: ws, error: 'Exit code 2\n./main.go:3:2: undefined: foo' });
    assert.deepEqual(run(['claude', 'post'], post, { CLAUDE_PROJECT_DIR: ws }), { exitCode: 0, stdout: '', stderr: '' });
    assert.equal((await readMemoryFull(ws)).approaches['.::go build'].failures, 1);
  });

  test('a broken cache file is ignored', async () => {
    const ws = await seeded();
    const dir = tempDir();
    const r0 = run(['claude', 'pre'], '{}', { FAILURE_MEMORY_CACHE_DIR: dir });
    assert.equal(r0.exitCode, 0);
    for (const f of readdirSync(dir)) {
      writeFileSync(join(dir, f), 'garbage');
      chmodSync(join(dir, f), 0o600);
    }
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: EXHAUSTED_VARIANT }, cwd: join(ws, 'api') });
    const r = run(['claude', 'pre'], payload, { CLAUDE_PROJECT_DIR: ws, FAILURE_MEMORY_CACHE_DIR: dir });
    assert.equal(denyReason('claude', { exitCode: r.exitCode!, stdout: r.stdout, stderr: r.stderr }), EXPECTED_REASON);
  });
});
