// Bounded output: keep the head and the tail of a command's output, drop the middle.
// Used while streaming (the host reads a terminal that may print 50 MB) and before storing.

import { CONTROLS_IN_TEXT_G } from './controls';

const OMITTED = (bytes: number) => `\n… [${bytes} bytes omitted by Failure Memory] …\n`;

/**
 * Streams text in and keeps at most `maxBytes` of it: the first half and the last half.
 * Memory use stays around 2 × maxBytes whatever the stream's length.
 */
export class OutputBuffer {
  private head = '';
  private headBytes = 0;
  private headFull = false;
  private tailChunks: string[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes seen so far (not only kept). */
  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  append(chunk: string): void {
    if (!chunk) return;
    const bytes = Buffer.byteLength(chunk, 'utf8');
    this.total += bytes;
    const headLimit = Math.floor(this.maxBytes / 2);
    if (!this.headFull) {
      if (this.headBytes + bytes <= headLimit) {
        this.head += chunk;
        this.headBytes += bytes;
        return;
      }
      const room = headLimit - this.headBytes;
      const cut = sliceBytes(chunk, room);
      this.head += cut;
      this.headBytes += Buffer.byteLength(cut, 'utf8');
      this.headFull = true;
      chunk = chunk.slice(cut.length);
    }
    this.tailChunks.push(chunk);
    this.tailBytes += Buffer.byteLength(chunk, 'utf8');
    const tailLimit = this.maxBytes - headLimit;
    // compact rarely: only when the tail holds twice its budget
    if (this.tailBytes > tailLimit * 2) this.compactTail(tailLimit);
  }

  private compactTail(limit: number): void {
    const joined = this.tailChunks.join('');
    const kept = lastBytes(joined, limit);
    this.tailChunks = [kept];
    this.tailBytes = Buffer.byteLength(kept, 'utf8');
  }

  /** The kept text; when the middle was dropped, partial lines at the cut are dropped too. */
  toString(): string {
    const tailLimit = this.maxBytes - Math.floor(this.maxBytes / 2);
    if (!this.truncated) return this.head + this.tailChunks.join('');
    this.compactTail(tailLimit);
    let head = this.head;
    let tail = this.tailChunks.join('');
    // cut at line boundaries so no half line (a half secret, a half word) survives at the seam; in
    // one long line, at a blank; with no blank at all, the cut word goes entirely: half a token is
    // too short for the redactor to recognise, and would be stored as it is
    head = head.slice(0, cutPointBefore(head));
    tail = tail.slice(cutPointAfter(tail));
    const kept = Buffer.byteLength(head, 'utf8') + Buffer.byteLength(tail, 'utf8');
    return head + OMITTED(this.total - kept) + tail;
  }
}

/** Where to end a head cut mid-stream: after its last newline, else after its last blank, else 0. */
function cutPointBefore(head: string): number {
  const nl = head.lastIndexOf('\n');
  if (nl >= 0) return nl + 1;
  for (let i = head.length - 1; i >= 0; i--) if (head[i] === ' ' || head[i] === '\t') return i + 1;
  return 0;
}

/** Where to start a tail cut mid-stream: after its first newline, else after its first blank, else its end. */
function cutPointAfter(tail: string): number {
  const nl = tail.indexOf('\n');
  if (nl >= 0) return nl + 1;
  for (let i = 0; i < tail.length; i++) if (tail[i] === ' ' || tail[i] === '\t') return i + 1;
  return tail.length;
}

/** Bounds a whole string at once (head and tail). */
export function boundOutput(text: string, maxBytes: number): { text: string; truncated: boolean; bytes: number } {
  const buf = new OutputBuffer(Math.max(64, maxBytes));
  buf.append(text);
  return { text: buf.toString(), truncated: buf.truncated, bytes: buf.totalBytes };
}

/** The longest prefix of `s` that fits in `bytes` UTF-8 bytes. */
function sliceBytes(s: string, bytes: number): string {
  if (bytes <= 0) return '';
  if (s.length * 3 <= bytes) return s;
  let end = Math.min(s.length, bytes);
  while (end > 0 && Buffer.byteLength(s.slice(0, end), 'utf8') > bytes) end = Math.floor(end * 0.9);
  // do not split a surrogate pair
  if (end > 0 && end < s.length && isHighSurrogate(s.charCodeAt(end - 1))) end--;
  return s.slice(0, end);
}

/** The longest suffix of `s` that fits in `bytes` UTF-8 bytes. */
function lastBytes(s: string, bytes: number): string {
  if (Buffer.byteLength(s, 'utf8') <= bytes) return s;
  let start = Math.max(0, s.length - bytes);
  while (start < s.length && Buffer.byteLength(s.slice(start), 'utf8') > bytes) start += Math.max(1, Math.floor((s.length - start) * 0.1));
  if (start < s.length && isLowSurrogate(s.charCodeAt(start))) start++;
  return s.slice(start);
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Makes untrusted terminal bytes safe to store and show as text: drops NULs and other control
 * characters (keeps tab and newline) and normalizes line endings. Never interprets anything.
 */
export function sanitizeText(text: string): string {
   
  return text.replace(/\r\n?/g, '\n').replace(CONTROLS_IN_TEXT_G, '');
}
