// The memory panel's saved state (webview/state.ts): it keeps the last snapshot, bounded and without
// one-time highlights, so that a panel built again shows content before the host answers; a state
// saved by an older version, or tampered with, gives no snapshot rather than a broken one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSnapshot } from '../../src/views/panelModel';
import { emptyMemory } from '../../src/core/types';
import { restoreSnapshot, restoreState, snapshotToKeep } from '../../webview/state';

function snapshot() {
  const data = emptyMemory();
  for (let i = 0; i < 150; i++) data.learnings.push({ id: `l${i}`, type: 'learning', text: `lesson ${i}`, source: 'user', createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() });
  return buildSnapshot([{ uri: 'file:///ws', name: 'ws', private: false, data, threshold: 5 }], { terminal: true, tasks: true, terminalsWithIntegration: 1, terminals: 1 }, { highlight: { folder: 'file:///ws', key: 'x' }, highlightReflection: 'r1' });
}

test('the snapshot kept with the state is bounded and has no one-time highlight', () => {
  const kept = snapshotToKeep(snapshot());
  assert.equal(kept.learnings.length, 100);
  assert.equal(kept.highlight, undefined);
  assert.equal(kept.highlightReflection, undefined);
  assert.deepEqual(restoreSnapshot({ ...restoreState({}), snapshot: kept }), kept, 'restored as saved');
});

test('no snapshot from a state without one, or with one that is not a snapshot', () => {
  assert.equal(restoreSnapshot(undefined), undefined);
  assert.equal(restoreSnapshot({ search: 'x' }), undefined);
  assert.equal(restoreSnapshot({ snapshot: { folders: 'nope' } }), undefined);
  const tampered = snapshotToKeep(snapshot()) as unknown as { exhausted: unknown[] };
  tampered.exhausted = [{ key: 1 }];
  assert.equal(restoreSnapshot({ snapshot: tampered }), undefined);
});

test('the scroll position is kept, within bounds', () => {
  assert.equal(restoreState({ scrollY: 420 }).scrollY, 420);
  assert.equal(restoreState({ scrollY: -5 }).scrollY, 0);
  assert.equal(restoreState({ scrollY: 'far' }).scrollY, 0);
});
