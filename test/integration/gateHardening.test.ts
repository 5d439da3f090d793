// The smaller holes of hardening round two: the five secret shapes that were stored as they are
// (on every surface that keeps or hands over text), and `record --cwd` outside the workspace,
// refused as the MCP server refuses it. (The MCP reply at the end of input: mcpTransport.test.ts.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { readMemoryFull, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { directAccess, runTool } from '../../src/agents/tools';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { main, toWorkspaceRelative } from '../../src/cli/main';
import { redact } from '../../src/core/text/redact';
import { rep } from '../support/secrets';
import { tempFolders } from '../support/tempFolders';

const CLI = resolve(__dirname, '../../dist/cli.js');
const temp = tempFolders('fm-gate-hardening-');

// assembled from pieces so that secret scanners do not flag this file
const SECRET = {
  xml: 'hunter2' + 'Xml!9',
  google: 'ya29' + '.' + 'a0AfH6SM' + rep('Bx9_kQ-', 12),
  telegram: '1234567' + '89:' + 'AAH' + rep('dQ9_x-Zk', 4) + 'w',
  escaped: 'Esc4ped' + 'Pw!',
  nextLine: 'n3xt' + 'L1ne' + 'Pw',
};
/** The five shapes, as a failing command prints them. */
const OUTPUT = [
  `<settings><servers><server><id>repo</id><username>ci</username><password>${SECRET.xml}</password></server></servers></settings>`,
  `curl -H "X-Goog-Token: ${SECRET.google}" https://storage.googleapis.com/b`,
  `POST https://api.telegram.org/bot${SECRET.telegram}/sendMessage failed: 502`,
  `config: {"user": "ci", "pass\\u0077ord": "${SECRET.escaped}"}`,
  'Username: ci',
  'Password:',
  SECRET.nextLine,
  'Error: Login failed',
].join('\n');

const leaks = (text: string) => Object.entries(SECRET).filter(([, v]) => text.includes(v)).map(([k]) => k);

describe('the five secret shapes are redacted', () => {
  test('each shape alone, with its kind', () => {
    assert.equal(redact(`<password>${SECRET.xml}</password>`), '<password>[REDACTED:password]</password>');
    assert.equal(redact(`<db:Password type="x">${SECRET.xml}</db:Password>`), '<db:Password type="x">[REDACTED:password]</db:Password>');
    assert.equal(redact(`token ${SECRET.google} end`), 'token [REDACTED:google-oauth-token] end');
    assert.equal(redact(`https://api.telegram.org/bot${SECRET.telegram}/getMe`), 'https://api.telegram.org/bot[REDACTED:telegram-token]/getMe');
    assert.equal(redact(`{"pass\\u0077ord": "${SECRET.escaped}"}`), '{"pass\\u0077ord": "[REDACTED:password]"}');
    assert.equal(redact(`{\\"\\u0070assword\\":\\"${SECRET.escaped}\\"}`), '{\\"\\u0070assword\\":\\"[REDACTED:password]\\"}');
    assert.equal(redact(`Password:\n${SECRET.nextLine}\nok`), 'Password:\n[REDACTED:password]\nok');
    assert.equal(redact(`Enter passphrase:\r\n  ${SECRET.nextLine}\r\n`), 'Enter passphrase:\r\n  [REDACTED:password]\r\n');
  });

  test('what only looks like them stays', () => {
    for (const keep of ['<id>repo</id><name>password reset</name>', 'Password:\nThe password is too short', 'at 10:30:00 build 1234567:done', '<token>${TOKEN}</token>', 'password:\n', 'ya29 is a prefix']) {
      assert.equal(redact(keep), keep);
    }
  });

  test('on every surface: memory.json, export, brief, recall vectors, the hook post, MCP answers and the team outbox', async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built');
    const ws = realpathSync(temp());
    assert.equal(spawnSync('git', ['init', '-q'], { cwd: ws }).status, 0);
    spawnSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/shapes.git'], { cwd: ws });
    // team memory on, its database unreachable: records wait in the outbox
    const env = { ...process.env, FAILURE_MEMORY_DATABASE_URL: 'postgres://fm@127.0.0.1:9/fm' };
    const cli = (args: string[], input = '') => spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { cwd: ws, env, input, encoding: 'utf8' });
    for (let i = 0; i < 2; i++) assert.equal(cli(['record', '--command', `mvn deploy -Dtoken=${SECRET.google}`, '--exit-code', '1'], OUTPUT).status, 0);
    await recordHookResult({ workspace: ws, command: `TELEGRAM=${SECRET.telegram} ./notify.sh`, cwd: '.', exitCode: 1, output: OUTPUT });
    const mcp = await runTool('failure_memory_record', directAccess(new WorkspaceMemory(ws, { git: false })), { command: 'docker login registry', exitCode: 1, output: OUTPUT });
    const exported = cli(['export']);
    const brief = cli(['brief']);
    const recall = cli(['recall', '--query', 'Login failed']);
    const pre = await runHook('claude', 'pre', JSON.stringify({ cwd: ws, tool_name: 'Bash', tool_input: { command: `mvn deploy -Dtoken=${SECRET.google}` } }), { record: recordHookResult, readFull: readMemoryFull, env: {} });
    const surfaces: Record<string, string> = { mcp: mcp.text + JSON.stringify(mcp.json), export: exported.stdout, brief: brief.stdout, recall: recall.stdout, 'pre hook': pre.stdout + pre.stderr };
    const dir = join(ws, '.vscode', 'failure-memory');
    for (const f of readdirSync(dir)) if (statSync(join(dir, f)).isFile()) surfaces[f] = readFileSync(join(dir, f), 'latin1');
    assert.ok('memory.json' in surfaces && 'team-outbox.jsonl' in surfaces, Object.keys(surfaces).join(', '));
    for (const [where, text] of Object.entries(surfaces)) assert.deepEqual(leaks(text), [], `${where} keeps no secret`);
    assert.match(surfaces['memory.json'], /\[REDACTED:telegram-token\]/);
  });
});

describe('record --cwd outside the workspace is refused, as MCP refuses it', () => {
  test('absolute outside, relative climbing out: a usage error; inside: stored relative', async () => {
    const ws = realpathSync(temp());
    mkdirSync(join(ws, 'api'));
    for (const cwd of ['/etc', '../..', '..', 'api/../../x']) {
      let err = '';
      const code = await main(['record', '--workspace', ws, '--command', 'make', '--exit-code', '2', '--no-stdin', '--cwd', cwd], { out: () => undefined, err: s => (err += s) });
      assert.equal(code, 1, cwd);
      assert.match(err, new RegExp(`--cwd ${cwd.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is outside the workspace folder`));
    }
    assert.equal(existsSync(join(ws, '.vscode')), false, 'nothing stored');
    for (const [cwd, rel] of [['api', 'api'], [join(ws, 'api'), 'api'], ['./api/', 'api'], [ws, '.'], ['api/..', '.']]) {
      assert.equal(toWorkspaceRelative(ws, cwd), rel, cwd);
    }
    const code = await main(['record', '--workspace', ws, '--command', 'make', '--exit-code', '2', '--no-stdin', '--cwd', join(ws, 'api')], { out: () => undefined, err: () => undefined });
    assert.equal(code, 0);
    assert.ok((await readMemoryFull(ws)).approaches['api::make']);
  });
});
