// User redaction patterns are bounded: compiled in RE2 (linear time) or refused with a reason, a size
// budget per pattern, a time budget per pattern and per redaction; text a pattern had no time to
// scan is never kept, and the reason is logged. The clock is driven by the test (no timed assertion;
// a pattern that really runs over its budget in a record: test/integration/realTime.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileRedactionPattern, createRedactor, RedactionPatternError, validatePatterns } from '../../src/core/text/redact';
import { MAX_PATTERN_CHARS, MAX_PATTERNS, PATTERN_BUDGET_MS, RECORD_BUDGET_MS } from '../../src/core/text/userPatterns';

/** A clock that moves `step` ms each time it is read. */
const ticking = (step: number) => {
  let t = 0;
  return () => (t += step);
};

test('compileRedactionPattern: the one validation, with a reason for each refusal', () => {
  assert.equal(compileRedactionPattern('mycorp-[0-9a-f]{8}').ok, true);
  assert.equal(compileRedactionPattern('/MyCorp-[0-9a-f]{8}/i').ok, true);
  const reasons = ['(?=x)', '(a)\\1', '', 'a*', 'x'.repeat(MAX_PATTERN_CHARS + 1), '[a-z]{1000}x{1000}y{500}', 42].map(p => {
    const r = compileRedactionPattern(p);
    assert.equal(r.ok, false, String(p).slice(0, 40));
    return r.ok ? '' : r.reason;
  });
  assert.match(reasons[0], /linear-time engine \(RE2 syntax: no backreferences, no lookahead\)/);
  assert.match(reasons[1], /linear-time engine/);
  assert.equal(reasons[2], 'empty pattern');
  assert.equal(reasons[3], 'it matches the empty string');
  assert.equal(reasons[4], `longer than ${MAX_PATTERN_CHARS} characters`);
  assert.match(reasons[5], /^too complex \(\d+ instructions compiled, at most 2000\)/);
  assert.equal(reasons[6], 'empty pattern');
  const many = Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `tok${i}-[0-9]+`);
  assert.equal(validatePatterns(many).valid.length, MAX_PATTERNS);
  assert.match(validatePatterns(many).errors[0], /more than 50 patterns/);
  assert.throws(() => createRedactor(many), RedactionPatternError);
});

test('(.*a){100} over 2 MB: cut at the time budget, the rest not kept, the reason told', () => {
  const text = 'abcdefgh '.repeat(Math.ceil((2 * 1024 * 1024) / 9));
  const reasons: string[] = [];
  // every clock read moves 300 ms: the pattern's budget runs out after a few windows
  const r = createRedactor(['(.*a){100}'], { now: ticking(300), onOverBudget: m => reasons.push(m) });
  const out = r.redact(text);
  assert.ok(out.text.length < 64 * 1024, `${out.text.length} characters kept`);
  assert.match(out.text, /\[REDACTED:custom\] \(\d+ characters not kept: redaction pattern "\(\.\*a\)\{100\}" ran over its time budget \(1000 ms\)\)$/);
  assert.equal(reasons.length, 1);
  assert.match(reasons[0], /^redaction pattern "\(\.\*a\)\{100\}" ran over its time budget \(1000 ms\): the last \d+ of \d+ characters were not kept$/);
  assert.ok(out.kinds.includes('custom'));
  assert.equal(PATTERN_BUDGET_MS < RECORD_BUDGET_MS, true);
});

test('several patterns share the record budget', () => {
  const text = 'line of output\n'.repeat(40_000);
  const reasons: string[] = [];
  const r = createRedactor(['zz[0-9]+', 'qq[0-9]+', 'ww[0-9]+'], { now: ticking(30), onOverBudget: m => reasons.push(m) });
  const out = r.redact(text);
  assert.match(out.text, /characters not kept: the redaction patterns ran over their time budget \(2000 ms\)\)$/);
  assert.match(reasons[0], /^the redaction patterns ran over their time budget/);
});

test('within budget, every match is redacted, across window cuts, and the rest is kept byte for byte', () => {
  const secret = (i: number) => `mycorp-${(0xdead0000 + i).toString(16)}`;
  // matches sit everywhere, one across each 8 KB window cut (one long line, no newline to cut at)
  let text = '';
  let n = 0;
  while (text.length < 200_000) {
    text += 'x'.repeat(8192 - 7 - (text.length % 8192)) + secret(n++);
  }
  const r = createRedactor(['mycorp-[0-9a-f]{8}'], { now: ticking(0) });
  const out = r.redact(text);
  assert.equal(out.count, n);
  assert.doesNotMatch(out.text, /mycorp-/);
  assert.equal(out.text, text.replace(/mycorp-[0-9a-f]{8}/g, '[REDACTED:custom]'));
  const plain = 'no secrets here\n'.repeat(20_000);
  assert.equal(r.redact(plain).text, plain);
  // a match that spans lines (the s flag) is found across a window cut too
  const multi = `${'y\n'.repeat(4090)}BEGIN-X\nsecret\nEND-X${'\nz'.repeat(5000)}`;
  assert.equal(createRedactor(['/BEGIN-X.*?END-X/s']).redact(multi).text, multi.replace(/BEGIN-X[^]*?END-X/, '[REDACTED:custom]'));
});
