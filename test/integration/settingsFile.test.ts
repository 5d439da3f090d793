// One settings reader for every door: .vscode/settings.json (JSONC) read with jsonc-parser and
// validated with the schema the extension uses. A bad value is reported and its default used; it
// never turns the gate off (check still exits 2 on an exhausted approach), never stops recording.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadWorkspaceSettings } from '../../src/app/settings';
import { readConfig, SECTION } from '../../src/core/config';
import { lookupSetting, parseSettingsText } from '../../src/store/workspaceSettings';
import { tempFolders } from '../support/tempFolders';

const CLI = resolve(__dirname, '../../dist/cli.js');
const HOOK = resolve(__dirname, '../../dist/hook.js');
const temp = tempFolders('fm-settings-');
const NO_TEAM_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG') && !k.startsWith('FAILURE_MEMORY')));

function workspace(settingsText: string): string {
  const ws = temp();
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'settings.json'), settingsText);
  return ws;
}

function cli(ws: string, args: string[], input = '', env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8', env: { ...NO_TEAM_ENV, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function failFiveTimes(ws: string, command = 'npm test', output = 'Error: boom\n'): string[] {
  const stderr: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = cli(ws, ['record', '--command', command, '--exit-code', '1'], output);
    assert.equal(r.code, 0, r.stderr);
    stderr.push(r.stderr);
  }
  return stderr;
}

/** Memory as every reader sees it: memory.json with the runs `record` and the hooks journaled beside it. */
const stored = (ws: string) => JSON.parse(cli(ws, ['export']).stdout);

before(() => {
  assert.ok(existsSync(CLI) && existsSync(HOOK), 'dist/cli.js and dist/hook.js are built (npm run build)');
});

describe('the settings file is JSONC, read as VS Code reads it', () => {
  test('text inside strings is never edited (a ",}" in a redaction pattern stays), comments and trailing commas are fine', () => {
    const ws = workspace('{\n  // the ticket ids of our tracker are secret\n  "failureMemory.redaction.extraPatterns": ["ACME-[0-9]+,}"], /* block */\n  "failureMemory.threshold": 3,\n}\n');
    assert.deepEqual(loadWorkspaceSettings(ws, {}).config['redaction.extraPatterns'], ['ACME-[0-9]+,}']);
    const r = cli(ws, ['record', '--command', 'make deploy', '--exit-code', '1', '--json'], 'Error: release ACME-4711,} refused\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(JSON.parse(r.stdout).output, /release \[REDACTED:custom\] refused/);
    assert.ok(!readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8').includes('ACME-4711'));
  });

  test('flat or nested keys; own properties only', () => {
    const obj = JSON.parse('{"failureMemory.team.enabled": true, "failureMemory": {"threshold": 7, "team": {"project": "p"}, "redaction.extraPatterns": ["x+"]}, "__proto__": {"x": 1}}');
    assert.equal(lookupSetting(obj, [SECTION, 'team', 'enabled']), true);
    assert.equal(lookupSetting(obj, [SECTION, 'threshold']), 7);
    assert.equal(lookupSetting(obj, [SECTION, 'team', 'project']), 'p');
    assert.deepEqual(lookupSetting(obj, [SECTION, 'redaction', 'extraPatterns']), ['x+']);
    assert.equal(lookupSetting({}, ['constructor']), undefined);
    assert.equal(lookupSetting({}, ['toString']), undefined);
  });

  test('a syntax error is reported with its place; the values around it are used', () => {
    const f = parseSettingsText('{\n  "failureMemory.threshold": 2,\n  "failureMemory.storeOutput": tru,\n}');
    assert.equal(f.problems.length, 1);
    assert.match(f.problems[0], /line 3, column \d+/);
    assert.equal(f.get('threshold'), 2);
    const ws = workspace('{ "failureMemory.threshold": 2, "broken": [ }');
    for (let i = 0; i < 2; i++) assert.equal(cli(ws, ['record', '--command', 'make', '--exit-code', '1'], 'Error: x\n').code, 0);
    const c = cli(ws, ['check', '--command', 'make']);
    assert.equal(c.code, 2, 'the threshold of 2 read around the error');
    assert.match(c.stderr, /warning: \.vscode\/settings\.json: \w+ at line 1/);
  });
});

describe('one schema, one set of limits for every door', () => {
  test('maxOutputBytes is 1 KiB–1 MiB in the CLI as in the extension: 300 or 16 MiB is reported and the default used', () => {
    const ext = readConfig(k => ({ maxOutputBytes: 300 })[k as 'maxOutputBytes']);
    for (const value of [300, 16 * 1024 * 1024]) {
      const ws = workspace(JSON.stringify({ 'failureMemory.maxOutputBytes': value }));
      const s = loadWorkspaceSettings(ws, {});
      assert.equal(s.engine.maxOutputBytes, 16384);
      assert.equal(s.config.maxOutputBytes, ext.config.maxOutputBytes);
      assert.match(s.problems.join('\n'), /failureMemory\.maxOutputBytes must be a number from 1024 to 1048576/);
      const r = cli(ws, ['record', '--command', 'make', '--exit-code', '1', '--json'], `${'x'.repeat(2000)}\nError: y\n`);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(JSON.parse(r.stdout).output.length > 2000, 'the default bound (16 KiB), not 300 bytes');
      assert.equal(r.stderr.match(/maxOutputBytes/g)?.length, 1, 'reported once');
    }
  });

  test('a wrong type is reported with the value, and the default used', () => {
    const s = loadWorkspaceSettings(workspace('{"failureMemory.threshold": "3", "failureMemory.storeOutput": "no", "failureMemory.blockMode": "[x](command:evil)"}'), {});
    assert.equal(s.engine.threshold, 5);
    assert.equal(s.engine.storeOutput, true);
    assert.equal(s.config.blockMode, 'interrupt');
    assert.equal(s.problems.length, 3, s.problems.join('\n'));
    assert.match(s.problems.join('\n'), /failureMemory\.threshold must be a number from 1 to 1000, not "3"; using 5/);
  });
});

describe('a bad setting never turns the gate off', () => {
  for (const enabled of [false, true]) {
    test(`a team database URL with a broken %-escape (team ${enabled ? 'on' : 'off'}): record, list, check (exit 2) and mcp keep working`, async () => {
      const ws = workspace(JSON.stringify({ 'failureMemory.team.enabled': enabled, 'failureMemory.team.databaseUrl': 'postgres://%zz@h/db' }));
      const warnings = failFiveTimes(ws);
      assert.match(warnings[0], /failureMemory\.team\.databaseUrl is not a postgres:\/\/ or postgresql:\/\/ URL \(a % not followed by two hex digits\); team memory stays off/);
      assert.equal(cli(ws, ['list']).code, 0);
      const c = cli(ws, ['check', '--command', 'npm test']);
      assert.equal(c.code, 2, c.stderr);
      assert.doesNotMatch(c.stderr, /URIError|at .*\.js:\d+/);
      assert.match(c.stderr, /NOT RUN/);
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', ws], stderr: 'pipe', env: NO_TEAM_ENV as Record<string, string> });
      const client = new Client({ name: 'fm-test', version: '0.0.0' });
      await client.connect(transport);
      try {
        const r = await client.callTool({ name: 'failure_memory_check', arguments: { command: 'npm test' } });
        assert.match(JSON.stringify(r.content), /exhausted/);
      } finally {
        await client.close();
      }
    });
  }

  test('an invalid redaction pattern is reported, dropped, and the others still redact; record, check and the hooks keep working', () => {
    const ws = workspace(JSON.stringify({ 'failureMemory.redaction.extraPatterns': ['(?=x)', 'ZQ-[0-9]+'] }));
    const warnings = failFiveTimes(ws, 'npm test', 'Error: token ZQ-12345 rejected\n');
    assert.match(warnings[0], /failureMemory\.redaction\.extraPatterns: Invalid redaction pattern "\(\?=x\)"/);
    assert.equal(warnings[0].trim().split('\n').length, 1, warnings[0]);
    const approach = stored(ws).approaches['.::npm test'];
    assert.equal(approach.failures, 5);
    assert.match(approach.lastErrorSignature, /\[REDACTED:custom\]/);
    assert.equal(cli(ws, ['check', '--command', 'npm test']).code, 2);
    // an agent's hooks: the pre hook denies the exhausted approach, the post hook records
    const env = { ...NO_TEAM_ENV, FAILURE_MEMORY_CACHE_DIR: temp() };
    const pre = spawnSync(process.execPath, [HOOK, 'hook', 'claude', 'pre'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, cwd: ws }), encoding: 'utf8', env });
    assert.equal(pre.status, 0, pre.stderr);
    assert.match(pre.stdout, /"permissionDecision":"deny"/);
    const post = spawnSync(process.execPath, [HOOK, 'hook', 'claude', 'post'], { input: JSON.stringify({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'make lint' }, cwd: ws, error: 'Exit code 1\nerror: ZQ-999 leaked' }), encoding: 'utf8', env });
    assert.equal(post.status, 0, post.stderr);
    // the post hook journals the run beside memory.json: read as every reader reads it
    const lint = JSON.parse(cli(ws, ['export']).stdout).approaches['.::make lint'];
    assert.equal(lint?.failures, 1);
    assert.ok(!JSON.stringify(lint).includes('ZQ-999'));
    for (const f of readdirSync(join(ws, '.vscode/failure-memory'))) {
      if (statSync(join(ws, '.vscode/failure-memory', f)).isFile()) assert.ok(!readFileSync(join(ws, '.vscode/failure-memory', f), 'utf8').includes('ZQ-999'), f);
    }
  });
});
