// With team memory on, every door's record reaches the team outbox (team-outbox.jsonl): the CLI,
// MCP and an agent's post hook (the extension's terminal, tasks and language-model tools in
// test/e2e/team.e2e.mjs). No database is needed: the outbox is written before any push.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openWorkspaceMemory } from '../../src/app/openMemory';
import type { OutboxEntry } from '../../src/core/rules/team';
import { TeamLocal } from '../../src/store/team/teamLink';
import { ViewCache } from '../../src/store/team/viewCache';
import { memoryDirFor } from '../../src/store/paths';
import { cloneWorkspace } from '../support/teamWorkspace';
import { tempFolders } from '../support/tempFolders';

const CLI = resolve(__dirname, '../../dist/cli.js');
const HOOK = resolve(__dirname, '../../dist/hook.js');
// nothing listens there: the records wait in the outbox
const URL = 'postgres://fm@127.0.0.1:9/team';
const temp = tempFolders('fm-team-doors-');
const CLEAN_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG') && !k.startsWith('FAILURE_MEMORY') && k !== 'CI' && !k.startsWith('GITHUB')));

/** A clone of the team's repository with team memory on in its .vscode/settings.json. */
function clone(settings: Record<string, unknown> = { 'failureMemory.team.enabled': true, 'failureMemory.team.databaseUrl': URL }): string {
  const ws = cloneWorkspace('git@github.com:acme/doors.git', 'fm-team-doors-');
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify(settings));
  return ws;
}

function outbox(ws: string): OutboxEntry[] {
  const file = join(memoryDirFor(ws), 'team-outbox.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as OutboxEntry);
}
const attempts = (ws: string) => outbox(ws).flatMap(e => (e.kind === 'attempt' ? [e.attempt] : []));

function cli(ws: string, args: string[], input = '', env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8', env: { ...CLEAN_ENV, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function hook(ws: string, event: 'pre' | 'post', payload: object, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [HOOK, 'hook', 'claude', event], { input: JSON.stringify({ cwd: ws, ...payload }), encoding: 'utf8', env: { ...CLEAN_ENV, FAILURE_MEMORY_CACHE_DIR: temp(), CLAUDE_PROJECT_DIR: ws, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const postFailure = (command: string, error = 'Exit code 1\nError: boom') => ({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, error });
const postSuccess = (command: string) => ({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, tool_response: { stdout: 'ok', stderr: '', interrupted: false } });

/** A team view as a pull leaves it: the team knows `key` failing (or nothing, with no key). */
async function pulledView(ws: string, failingKey?: string): Promise<void> {
  const approaches = failingKey
    ? { [failingKey]: { key: failingKey, label: 'npm test', cwd: '.', command: 'npm test', failures: 80, failuresThisWeek: 80, machines: 3, ci: true, lastError: 'Error: boom', lastFailure: new Date().toISOString() } }
    : {};
  await new ViewCache(memoryDirFor(ws)).write({ version: 1, state: 'online', view: { project: 'github.com/acme/doors', pulledAt: new Date().toISOString(), approaches, learnings: [], reflections: [] } as never });
}

before(() => {
  assert.ok(existsSync(CLI) && existsSync(HOOK), 'dist/cli.js and dist/hook.js are built (npm run build)');
});

describe('every door feeds the team outbox', () => {
  test('an agent post hook (dist/hook.js): a failure is queued, from settings.json or FAILURE_MEMORY_DATABASE_URL', () => {
    const ws = clone();
    const r = hook(ws, 'post', postFailure('npm run build'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(attempts(ws).map(a => [a.key, a.outcome, a.source]), [['.::npm run build', 'failure', 'agent']]);
    // no settings, the CI way: the environment turns team memory on
    const ci = clone({});
    assert.equal(hook(ci, 'post', postFailure('npm run build'), { FAILURE_MEMORY_DATABASE_URL: URL }).code, 0);
    assert.equal(attempts(ci).length, 1);
    // team memory off: nothing queued
    const off = clone({});
    assert.equal(hook(off, 'post', postFailure('npm run build')).code, 0);
    assert.equal(outbox(off).length, 0);
  });

  test('the CLI: record and learn are queued', () => {
    const ws = clone();
    assert.equal(cli(ws, ['record', '--command', 'npm test', '--exit-code', '1'], 'Error: boom\n').code, 0);
    assert.equal(cli(ws, ['learn', '--type', 'learning', '--text', 'the test database must run first']).code, 0);
    assert.deepEqual(outbox(ws).map(e => e.kind), ['attempt', 'learning']);
    assert.equal(attempts(ws)[0].source, 'cli');
  });

  test('MCP: a recorded result is queued', async () => {
    const ws = clone();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', ws], stderr: 'pipe', env: CLEAN_ENV as Record<string, string> });
    const client = new Client({ name: 'fm-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const r = await client.callTool({ name: 'failure_memory_record', arguments: { command: 'cargo build', exitCode: 101, output: 'error[E0425]: cannot find value `x`' } });
      assert.ok(!r.isError, JSON.stringify(r.content));
    } finally {
      await client.close();
    }
    assert.deepEqual(attempts(ws).map(a => [a.key, a.outcome, a.source]), [['.::cargo build', 'failure', 'reported']]);
  });
});

describe('a success reaches the team when it may clear something', () => {
  test('before this machine\'s first pull: the success of an approach the team may know failing is queued (hook and CLI)', () => {
    const ws = clone();
    assert.equal(hook(ws, 'post', postSuccess('npm test')).code, 0);
    assert.deepEqual(attempts(ws).map(a => [a.key, a.outcome]), [['.::npm test', 'success']]);
    assert.equal(cli(ws, ['record', '--command', 'npm run lint', '--exit-code', '0']).code, 0);
    assert.deepEqual(attempts(ws).map(a => a.key), ['.::npm test', '.::npm run lint']);
  });

  test('before the first pull, one success per approach waits: the latest replaces the earlier', () => {
    const ws = clone();
    for (let i = 0; i < 3; i++) assert.equal(hook(ws, 'post', postSuccess('npm test')).code, 0);
    const waiting = attempts(ws);
    assert.equal(waiting.length, 1);
    // once the approach failed here, its runs travel as they are: nothing is replaced any more
    assert.equal(hook(ws, 'post', postFailure('npm test')).code, 0);
    assert.equal(hook(ws, 'post', postSuccess('npm test')).code, 0);
    assert.deepEqual(attempts(ws).map(a => a.outcome), ['success', 'failure', 'success']);
  });

  test('after a pull: a success is queued only when the team knows the approach failing', async () => {
    const ws = clone();
    await pulledView(ws, '.::npm test');
    assert.equal(hook(ws, 'post', postSuccess('ls -la')).code, 0);
    assert.equal(outbox(ws).length, 0, 'every ls does not travel');
    assert.equal(hook(ws, 'post', postSuccess('npm test')).code, 0);
    assert.deepEqual(attempts(ws).map(a => [a.key, a.outcome]), [['.::npm test', 'success']]);
  });
});

describe('the factory', () => {
  test('opens every memory with the workspace settings and the team link they describe', async () => {
    const ws = clone({ 'failureMemory.team.enabled': true, 'failureMemory.team.databaseUrl': URL, 'failureMemory.threshold': 3 });
    const warnings: string[] = [];
    const opened = openWorkspaceMemory({ workspace: ws, env: {}, onWarning: m => warnings.push(m), team: o => new TeamLocal(o), git: false });
    assert.equal(opened.memory.settings.threshold, 3);
    assert.ok(opened.team instanceof TeamLocal);
    assert.equal(opened.team.project, 'github.com/acme/doors');
    assert.match(opened.teamReason, /team project github\.com\/acme\/doors on postgres:\/\/fm@127\.0\.0\.1:9\/team/);
    await opened.memory.record({ command: 'make', exitCode: 2, output: 'Error: x', source: 'cli' });
    assert.equal(attempts(ws).length, 1);
    // overrides win over the file; no team for a caller that asks for none
    const plain = openWorkspaceMemory({ workspace: ws, env: {}, overrides: { threshold: 9 }, team: false });
    assert.equal(plain.memory.settings.threshold, 9);
    assert.equal(plain.team, undefined);
    assert.deepEqual(warnings, []);
    // a folder that is no repository: no team link, and why
    const lone = temp();
    mkdirSync(join(lone, '.vscode'));
    writeFileSync(join(lone, '.vscode', 'settings.json'), JSON.stringify({ 'failureMemory.team.enabled': true }));
    const none = openWorkspaceMemory({ workspace: lone, env: {}, team: o => new TeamLocal(o) });
    assert.equal(none.team, undefined);
    assert.match(none.teamReason, /not in a git repository/);
  });

  test('the recall scorer is made on the first recall, never when the memory is opened', async () => {
    const ws = clone({});
    let made = 0;
    const { memory } = openWorkspaceMemory({ workspace: ws, env: {}, scorer: () => (made++, { id: 'spy', score: (_q, d) => d.map(() => 0.5) }) });
    assert.equal(made, 0);
    await memory.record({ command: 'make', exitCode: 2, output: 'Error: x', source: 'cli' });
    assert.equal(made, 0);
    await memory.recall('make');
    await memory.recall('make again');
    assert.equal(made, 1);
  });
});
