// What only real time shows, kept out of the pure unit tier (which drives its clocks and never
// sleeps): a lock holder's heartbeat, a real timer that a fake clock cannot drive, and a user
// redaction pattern that really runs over its time budget through a whole record (the budget's
// arithmetic is unit-tested with a driven clock in test/unit/userPatterns.test.ts).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { test } from 'node:test';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { acquireLock } from '../../src/store/lock';
import { learning, storeMaker } from '../support/stores';
import { tempFolders } from '../support/tempFolders';

const workspace = tempFolders('fm-real-time-');
const newStore = storeMaker(workspace);

test('a slow holder keeps its lock fresh (heartbeat) and is not broken as stale', async () => {
  const { store, warnings } = newStore({ staleLockMs: 200 });
  let finished = 0;
  const slow = store.update(async d => {
    await new Promise(resolve => setTimeout(resolve, 800));
    d.learnings.push(learning('slow'));
    finished = Date.now();
  });
  await new Promise(resolve => setTimeout(resolve, 100));
  // another "process": the raw lock, bypassing this process's in-memory queue
  const lock = await acquireLock(`${store.file}.lock`, { timeoutMs: 5000, staleMs: 200, onWarning: m => warnings.push(m) });
  const acquired = Date.now();
  await lock.release();
  await slow;
  assert.ok(finished > 0 && acquired >= finished, 'waited for the slow update to finish');
  assert.deepEqual(warnings, []);
  assert.deepEqual((await store.read()).learnings.map(l => l.id), ['slow']);
});

test('a record with a pattern over its budget keeps what was scanned and logs why', async () => {
  const ws = realpathSync(workspace());
  const warnings: string[] = [];
  const m = new WorkspaceMemory(ws, { settings: { 'redaction.extraPatterns': ['(.*a){100}'], maxOutputBytes: 1024 * 1024 }, git: false, onWarning: w => warnings.push(w) });
  const r = await m.record({ command: 'npm test', exitCode: 1, output: `Error: boom\n${'abcdefgh '.repeat(250_000)}`, source: 'cli' });
  assert.equal(r.attempt.outcome, 'failure');
  assert.match(r.attempt.output, /characters not kept: redaction pattern/);
  assert.ok(warnings.some(w => /^redaction: redaction pattern "\(\.\*a\)\{100\}" ran over its time budget/.test(w)), warnings.join('\n'));
});
