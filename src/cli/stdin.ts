// Reading standard input without losing what matters: a failing command's real error is at the
// END of its output, so a bounded read keeps the head and the tail; `redact` streams everything.

import { StringDecoder } from 'node:string_decoder';

/** At most this much of stdin is held for `record` (head and tail halves). */
export const STDIN_KEEP_BYTES = 64 * 1024 * 1024;

const omitted = (bytes: number) => `\n… [${bytes} bytes omitted by Failure Memory] …\n`;

type Input = NodeJS.ReadableStream & { isTTY?: boolean };

/**
 * Reads all of `input`, keeping the first and the last `keep / 2` bytes; the middle is replaced by
 * a marker. Memory stays around `keep` bytes whatever the input's length.
 */
export async function readStdinHeadTail(input: Input, keep = STDIN_KEEP_BYTES): Promise<{ text: string; bytes: number; truncated: boolean }> {
  if (input.isTTY) return { text: '', bytes: 0, truncated: false };
  const half = Math.floor(keep / 2);
  const head: Buffer[] = [];
  let headBytes = 0;
  let tail: Buffer[] = [];
  let tailBytes = 0;
  let total = 0;
  for await (const c of input) {
    let b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    total += b.length;
    if (headBytes < half) {
      const take = Math.min(half - headBytes, b.length);
      head.push(b.subarray(0, take));
      headBytes += take;
      b = b.subarray(take);
      if (!b.length) continue;
    }
    tail.push(b);
    tailBytes += b.length;
    if (tailBytes > half * 2) {
      const joined = Buffer.concat(tail);
      tail = [joined.subarray(joined.length - half)];
      tailBytes = half;
    }
  }
  const tailBuf = Buffer.concat(tail);
  const keptTail = tailBuf.length > half ? tailBuf.subarray(tailBuf.length - half) : tailBuf;
  const dropped = total - headBytes - keptTail.length;
  // decode each side on its own: a UTF-8 sequence cut at the edge becomes U+FFFD, not a crash
  const text = dropped > 0
    ? `${Buffer.concat(head).toString('utf8')}${omitted(dropped)}${keptTail.toString('utf8')}`
    : Buffer.concat([...head, keptTail]).toString('utf8');
  return { text, bytes: total, truncated: dropped > 0 };
}

/** Blocks handed to the redactor: large enough to be fast, small enough to bound memory. */
const BLOCK_CHARS = 4 * 1024 * 1024;

/**
 * Streams `input` through `transform` in blocks cut at line ends, so nothing is dropped however
 * long the input. A block never ends inside a PEM block (`-----BEGIN … -----END`), whose lines a
 * redactor must see together; a single line longer than a block is cut where it must be.
 */
export async function streamLines(input: Input, transform: (text: string) => string, write: (s: string) => void): Promise<void> {
  if (input.isTTY) return;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const c of input) {
    pending += typeof c === 'string' ? c : decoder.write(c as Buffer);
    while (pending.length >= BLOCK_CHARS * 2) {
      const cut = blockEnd(pending);
      write(transform(pending.slice(0, cut)));
      pending = pending.slice(cut);
    }
  }
  pending += decoder.end();
  if (pending) write(transform(pending));
}

/** Where the next block ends: after the last line end within BLOCK_CHARS, never inside a PEM block. */
function blockEnd(text: string): number {
  let cut = text.lastIndexOf('\n', BLOCK_CHARS - 1) + 1;
  if (cut <= 0) cut = BLOCK_CHARS;
  const begin = text.lastIndexOf('-----BEGIN', cut - 1);
  if (begin < 0 || text.lastIndexOf('-----END', cut - 1) > begin) return cut;
  if (begin > 0) return begin;
  // a PEM block longer than a block: end after its END line when it has one
  const end = text.indexOf('-----END', begin);
  const eol = end < 0 ? -1 : text.indexOf('\n', end);
  return eol < 0 ? cut : eol + 1;
}
