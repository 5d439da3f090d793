// The memory panel at the limit of 500 approaches: the host's snapshot reuses the views of
// approaches that did not change (and gives exactly what building them again gives), and the
// panel's search matches an approach by its own words, not by the alternatives it lists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowOnce, markResolved } from '../../src/core/memory';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';
import { ApproachViewCache, buildSnapshot } from '../../src/views/panelModel';
import { approachText, matchesAll, searchWords } from '../../webview/state';
import { recorder } from '../support/recorder';

const CAPTURE = { terminal: true, tasks: true, terminalsWithIntegration: 1, terminals: 1 };

function seeded(n: number) {
  const rec = recorder();
  const data = emptyMemory();
  for (let i = 0; i < n; i++) for (let k = 0; k <= i % 5; k++) rec.run(data, `node job${i}.js`, 1, `TypeError: Cannot read properties of undefined (reading 'x${i}')\n    at main (/w/job${i}.js:3:7)\n`);
  return { rec, data };
}

const snap = (data: MemoryData, now: Date, cache?: ApproachViewCache) =>
  buildSnapshot([{ uri: 'file:///w', name: 'w', private: false, data, threshold: DEFAULT_SETTINGS.threshold }], CAPTURE, { now, ...(cache ? { cache } : {}) });

test('a snapshot made with kept views is the snapshot made from scratch, whatever changed in between', () => {
  const { rec, data } = seeded(60);
  const cache = new ApproachViewCache();
  // a fixed sequence of what happens to a memory: failures (which add alternatives to others), passes, resolutions, run-anyway
  let seed = 7;
  const next = (m: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % m;
  for (let step = 0; step < 40; step++) {
    const i = next(70);
    const what = next(4);
    if (what === 0) rec.run(data, `node job${i}.js`, 0, 'ok\n');
    else if (what === 1 && data.approaches[`.::node job${i}.js`]) markResolved(data, `.::node job${i}.js`, new Date(rec.now()).toISOString());
    else if (what === 2 && data.approaches[`.::node job${i}.js`]?.status === 'exhausted') allowOnce(data, `.::node job${i}.js`, new Date(rec.now()).toISOString());
    else rec.run(data, `node job${i}.js`, 1, `TypeError: Cannot read properties of undefined (reading 'y${i}')\n`);
    const now = new Date(rec.now() + step * 45_000);
    assert.deepEqual(snap(data, now, cache), snap(data, now), `step ${step}`);
  }
});

test('the search finds job499 among 500 approaches, and only it (not the approaches listing it as also tried)', () => {
  const { data } = seeded(500);
  const s = snap(data, new Date());
  const all = [...s.exhausted, ...s.failing];
  assert.equal(all.length, 500);
  assert.ok(all.filter(a => a.alternativesTried.some(x => x.includes('job499'))).length > 1, 'other approaches list job499 among their alternatives');
  for (const q of ['job499', 'job77', 'job0.js', 'job250']) {
    const found = all.filter(a => matchesAll(searchWords(q), approachText(a, 'w')));
    assert.deepEqual(found.map(a => a.label), [`node ${q.replace('.js', '')}.js`], q);
  }
});
