// The handover of VS Code's agent terminal runs between the hooks and the extension's terminal
// watcher (src/store/agentRuns.ts): which call a finished command belongs to, its output, and
// whether a run is still being recorded.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { claimAgentRun, expectAgentRun, finishAgentRun, handAgentRunOutput, handedOutput, MAX_HANDED_OUTPUT, runsBeingRecorded, shortName } from '../../src/store/agentRuns';
import { tempFolders } from '../support/tempFolders';

const folder = tempFolders('fm-agent-runs-');
// file times are compared with this clock: the machine's own
const NOW = Date.now();

test('a call the pre hook let run is claimed once by the watcher that saw its command end, then handed its output, then cleared', () => {
  const dir = folder();
  expectAgentRun(dir, 's:call-1', 'bash build.sh', NOW);
  assert.equal(runsBeingRecorded(dir, NOW), 0, 'expected, not yet ended: nothing to wait for');
  const id = claimAgentRun(dir, 'bash build.sh', NOW + 100, NOW + 900);
  assert.equal(id, shortName('s:call-1'));
  assert.equal(claimAgentRun(dir, 'bash build.sh', NOW + 100, NOW + 900), undefined, 'one claim per call');
  assert.equal(runsBeingRecorded(dir, NOW + 1000), 1, 'the next pre hook waits for this record');
  assert.equal(handedOutput(dir, id!), undefined);
  assert.equal(handAgentRunOutput(dir, 's:call-1', 'Error: boom'), true);
  assert.equal(handedOutput(dir, id!), 'Error: boom');
  finishAgentRun(dir, id!);
  assert.equal(runsBeingRecorded(dir, NOW + 1000), 0);
  assert.deepEqual(readdirSync(join(dir, 'agent-runs')), []);
});

test('a run that ended long after its call started is being recorded now (a long build), not stale', () => {
  const dir = folder();
  expectAgentRun(dir, 's:long', 'npm run build', NOW);
  const file = join(dir, 'agent-runs', `${shortName('s:long')}.expect`);
  utimesSync(file, NOW / 1000, NOW / 1000);
  const ended = NOW + 60_000;
  assert.ok(claimAgentRun(dir, 'npm run build', NOW + 10, ended));
  assert.equal(runsBeingRecorded(dir, ended + 500), 1);
  assert.equal(runsBeingRecorded(dir, ended + 60_000), 0, 'a watcher gone for a minute is not waited for');
});

test('nothing is handed over for a call nobody expects; a command no call ran is left to the terminal', () => {
  const dir = folder();
  assert.equal(handAgentRunOutput(dir, 's:unknown', 'out'), false);
  assert.equal(existsSync(join(dir, 'agent-runs', `${shortName('s:unknown')}.output`)), false);
  expectAgentRun(dir, 's:a', 'bash build.sh', NOW);
  assert.equal(claimAgentRun(dir, 'bash build.sh --verbose', NOW, NOW + 10), undefined);
  assert.equal(claimAgentRun(dir, 'bash build.sh', NOW + 10 * 60_000, NOW + 10 * 60_000), undefined, 'a call from long before this run started');
});

test('the output handed over is bounded to its tail (the error is at the end)', () => {
  const dir = folder();
  expectAgentRun(dir, 's:big', 'make', NOW);
  handAgentRunOutput(dir, 's:big', `${'x'.repeat(MAX_HANDED_OUTPUT * 2)}\nError: last line`);
  const out = handedOutput(dir, shortName('s:big'))!;
  assert.equal(out.length, MAX_HANDED_OUTPUT);
  assert.ok(out.endsWith('Error: last line'));
});

test('a file that does not parse is skipped, and stale files are pruned by the next call', () => {
  const dir = folder();
  expectAgentRun(dir, 's:first', 'ls', NOW);
  writeFileSync(join(dir, 'agent-runs', 'junk.expect'), '{not json');
  utimesSync(join(dir, 'agent-runs', 'junk.expect'), NOW / 1000 - 3600, NOW / 1000 - 3600);
  assert.equal(claimAgentRun(dir, '{not json', NOW, NOW + 10), undefined);
  expectAgentRun(dir, 's:second', 'ls', NOW + 1000);
  assert.equal(existsSync(join(dir, 'agent-runs', 'junk.expect')), false);
  // the earlier of two expected calls of one command is the run that ended first
  assert.equal(claimAgentRun(dir, 'ls', NOW - 1000, NOW + 2000), shortName('s:first'));
  assert.equal(claimAgentRun(dir, 'ls', NOW - 1000, NOW + 2000), shortName('s:second'));
});

test('nothing is written through a symbolic link on the way from the workspace (a repository could point the folder anywhere)', () => {
  const ws = folder();
  const elsewhere = folder();
  mkdirSync(join(ws, '.vscode'));
  symlinkSync(elsewhere, join(ws, '.vscode', 'failure-memory'));
  assert.throws(() => expectAgentRun(join(ws, '.vscode', 'failure-memory'), 's:x', 'ls', NOW), /symbolic link/);
  assert.deepEqual(readdirSync(elsewhere), []);
});

test('a memory folder the hooks make before the first record is kept out of git like the store\'s', () => {
  const ws = folder();
  expectAgentRun(join(ws, '.vscode', 'failure-memory'), 's:x', 'ls', NOW);
  assert.equal(readFileSync(join(ws, '.vscode', 'failure-memory', '.gitignore'), 'utf8'), '*\n');
});
