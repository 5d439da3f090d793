// The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout. Replaces the SDK's
// StdioServerTransport because that one closes the whole server, silently (exit 0, no reply), when
// one message is over 10 MB, and answers nothing to a line that is not JSON. Here every bad line
// gets a JSON-RPC error reply and the server keeps serving:
//   - not JSON: -32700 Parse error
//   - JSON but not a JSON-RPC message: -32600 Invalid Request
//   - longer than maxLineBytes: -32600, with the request id when it can be read from the line's start;
//     the line is skipped without ever being held in memory.
// At the end of input the last line is read even without its newline, and the requests still being
// answered are answered before the server closes (idle()): a client that writes a call and closes
// stdin gets its reply.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const MAX_LINE_BYTES = 10 * 1024 * 1024;

type Id = string | number | null;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Skipping the rest of an oversized line: its first bytes (to read its id) and its size so far. */
  private skipping: { head: string; bytes: number } | undefined;
  private closed = false;
  /** Ids of requests read and not yet answered. */
  private readonly inFlight = new Set<string | number>();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (buf.length) {
      const nl = buf.indexOf(0x0a);
      const part = nl < 0 ? buf : buf.subarray(0, nl);
      if (this.skipping) this.skipping.bytes += part.length;
      else if (this.size + part.length > this.maxLineBytes) {
        const head = Buffer.concat([...this.chunks, part]).subarray(0, 256).toString('utf8');
        this.skipping = { head, bytes: this.size + part.length };
        this.chunks = [];
        this.size = 0;
      } else {
        this.chunks.push(part);
        this.size += part.length;
      }
      if (nl < 0) break;
      this.endLine();
      buf = buf.subarray(nl + 1);
    }
  };

  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** End of input: the last line counts even without a newline. */
  private readonly onEnd = (): void => {
    if (this.size || this.skipping) this.endLine();
  };

  /** Resolves once every request read so far has been answered (at once when none is waiting). */
  idle(): Promise<void> {
    if (!this.inFlight.size || this.closed) return Promise.resolve();
    return new Promise(resolve => this.idleWaiters.push(resolve));
  }

  private settle(id: string | number): void {
    if (!this.inFlight.delete(id) || this.inFlight.size) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      this.replyError(idFrom(head), -32600, `Invalid Request: the message is ${bytes} bytes, over the ${this.maxLineBytes}-byte limit of this server`);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.replyError(null, -32700, 'Parse error: the line is not valid JSON');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      this.replyError(idOf(parsed), -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    const m = message.data as { id?: string | number; method?: string };
    if (m.method !== undefined && m.id !== undefined && m.id !== null) this.inFlight.add(m.id);
    this.onmessage?.(message.data);
  }

  private replyError(id: Id, code: number, message: string): void {
    if (this.closed) return;
    this.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    this.stdin.on('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string };
    return new Promise<void>(resolve => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    }).then(() => {
      if (m.method === undefined && m.id !== undefined && m.id !== null) this.settle(m.id);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.off('end', this.onEnd);
    this.inFlight.clear();
    for (const w of this.idleWaiters.splice(0)) w();
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }
}

function idOf(v: unknown): Id {
  if (v && typeof v === 'object' && 'id' in v) {
    const id = (v as { id: unknown }).id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  }
  return null;
}

/** The request id from the first bytes of an oversized line, when it is there. */
function idFrom(head: string): Id {
  const m = /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,128}")/.exec(head);
  if (!m) return null;
  return m[1].startsWith('"') ? m[1].slice(1, -1) : Number(m[1]);
}
