// The MCP server's stdio transport under hostile input: an 11 MB message gets an error
// reply (not a silent exit 0), a malformed line gets -32700, and the server keeps serving after both.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const CLI = resolve(__dirname, '../../dist/cli.js');

test('oversized and malformed lines get JSON-RPC errors, and the server still answers afterwards', { timeout: 180_000 }, async () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  const ws = mkdtempSync(join(tmpdir(), 'fm-mcp-'));
  try {
    const child = spawn(process.execPath, [CLI, 'mcp', '--workspace', ws], { stdio: ['pipe', 'pipe', 'pipe'] });
    const replies: Array<Record<string, unknown>> = [];
    let buffered = '';
    let waiting: (() => void) | undefined;
    child.stdout.on('data', d => {
      buffered += String(d);
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        replies.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
        waiting?.();
      }
    });
    const exited = new Promise<number | null>(r => child.on('close', c => r(c)));
    const next = async (): Promise<Record<string, unknown>> => {
      const deadline = Date.now() + 120_000;
      while (!replies.length) {
        if (Date.now() > deadline) throw new Error('no reply');
        await new Promise<void>(r => {
          waiting = r;
          setTimeout(r, 200);
        });
      }
      return replies.shift()!;
    };

    child.stdin.write('this is not json\n');
    const parseError = await next();
    assert.deepEqual(parseError.error && (parseError.error as { code: number }).code, -32700);
    assert.equal(parseError.id, null);

    child.stdin.write('{"hello":"world"}\n');
    assert.equal(((await next()).error as { code: number }).code, -32600);

    const big = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"failure_memory_check","arguments":{"command":"${'a'.repeat(11 * 1024 * 1024)}"}}}\n`;
    child.stdin.write(big);
    const tooBig = await next();
    assert.equal(tooBig.id, 7);
    assert.equal((tooBig.error as { code: number }).code, -32600);
    assert.match((tooBig.error as { message: string }).message, /limit/);

    // still serving
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    const init = await next();
    assert.equal(init.id, 8);
    assert.ok(init.result, JSON.stringify(init));
    child.stdin.end();
    assert.equal(await exited, 0);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

/** Runs `failure-memory mcp`, writes `input` at once and closes stdin; the replies, by id. */
async function oneShot(ws: string, input: string): Promise<Map<unknown, Record<string, unknown>>> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--workspace', ws], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', d => (out += String(d)));
  const exited = new Promise<number | null>(r => child.on('close', c => r(c)));
  child.stdin.end(input);
  assert.equal(await exited, 0);
  return new Map(out.split('\n').filter(Boolean).map(l => JSON.parse(l) as Record<string, unknown>).map(m => [m.id, m]));
}

test('calls still running when stdin closes are answered before the server exits (with or without a last newline)', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  const ws = mkdtempSync(join(tmpdir(), 'fm-mcp-eof-'));
  try {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const ready = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const record = (id: number) => call(id, 'failure_memory_record', { command: 'npm test', exitCode: 1, output: 'Error: boom' });
    const replies = await oneShot(ws, [init, ready, record(2), record(3), call(4, 'failure_memory_check', { command: 'npm test' })].join('\n') + '\n');
    for (const id of [1, 2, 3, 4]) assert.ok(replies.get(id)?.result, `reply to ${id}: ${JSON.stringify(replies.get(id))}`);
    // the last line has no newline: it is still a call, and it is answered
    const last = await oneShot(ws, [init, ready, record(5)].join('\n'));
    assert.ok(last.get(5)?.result, `reply to the unterminated last line: ${JSON.stringify([...last.values()])}`);
    const mem = JSON.parse(readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8'));
    assert.equal(mem.approaches['.::npm test'].failures, 3);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
