// A FIFO, socket or device where the hooks read (memory.json, journal.jsonl, memory.index.json, the
// settings, the team view, agent-runs, a claim, a lock, a rules file, a harness transcript): the
// built hook never waits on it (`mkfifo journal.jsonl` after a fold made every hook wait out the
// harness's 30 s timeout), skips it and says which file it skipped; the gate still stops the
// exhausted command (from the gate's copy in the user's data folder when memory.json is the FIFO). A timeout on each process is a hang guard
// (the test fails if a hook is still waiting), never a measure of speed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { readMemoryFull } from '../../src/agents/hooks/record';
import { MemoryStore } from '../../src/store/memoryStore';
import { memoryDirFor } from '../../src/store/paths';
import { EXHAUSTED_VARIANT, seeded as seededJournal } from '../support/hookPayloads';
import { tempFolders } from '../support/tempFolders';

const HOOK_JS = resolve(__dirname, '../../dist/hook.js');
const temp = tempFolders('fm-hostile-files-');
/** Far inside the harnesses' 30 s hook timeout; only reached by a hook that waits on a file. */
const HANG_GUARD_MS = 20_000;

/** The seeded workspace with its journal folded into memory.json (and memory.index.json written; the gate's copy in `state`). */
async function seeded(state?: string): Promise<string> {
  const ws = await seededJournal();
  await new MemoryStore(memoryDirFor(ws), { cache: false, gate: { via: 'test', dir: state } }).update(() => undefined);
  return ws;
}

function mkfifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, `mkfifo ${path}: ${r.stderr}`);
}

describe('a FIFO where the hooks read', { skip: (!existsSync(HOOK_JS) && 'dist/hook.js is not built') || (process.platform === 'win32' && 'no FIFOs') }, () => {
  const cache = temp();
  const state = temp();
  const hook = (event: string, payload: unknown, env: NodeJS.ProcessEnv = {}, harness = 'claude') => {
    const r = spawnSync(process.execPath, [HOOK_JS, 'hook', harness, event], {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      timeout: HANG_GUARD_MS,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, FAILURE_MEMORY_CACHE_DIR: cache, FAILURE_MEMORY_STATE_DIR: state, FAILURE_MEMORY_BACKGROUND_SYNC: '0', ...env },
    });
    assert.equal(r.signal, null, `the ${event} hook finished (it did not wait on a FIFO): ${r.stderr}`);
    return r;
  };
  const pre = (ws: string, command = EXHAUSTED_VARIANT) => hook('pre', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: join(ws, 'api') }, { CLAUDE_PROJECT_DIR: ws });
  const post = (ws: string, command: string, extra: Record<string, unknown> = {}) =>
    hook('post', { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, cwd: ws, error: 'Exit code 2\nError: boom', session_id: 's', tool_use_id: `t${Math.random()}`, ...extra }, { CLAUDE_PROJECT_DIR: ws });
  const said = (r: ReturnType<typeof hook>) => `${r.stdout}\n${r.stderr}`;

  for (const file of ['journal.jsonl', 'memory.index.json']) {
    test(`${file}: skipped and said; the exhausted command is still denied`, async () => {
      const ws = await seeded();
      const dir = memoryDirFor(ws);
      if (existsSync(join(dir, file))) renameSync(join(dir, file), join(dir, `${file}.away`));
      mkfifo(join(dir, file));
      const r = pre(ws);
      assert.match(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, /deny/);
      assert.match(said(r), new RegExp(`${file.replace('.', '\\.')} is a FIFO \\(named pipe\\), not a file: Failure Memory skipped it`));
    });
  }

  test('.vscode/settings.json: skipped and said; the defaults are used and the command denied', async () => {
    const ws = await seeded();
    mkfifo(join(ws, '.vscode', 'settings.json'));
    const r = pre(ws);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny');
    assert.match(said(r), /settings\.json is a FIFO/);
  });

  test('memory.json: the hook does not wait, says why memory could not be used, and decides from the gate\'s copy', async () => {
    const ws = await seeded(state);
    const dir = memoryDirFor(ws);
    renameSync(join(dir, 'memory.json'), join(dir, 'memory.json.away'));
    mkfifo(join(dir, 'memory.json'));
    const r = pre(ws);
    assert.match(said(r), /memory\.json: it is a FIFO \(named pipe\)/);
    assert.match(said(r), /this answer comes from the copy of the gate's state/);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', 'the exhausted command is still stopped');
  });

  test('post: a FIFO journal, lock and claim: the run is recorded (the journal moved aside), nothing waits', async () => {
    const ws = await seeded();
    const dir = memoryDirFor(ws);
    mkfifo(join(dir, 'journal.jsonl'));
    mkfifo(join(dir, 'memory.json.lock'));
    mkdirSync(join(dir, 'hook-calls'), { recursive: true });
    post(ws, 'go build ./...');
    assert.equal((await readMemoryFull(ws)).approaches['.::go build']?.failures, 1, 'recorded');
    assert.ok(readdirSync(dir).some(f => f.startsWith('journal.jsonl.corrupt-')), 'the FIFO was moved aside, never opened');
  });

  test('a harness transcript path (Codex) and a rules file (Cline) that are FIFOs', async () => {
    const ws = await seeded();
    const transcript = join(temp(), 'rollout.jsonl');
    mkfifo(transcript);
    const codex = hook('post', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: ['bash', '-lc', 'make x'] }, tool_response: 'boom', cwd: ws, transcript_path: transcript, tool_use_id: 'call_1', session_id: 's' }, {}, 'codex');
    assert.equal(codex.status, 0);
    mkdirSync(join(ws, '.clinerules'), { recursive: true });
    mkfifo(join(ws, '.clinerules', 'failure-memory.md'));
    const cline = hook('post', { workspaceRoots: [ws], postToolUse: { toolName: 'execute_command', parameters: { command: 'make y' }, result: 'Command exited with code 1\nboom', success: false } }, {}, 'cline');
    assert.equal(cline.signal, null);
  });

  test('agent-runs: a FIFO where the VS Code terminal hand-off reads', async () => {
    const ws = await seeded();
    const runs = join(memoryDirFor(ws), 'agent-runs');
    mkdirSync(runs, { recursive: true });
    for (const name of ['a.expect', 'a.ended', 'a.output']) mkfifo(join(runs, name));
    const r = hook('pre', { cwd: ws, hookEventName: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'make z' }, sessionId: 's', tool_use_id: 'c' }, {}, 'vscode');
    assert.equal(r.signal, null);
  });
});
