import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addLearnings, extractLearnings } from '../../src/core/learnings';
import type { Learning } from '../../src/core/types';

test('LEARNING[type]: lines are extracted from any text', () => {
  const text = [
    'Reviewing the run…',
    'LEARNING[pattern]: All database operations use connection pooling',
    '  - LEARNING[decision]: Using JWT tokens with 24h expiry for sessions  ',
    '> LEARNING[failed_approach]: Attempted websockets but had CORS issues',
    'LEARNING[code_location]: User authentication logic in src/auth/handler.py',
    'LEARNING[learning]: prisma generate needs @prisma/client installed first',
    'LEARNING[bogus]: unknown type is skipped',
    'LEARNING[pattern]:    ',
    'not a LEARNING[pattern]: mid-line mention',
  ].join('\n');
  assert.deepEqual(extractLearnings(text), [
    { type: 'pattern', text: 'All database operations use connection pooling' },
    { type: 'decision', text: 'Using JWT tokens with 24h expiry for sessions' },
    { type: 'failed_approach', text: 'Attempted websockets but had CORS issues' },
    { type: 'code_location', text: 'User authentication logic in src/auth/handler.py' },
    { type: 'learning', text: 'prisma generate needs @prisma/client installed first' },
  ]);
});

test('duplicates are not added twice', () => {
  const store: Learning[] = [];
  let n = 0;
  const meta = { source: 'output' as const, now: '2026-01-01T00:00:00Z', newId: () => String(++n) };
  addLearnings(store, extractLearnings('LEARNING[pattern]: a\nLEARNING[pattern]: a'), meta);
  addLearnings(store, extractLearnings('LEARNING[pattern]: a\nLEARNING[decision]: b'), { ...meta, key: '.::x' });
  assert.deepEqual(store.map(l => [l.type, l.text, l.key]), [['pattern', 'a', undefined], ['decision', 'b', '.::x']]);
});

test('a megabyte of text without the marker finds nothing', () => {
  assert.deepEqual(extractLearnings('x'.repeat(1_000_000)), []);
});
