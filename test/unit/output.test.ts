import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundOutput, OutputBuffer, sanitizeText } from '../../src/core/text/output';

test('short output is kept whole', () => {
  const r = boundOutput('hello\nworld\n', 1024);
  assert.deepEqual(r, { text: 'hello\nworld\n', truncated: false, bytes: 12 });
});

test('streaming 50 MB keeps memory bounded and both ends', () => {
  const buf = new OutputBuffer(16 * 1024);
  buf.append('BEGIN\n');
  const chunk = 'line of noisy build output that goes on and on\n'.repeat(1000);
  for (let i = 0; i < 1150; i++) buf.append(chunk);
  buf.append('the real error at the end\n');
  assert.ok(buf.totalBytes > 50 * 1024 * 1024);
  assert.ok(buf.truncated);
  const s = buf.toString();
  assert.ok(s.startsWith('BEGIN\n'));
  assert.ok(s.endsWith('the real error at the end\n'));
  assert.ok(Buffer.byteLength(s) <= 16 * 1024 + 100, String(Buffer.byteLength(s)));
  assert.match(s, /\d+ bytes omitted by Failure Memory/);
});

test('the cut never leaves half a line at the seam', () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `L${i}:` + 'abcdefghij'.repeat(3));
  const s = boundOutput(lines.join('\n'), 4096).text;
  const kept = s.split('\n').filter(l => l && !l.includes('omitted'));
  for (const l of kept) assert.match(l, /^L\d+:(abcdefghij){3}$/, l);
});

test('multi-byte text is never split inside a character', () => {
  const s = boundOutput('é✓𝄞'.repeat(5000), 1000).text;
  assert.ok(!s.includes('\ufffd'));
  assert.ok(Buffer.byteLength(s) <= 1100);
});

test('sanitizeText drops control bytes and normalizes newlines', () => {
  assert.equal(sanitizeText('a\r\nb\rc\u0000d\u0007e\tf\u001b[0m'), 'a\nb\ncde\tf[0m');
});
