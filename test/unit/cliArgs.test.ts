// The CLI's contract with people and hooks: strict options, clear messages, nothing dropped from stdin.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { main, parseArgs } from '../../src/cli/main';
import { parseExitCode } from '../../src/cli/commands/record';
import { readStdinHeadTail, streamLines } from '../../src/cli/stdin';
import { createRedactor } from '../../src/core/text/redact';
import { tempDir } from '../support/tempFolders';

async function run(argv: string[], stdin?: Readable) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: s => void (out += s), err: s => void (err += s), stdin });
  return { code, out, err };
}

describe('CLI arguments', () => {
  test('an unknown or misspelt option is an error with a suggestion, never silently dropped', async () => {
    const ws = tempDir('fm-args-');
    const r = await run(['record', '--command', 'npm test', '--exit-code', '1', '--treshold', '1', '--workspace', ws]);
    assert.equal(r.code, 1);
    assert.match(r.err, /unknown option --treshold for record \(did you mean --threshold\?\)/);
    const j = await run(['check', '--command', 'npm test', '--jsn', '--workspace', ws]);
    assert.equal(j.code, 1);
    assert.match(j.err, /unknown option --jsn .*did you mean --json/);
    const w = await run(['list', '--worksapce', ws]);
    assert.match(w.err, /did you mean --workspace/);
  });

  test('an option of another subcommand is refused', () => {
    assert.throws(() => parseArgs(['list', '--command', 'x']), /unknown option --command for list/);
    assert.throws(() => parseArgs(['recrod']), /unknown command: recrod \(did you mean record\?\)/);
    assert.throws(() => parseArgs(['check', 'npm', 'test']), /unexpected argument: npm/);
  });

  test('a missing --workspace folder is refused, not created', async () => {
    const missing = join(tempDir('fm-args-'), 'nope');
    const r = await run(['record', '--command', 'npm test', '--exit-code', '1', '--workspace', missing], Readable.from([]));
    assert.equal(r.code, 1);
    assert.match(r.err, /workspace folder .*nope does not exist/);
  });

  test('blank values get a message, not a stack trace', async () => {
    const ws = tempDir('fm-args-');
    const l = await run(['learn', '--type', 'learning', '--text', '   ', '--workspace', ws]);
    assert.equal(l.code, 1);
    assert.match(l.err, /--text is empty/);
    assert.doesNotMatch(l.err, /at .*\.ts:\d+/);
    const c = await run(['record', '--command', ' \t ', '--exit-code', '1', '--workspace', ws], Readable.from([]));
    assert.equal(c.code, 1);
    assert.match(c.err, /--command is empty/);
  });

  test('exit codes: 0–255 and 32-bit Windows codes; signals written as negatives get a hint; junk is refused', () => {
    assert.equal(parseExitCode('0'), 0);
    assert.equal(parseExitCode('137'), 137);
    assert.equal(parseExitCode('unknown'), null);
    assert.equal(parseExitCode('3221225786'), 3221225786);
    assert.equal(parseExitCode('-1073741510'), -1073741510);
    assert.throws(() => parseExitCode('-1'), /killed by signal 1.*pass 129/);
    assert.throws(() => parseExitCode('1e23'), /whole number/);
    assert.throws(() => parseExitCode('99999999999'), /32-bit/);
  });

  test('--version and --help answer without a workspace', async () => {
    assert.match((await run(['--version'])).out, /^\d+\.\d+\.\d+\n$/);
    const h = await run(['check', '--help']);
    assert.equal(h.code, 0);
    assert.match(h.out, /check --command CMD/);
  });
});

describe('CLI standard input', () => {
  test('record keeps the head and the tail of an input larger than it holds: the last error survives', async () => {
    const head = 'starting build\n';
    const filler = 'x'.repeat(1000) + '\n';
    const chunks = [head, ...Array.from({ length: 300 }, () => filler), 'Error: the real last error\n'];
    const r = await readStdinHeadTail(Readable.from(chunks.map(c => Buffer.from(c))), 64 * 1024);
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, chunks.reduce((n, c) => n + c.length, 0));
    assert.ok(r.text.startsWith('starting build'));
    assert.ok(r.text.endsWith('Error: the real last error\n'));
    assert.match(r.text, /bytes omitted by Failure Memory/);
    assert.ok(r.text.length < 70 * 1024);
  });

  test('record keeps a small input whole', async () => {
    const r = await readStdinHeadTail(Readable.from([Buffer.from('a\n'), Buffer.from('b\n')]), 64 * 1024);
    assert.deepEqual(r, { text: 'a\nb\n', bytes: 4, truncated: false });
  });

  test('redact streams input larger than any buffer, drops nothing, and sees a PEM block whole across a block edge', async () => {
    const redactor = createRedactor();
    const line = 'ordinary log line with nothing secret in it at all\n';
    const pem = '-----BEGIN RSA PRIVATE KEY-----\n' + 'MIIEpAIBAAKCAQEA7bq98ZAbcdefghijklmnopqrstuvwx\n'.repeat(20) + '-----END RSA PRIVATE KEY-----\n';
    // ~12 MB: past the 8 MB at which blocks are cut, with the key straddling the first cut
    const before = line.repeat(Math.floor((4 * 1024 * 1024 - 500) / line.length));
    const input = before + pem + line.repeat(160_000) + 'token=ghp_' + 'a1B2'.repeat(9) + '\n';
    const parts: string[] = [];
    const chunks = [];
    for (let i = 0; i < input.length; i += 65536) chunks.push(Buffer.from(input.slice(i, i + 65536)));
    await streamLines(Readable.from(chunks), t => redactor.redact(t).text, s => void parts.push(s));
    const out = parts.join('');
    assert.ok(parts.length > 1, 'written in several blocks');
    assert.doesNotMatch(out, /MIIEpAIBAAKCAQEA/);
    assert.doesNotMatch(out, /ghp_a1B2/);
    assert.equal(out.split('\n').filter(l => l === line.trimEnd()).length, before.split('\n').length - 1 + 160_000);
  });
});
