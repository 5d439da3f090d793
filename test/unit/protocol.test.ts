import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyAttempt, newId, prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { buildReflection } from '../../src/core/reflection';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';
import { buildSnapshot, reflectionView } from '../../src/views/panelModel';
import * as z from 'zod/mini';
import { isHostMessage, isSnapshot, LIMITS, type Snapshot } from '../../src/shared/protocol';
import { isWebviewMessage, validateWebviewMessage, WEBVIEW_MESSAGE_TYPES, type WebviewMessage } from '../../src/shared/webviewMessages';

const FOLDER = 'file:///home/dev/app';
const KEY = '.::prisma generate';

const good: WebviewMessage[] = [
  { type: 'ready' },
  { type: 'openLog' },
  { type: 'downloadModel' },
  { type: 'resolve', folder: FOLDER, key: KEY },
  { type: 'runAnywayOnce', folder: FOLDER, key: KEY },
  { type: 'reflect', folder: FOLDER, key: KEY },
  { type: 'copyCommand', folder: FOLDER, key: KEY },
  { type: 'copyBrief', folder: FOLDER, key: KEY },
  { type: 'search', query: 'cannot find module @prisma/client' },
  { type: 'search', query: '' },
  { type: 'addLearning', folder: FOLDER, learningType: 'learning', text: 'Run prisma generate after editing schema.prisma' },
  { type: 'addLearning', folder: FOLDER, learningType: 'failed_approach', text: 'line one\nline two\ttabbed', key: KEY },
  { type: 'updateLearning', folder: FOLDER, id: 'mwr2whd4-0001-bae1', text: 'better text' },
  { type: 'updateLearning', folder: FOLDER, id: 'mwr2whd4-0001-bae1', learningType: 'pattern' },
  { type: 'deleteLearning', folder: FOLDER, id: 'mwr2whd4-0001-bae1' },
];

test('every message kind the webview sends is accepted, and comes back as an equal fresh copy', () => {
  assert.deepEqual(new Set(good.map(m => m.type)), new Set(WEBVIEW_MESSAGE_TYPES));
  for (const m of good) {
    const v = validateWebviewMessage(structuredClone(m));
    assert.ok(v.ok, `${m.type}: ${v.ok ? '' : v.reason}`);
    assert.deepEqual(v.message, m);
    assert.notEqual(v.message, m);
    assert.ok(isWebviewMessage(m));
  }
});

test('malformed messages are rejected with a reason', () => {
  const bad: Array<[unknown, RegExp]> = [
    [null, /plain object/],
    [undefined, /plain object/],
    ['ready', /plain object/],
    [42, /plain object/],
    [[{ type: 'ready' }], /plain object/],
    [{}, /unknown message type/],
    [{ type: 'READY' }, /unknown message type/],
    [{ type: 'eval', code: 'x' }, /unknown message type/],
    [{ type: 'toString' }, /unknown message type/],
    [{ type: 'hasOwnProperty' }, /unknown message type/],
    [{ type: 7 }, /unknown message type/],
    [{ type: 'ready', extra: 1 }, /unexpected field "extra"/],
    [{ type: 'resolve', folder: FOLDER }, /key must be a string/],
    [{ type: 'resolve', key: KEY }, /folder must be a string/],
    [{ type: 'resolve', folder: FOLDER, key: 1 }, /key must be a string/],
    [{ type: 'resolve', folder: FOLDER, key: '' }, /key is empty/],
    [{ type: 'resolve', folder: FOLDER, key: { toString: () => KEY } }, /key must be a string/],
    [{ type: 'resolve', folder: FOLDER, key: [KEY] }, /key must be a string/],
    [{ type: 'resolve', folder: 'not a uri', key: KEY }, /not a URI/],
    [{ type: 'resolve', folder: FOLDER, key: 'a\u0000b' }, /control characters/],
    [{ type: 'resolve', folder: FOLDER, key: 'x\nrm -rf /' }, /control characters/],
    [{ type: 'reflect', folder: FOLDER, key: 'k'.repeat(LIMITS.key + 1) }, /longer than/],
    [{ type: 'reflect', folder: `file:///${'a'.repeat(LIMITS.folder)}`, key: KEY }, /longer than/],
    [{ type: 'search' }, /query must be a string/],
    [{ type: 'search', query: 5 }, /query must be a string/],
    [{ type: 'search', query: 'q'.repeat(LIMITS.query + 1) }, /longer than/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'gossip', text: 'x' }, /learningType must be one of/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'learning' }, /text must be a string/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'learning', text: '   \n ' }, /text is empty/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'learning', text: 'x'.repeat(LIMITS.learningText + 1) }, /longer than/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'learning', text: 'bell\u0007' }, /control characters/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'learning', text: 'ok', key: '' }, /key is empty/],
    [{ type: 'addLearning', folder: FOLDER, learningType: 'learning', text: 'ok', id: 'abc' }, /unexpected field "id"/],
    [{ type: 'updateLearning', folder: FOLDER, id: 'abc' }, /changes nothing/],
    [{ type: 'updateLearning', folder: FOLDER, id: '../../etc/passwd', text: 'x' }, /characters an id never has/],
    [{ type: 'updateLearning', folder: FOLDER, id: 'i'.repeat(LIMITS.id + 1), text: 'x' }, /longer than/],
    [{ type: 'updateLearning', folder: FOLDER, id: 'abc', learningType: 'bogus' }, /learningType/],
    [{ type: 'deleteLearning', folder: FOLDER }, /id must be a string/],
    [{ type: 'deleteLearning', folder: FOLDER, id: 'a', b: 1, c: 2, d: 3, e: 4, f: 5 }, /too many fields/],
  ];
  for (const [m, reason] of bad) {
    const v = validateWebviewMessage(m);
    assert.equal(v.ok, false, `accepted ${JSON.stringify(m)?.slice(0, 80)}`);
    if (!v.ok) assert.match(v.reason, reason, `${JSON.stringify(m)?.slice(0, 80)}`);
    assert.equal(isWebviewMessage(m), false);
  }
});

test('prototype-pollution attempts are rejected and pollute nothing', () => {
  const hostile = [
    JSON.parse('{"type":"ready","__proto__":{"polluted":true}}'),
    JSON.parse('{"type":"resolve","folder":"file:///a","key":"k","__proto__":{"isAdmin":true}}'),
    JSON.parse('{"type":"ready","constructor":{"prototype":{"polluted":true}}}'),
    { type: 'resolve', folder: FOLDER, key: '__proto__' },
    { type: 'resolve', folder: FOLDER, key: 'constructor' },
    { type: 'deleteLearning', folder: FOLDER, id: '__proto__' },
    { type: 'deleteLearning', folder: FOLDER, id: 'prototype' },
    Object.create({ type: 'ready' }),
    Object.assign(Object.create({ polluted: true }), { type: 'ready' }),
    new (class Ready {
      type = 'ready';
    })(),
    new Map([['type', 'ready']]),
  ];
  for (const m of hostile) assert.equal(validateWebviewMessage(m).ok, false, `accepted ${String(Object.keys(m))}`);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
  // a null-prototype object is plain data and fine
  assert.ok(validateWebviewMessage(Object.assign(Object.create(null), { type: 'ready' })).ok);
});

// (how fast is for bench/, not for a timed assertion that fails on a loaded machine)
test('huge or deeply odd input is rejected', () => {
  const huge = 'x'.repeat(5_000_000);
  assert.equal(validateWebviewMessage({ type: 'search', query: huge }).ok, false);
  assert.equal(validateWebviewMessage({ type: 'addLearning', folder: FOLDER, learningType: 'learning', text: huge }).ok, false);
  assert.equal(validateWebviewMessage({ type: huge }).ok, false);
  const wide: Record<string, unknown> = { type: 'ready' };
  for (let i = 0; i < 10_000; i++) wide[`k${i}`] = i;
  assert.equal(validateWebviewMessage(wide).ok, false);
});

// ---- host → webview ----

function seeded(): MemoryData {
  const data = emptyMemory('2026-01-01T00:00:00.000Z');
  const settings = { ...DEFAULT_SETTINGS, threshold: 5 };
  const redactor = createRedactor([]);
  let t = Date.parse('2026-01-01T10:00:00.000Z');
  const run = (command: string, exitCode: number, output: string) =>
    applyAttempt(data, prepareAttempt({ command, exitCode, source: 'cli', output }, settings, redactor, new Date((t += 60_000))), settings);
  for (let i = 0; i < 5; i++) run('npx prisma generate', 1, 'Error: Cannot find module "@prisma/client"\n<script>alert(1)</script>');
  for (const passed of [3, 6, 8]) run('npx jest', 1, ` FAIL src/sum.test.js\n  ● sum › adds\n\nTests:       ${10 - passed} failed, ${passed} passed, 10 total\n`);
  run('npm run lint', 1, 'error  no-unused-vars');
  run('npm run lint', 0, 'ok');
  data.learnings.push({ id: 'l-1', type: 'decision', text: 'Use pnpm', source: 'user', createdAt: '2026-01-01T10:30:00.000Z' });
  const approach = data.approaches['.::prisma generate'];
  data.reflections.push(buildReflection({ data, approach, threshold: 5, similar: [], id: newId(), now: new Date('2026-01-01T11:00:00.000Z') }));
  return data;
}

const capture = { terminal: true, tasks: true, terminalsWithIntegration: 1, terminals: 1 };

test('the snapshot of real memory is a valid host message, grouped and ordered for the panel', () => {
  const snapshot = buildSnapshot([{ uri: FOLDER, name: 'app', private: false, data: seeded(), threshold: 5 }], capture, {
    highlight: { folder: FOLDER, key: KEY },
    now: new Date('2026-01-01T12:00:00.000Z'),
  });
  assert.ok(isSnapshot(snapshot));
  assert.ok(isHostMessage({ type: 'snapshot', snapshot }));
  assert.ok(isHostMessage(structuredClone({ type: 'snapshot', snapshot })));
  assert.deepEqual(snapshot.exhausted.map(a => a.label), ['prisma generate']);
  assert.equal(snapshot.exhausted[0].failures, 5);
  assert.equal(snapshot.exhausted[0].lastErrorSignature, 'Error: Cannot find module "@prisma/client"');
  assert.deepEqual(snapshot.failing.map(a => a.label), ['jest']);
  // the chart's data: tests passed per attempt, improving
  assert.deepEqual(snapshot.failing[0].tests.map(t => t?.passed), [3, 6, 8]);
  assert.equal(snapshot.failing[0].progress, 'improving');
  assert.deepEqual(snapshot.resolved.map(a => a.label), ['npm run lint']);
  assert.equal(snapshot.reflections.length, 1);
  assert.equal(snapshot.reflections[0].producedBy, 'heuristics');
  assert.ok(snapshot.reflections[0].warnings[0].includes('exhausted'));
  assert.deepEqual(snapshot.learnings.map(l => l.text), ['Use pnpm']);
  assert.deepEqual(snapshot.highlight, { folder: FOLDER, key: KEY });
  assert.equal(snapshot.folders[0].threshold, 5);
});

test('stored reflections that are not ours are skipped, not trusted', () => {
  assert.equal(reflectionView(FOLDER, null), undefined);
  assert.equal(reflectionView(FOLDER, { failure_memory: { id: '<img src=x onerror=alert(1)>', key: KEY } }), undefined);
  const odd = reflectionView(FOLDER, { failure_memory: { id: 'r1', key: KEY, warnings: [1, 'w', { a: 1 }], produced_by: 'evil' }, self_reflection: 'x' });
  assert.ok(odd);
  assert.deepEqual(odd.warnings, ['w']);
  assert.equal(odd.producedBy, 'heuristics');
  assert.equal(odd.reflectionText, '');
});

test('the webview drops host messages it cannot read', () => {
  const snapshot = buildSnapshot([], capture);
  assert.ok(isHostMessage({ type: 'snapshot', snapshot }));
  assert.ok(isHostMessage({ type: 'error', message: 'nope' }));
  assert.ok(isHostMessage({ type: 'recallResults', query: 'q', results: [] }));
  assert.equal(isHostMessage({ type: 'snapshot' }), false);
  assert.equal(isHostMessage({ type: 'snapshot', snapshot: { ...snapshot, exhausted: [{ key: 1 }] } }), false);
  assert.equal(isHostMessage({ type: 'snapshot', snapshot: { ...snapshot, capture: null } }), false);
  assert.equal(isHostMessage({ type: 'recallResults', query: 'q', results: [{ label: 'x' }] }), false);
  assert.equal(isHostMessage({ type: 'error', message: 3 }), false);
  assert.equal(isHostMessage({ type: 'html', html: '<b>x</b>' }), false);
  assert.equal(isHostMessage(JSON.parse('{"type":"error","message":"x","__proto__":{"polluted":1}}')), false);
});

/** The snapshot of seeded() with one part replaced, as the webview would receive it (structured clone). */
function realSnapshot(): Snapshot {
  const snapshot = buildSnapshot([{ uri: FOLDER, name: 'app', private: false, data: seeded(), threshold: 5 }], capture, { now: new Date('2026-01-01T12:00:00.000Z') });
  snapshot.decisions = [{ folder: FOLDER, at: '2026-01-01T11:00:00.000Z', label: 'prisma generate', command: 'npx prisma generate', cwd: '.', decision: 'deny', policy: 'deny', code: 'exhausted', reason: 'failed 5 times', via: 'claude-code' }];
  return structuredClone(snapshot);
}

test('a snapshot the panel model builds passes the schema; each kind of bad part is refused', () => {
  const good = realSnapshot();
  assert.ok(isSnapshot(good));
  assert.ok(good.exhausted.length > 0 && good.failing.length > 0 && good.reflections.length > 0);
  const bad: Array<[string, (s: Snapshot) => unknown]> = [
    ['a status out of the enum', s => ((s.exhausted[0] as { status: string }).status = 'blocked')],
    ['a decision out of the enum', s => ((s.decisions![0] as { decision: string }).decision = 'maybe')],
    ['a producer out of the enum', s => ((s.reflections[0] as { producedBy: string }).producedBy = 'oracle')],
    ['a learning type out of the enum', s => ((s.learnings[0] as { type: string }).type = 'rumour')],
    ['an infinite count', s => (s.exhausted[0].failures = Infinity)],
    ['a NaN count', s => (s.capture.terminals = NaN)],
    ['a NaN test count', s => (s.failing[0].tests[0] = { passed: NaN, failed: 0, total: 1 })],
    ['a number given as a string', s => ((s.folders[0] as { threshold: unknown }).threshold = '5')],
    ['too many approaches', s => (s.resolved = Array.from({ length: 5001 }, () => s.exhausted[0]))],
    ['too many test points', s => (s.failing[0].tests = Array.from({ length: 1001 }, () => null))],
    ['an over-long reason code', s => (s.decisions![0].code = 'x'.repeat(101))],
    ['an over-long via', s => (s.decisions![0].via = 'x'.repeat(101))],
    ['a missing field', s => delete (s.reflections[0] as Partial<Snapshot['reflections'][0]>).rootCause],
    ['a class instance for the capture', s => (s.capture = Object.assign(new (class Capture {})(), s.capture))],
  ];
  for (const [what, spoil] of bad) {
    const s = realSnapshot();
    spoil(s);
    assert.equal(isSnapshot(s), false, `accepted ${what}`);
    assert.equal(isHostMessage({ type: 'snapshot', snapshot: s }), false, `accepted in a message: ${what}`);
  }
  // reserved keys anywhere in the tree, as JSON.parse or structured clone would give them
  const json = JSON.stringify(good);
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    const nested = JSON.parse(json.replace('"label":', `"${key}":{"polluted":1},"label":`)) as unknown;
    assert.equal(isSnapshot(nested), false, `accepted a nested ${key} key`);
    assert.equal(isSnapshot(JSON.parse(`{"${key}":{"polluted":1},${json.slice(1)}`)), false, `accepted a top-level ${key} key`);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('host message limits: recall results, error text, unknown kinds', () => {
  const hit = { folder: FOLDER, key: KEY, label: 'prisma generate', command: 'npx prisma generate', status: 'exhausted', score: 0.9, errorSignature: 'e', errorText: 'e', attempts: 5 };
  assert.ok(isHostMessage({ type: 'recallResults', query: 'q', results: Array.from({ length: 100 }, () => hit) }));
  assert.equal(isHostMessage({ type: 'recallResults', query: 'q', results: Array.from({ length: 101 }, () => hit) }), false);
  assert.equal(isHostMessage({ type: 'recallResults', query: 'q', results: [{ ...hit, score: -Infinity }] }), false);
  assert.ok(isHostMessage({ type: 'error', message: 'x'.repeat(10_000) }));
  assert.equal(isHostMessage({ type: 'error', message: 'x'.repeat(10_001) }), false);
  assert.equal(isHostMessage({ type: 'toString' }), false);
  assert.equal(isHostMessage(new (class Msg { type = 'error'; message = 'x'; })()), false);
});

test('zod runs without eval, as the webview CSP requires', () => {
  // protocol.ts sets it on import; without it zod probes new Function, which the CSP reports
  assert.equal(z.config().jitless, true);
});
