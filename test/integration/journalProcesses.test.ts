// The journal with real processes (dist/hook.js as a harness runs it, dist/cli.js): post hooks
// racing each other and full writers, and hooks killed at any moment. Nothing is lost, nothing is
// counted twice, and memory stays usable. In-process behaviour: journal.test.ts.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { approachKey } from '../../src/core/approach';
import type { MemoryData } from '../../src/core/types';
import { openWorkspaceMemory } from '../../src/app/openMemory';
import { FOLD_RECORDS, JOURNAL_FILE_NAME } from '../../src/store/journal';
import { MemoryStore, memoryDirFor } from '../../src/store/memoryStore';
import { tempFolders } from '../support/tempFolders';

const REPO = resolve(__dirname, '../..');
const HOOK = join(REPO, 'dist/hook.js');
const CLI = join(REPO, 'dist/cli.js');
const built = fs.existsSync(HOOK) && fs.existsSync(CLI);
const folder = tempFolders('fm-journal-proc-');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

let calls = 0;
/** One Claude Code post hook for a failed `command`, as the harness runs it; killed after `killAfterMs` if given. */
function hookPost(ws: string, cache: string, command: string, killAfterMs?: number): Promise<Run> {
  const payload = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${process.pid}_${++calls}`, error: `Exit code 1\nError: Cannot find module 'dep'` });
  return run([HOOK, 'hook', 'claude', 'post'], payload, { CLAUDE_PROJECT_DIR: ws, FAILURE_MEMORY_CACHE_DIR: cache }, killAfterMs);
}

/** A full writer: `failure-memory record` of a failure (rewrites memory.json, so folds the journal). */
function cliRecord(ws: string, command: string): Promise<Run> {
  return run([CLI, 'record', '--command', command, '--exit-code', '1', '--workspace', ws, '--source', 'cli'], "Error: Cannot find module 'dep'\n", {});
}

function run(args: string[], input: string, env: Record<string, string>, killAfterMs?: number): Promise<Run> {
  return new Promise(done => {
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, FAILURE_MEMORY_STATE_DIR: process.env.FAILURE_MEMORY_STATE_DIR, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', d => (stderr += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      done({ code, signal, stderr });
    });
  });
}

/** Runs the jobs `width` at a time. */
async function parallel<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  }));
  return out;
}

async function memoryOf(ws: string) {
  return new MemoryStore(memoryDirFor(ws), { cache: false }).read();
}

describe('the journal with real processes', { skip: !built && 'dist/hook.js or dist/cli.js is not built (npm run build)' }, () => {
  test('a run the post hook journaled is seen by the CLI (check, list, export), the extension\'s long-lived memory and the gate, before any fold', { timeout: 2 * 60_000 }, async () => {
    const ws = folder();
    const cache = folder();
    // the extension's reader: the memory opened as the host opens it (long-lived: it caches what it parsed)
    const { memory: host } = openWorkspaceMemory({ workspace: ws, longLived: true, git: false, onWarning: () => undefined });
    await cliRecord(ws, 'make docs');
    assert.equal((await host.read()).approaches[approachKey('make lint', '.')], undefined);
    const before = fs.readFileSync(join(memoryDirFor(ws), 'memory.json'));
    for (let i = 0; i < 2; i++) assert.equal((await hookPost(ws, cache, 'make lint')).code, 0);
    assert.deepEqual(fs.readFileSync(join(memoryDirFor(ws), 'memory.json')), before, 'the runs wait in the journal, memory.json untouched');
    assert.ok(fs.existsSync(join(memoryDirFor(ws), JOURNAL_FILE_NAME)));
    const cli = (...args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    assert.equal(JSON.parse(cli('check', '--command', 'make lint', '--json')).attempts, 2, 'failure-memory check');
    const listed = JSON.parse(cli('list', '--json')) as { failing: Array<{ command: string; attempts: number }> };
    assert.deepEqual(listed.failing.filter(a => a.command === 'make lint').map(a => a.attempts), [2], 'failure-memory list');
    assert.equal((JSON.parse(cli('export')) as MemoryData).approaches[approachKey('make lint', '.')].failures, 2, 'failure-memory export');
    assert.equal((await host.read()).approaches[approachKey('make lint', '.')]?.failures, 2, "the extension's memory");
    assert.equal((await host.check('make lint')).attempts, 2, "the extension's check");
    // three more: the gate refuses the sixth (its reason counts the journaled runs)
    for (let i = 0; i < 3; i++) assert.equal((await hookPost(ws, cache, 'make lint')).code, 0);
    const pre = spawnSync(process.execPath, [HOOK, 'hook', 'claude', 'pre'], {
      input: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make lint' }, tool_use_id: 'toolu_pre' }),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, FAILURE_MEMORY_STATE_DIR: process.env.FAILURE_MEMORY_STATE_DIR, CLAUDE_PROJECT_DIR: ws, FAILURE_MEMORY_CACHE_DIR: cache },
      encoding: 'utf8',
    });
    assert.match(pre.stdout, /"permissionDecision":"deny"/, pre.stdout + pre.stderr);
  });

  test(`post hooks racing: 6 at a time, 40 failures (folds every ${FOLD_RECORDS} among them), each counted once`, { timeout: 10 * 60_000 }, async () => {
    const ws = folder();
    const cache = folder();
    const commands = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'npm test' : `tool${i} build`));
    const runs = await parallel(commands.map(c => () => hookPost(ws, cache, c)), 6);
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const data = await memoryOf(ws);
    assert.equal(data.approaches[approachKey('npm test', '.')].failures, 20);
    for (let i = 0; i < 40; i += 2) assert.equal(data.approaches[approachKey(`tool${i} build`, '.')]?.failures, 1, `tool${i} build`);
  });

  test('post hooks racing full writers (the CLI, which folds the journal each time): nothing lost, nothing doubled', { timeout: 10 * 60_000 }, async () => {
    const ws = folder();
    const cache = folder();
    const jobs = Array.from({ length: 36 }, (_, i) => (i % 3 === 0 ? () => cliRecord(ws, 'make check') : () => hookPost(ws, cache, 'make check')));
    const runs = await parallel(jobs, 6);
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.equal((await memoryOf(ws)).approaches[approachKey('make check', '.')].failures, 36);
  });

  test('hooks killed at any moment: memory stays usable, no run is counted twice, every hook that finished is counted', { timeout: 10 * 60_000 }, async () => {
    const ws = folder();
    const cache = folder();
    // the first call writes the code caches: the killed ones then die at every stage of a warm run
    assert.equal((await hookPost(ws, cache, 'warm up')).code, 0);
    const commands = Array.from({ length: 30 }, (_, i) => `job${i} run`);
    const runs = await parallel(commands.map((c, i) => () => hookPost(ws, cache, c, 5 + ((i * 37) % 150))), 3);
    const data = await memoryOf(ws);
    let finished = 0;
    for (const [i, r] of runs.entries()) {
      const failures = data.approaches[approachKey(commands[i], '.')]?.failures ?? 0;
      assert.ok(failures <= 1, `${commands[i]} counted ${failures} times`);
      if (r.signal === null) {
        finished++;
        assert.equal(r.code, 0, r.stderr);
        assert.equal(failures, 1, `${commands[i]} finished but is not counted`);
      }
    }
    assert.ok(finished < runs.length, 'some hooks were killed');
    // a lock left by a killed hook is broken, a line it cut is closed: the next hook records, and a fold keeps every count
    assert.equal((await hookPost(ws, cache, 'after the kills')).code, 0);
    assert.equal((await memoryOf(ws)).approaches[approachKey('after the kills', '.')].failures, 1);
    const counts = Object.fromEntries(Object.values((await memoryOf(ws)).approaches).map(a => [a.key, a.failures]));
    const fold = spawnSync(process.execPath, [CLI, 'learn', '--type', 'learning', '--text', 'folded', '--workspace', ws], { encoding: 'utf8' });
    assert.equal(fold.status, 0, fold.stderr);
    assert.equal(fs.existsSync(join(memoryDirFor(ws), 'journal.jsonl')), false);
    assert.deepEqual(Object.fromEntries(Object.values((await memoryOf(ws)).approaches).map(a => [a.key, a.failures])), counts);
  });
});
