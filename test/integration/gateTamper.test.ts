// What an agent with a shell can do to the gate that the pre hook cannot refuse, against the hooks
// exactly as `setup-agents` writes them (the launcher in a home of the test's own, the built bundles):
// each time the exhausted command is still stopped afterwards, and the user is told — in the next
// hook answer and by `failure-memory doctor`. Memory deleted, replaced or edited (after a command the
// post hook saw: named; behind every hook's back), journaled runs deleted, the gate's copy altered,
// the code cache replaced by one made from other code, the launcher replaced.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';
import Module from 'node:module';
import { describe, test } from 'node:test';
import { hookCommand } from '../../src/agents/setup';
import { SCHEMA_VERSION } from '../../src/core/types';
import { copyFileFor, readCopyHeader } from '../../src/store/gateCopy';
import { memoryDirFor } from '../../src/store/paths';
import { tempFolders } from '../support/tempFolders';

const DIST = resolve(__dirname, '../../dist');
const CLI = join(DIST, 'cli.js');
const temp = tempFolders('fm-gate-tamper-');
const ERROR = "Error: Cannot find module 'left-pad'";

interface Lab {
  ws: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** A git workspace with Claude Code's gate set up by the CLI, and a home of its own (launcher, state, cache). */
function lab(): Lab {
  const ws = fs.realpathSync(temp());
  const home = fs.realpathSync(temp());
  spawnSync('git', ['init', '-q'], { cwd: ws });
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: ws };
  const r = spawnSync(process.execPath, [CLI, 'setup-agents', '--harness', 'claude', '--workspace', ws], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return { ws, home, env };
}

/** A hook as Claude Code runs it: the command setup-agents wrote, the payload on stdin. */
function hook(l: Lab, event: 'pre' | 'post' | 'session-start', payload: Record<string, unknown>) {
  const r = spawnSync('sh', ['-c', hookCommand('claude', event)], { input: JSON.stringify({ cwd: l.ws, session_id: 's1', ...payload }), encoding: 'utf8', env: l.env, timeout: 60_000 });
  assert.equal(r.signal, null);
  return r;
}

let call = 0;
const pre = (l: Lab, command: string) => hook(l, 'pre', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `t${++call}` });
/** A call the pre hook let run, then its post (a post no pre saw records nothing where gates are set up). */
function post(l: Lab, command: string, failed: boolean) {
  const id = `t${++call}`;
  hook(l, 'pre', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });
  return hook(l, 'post', failed ? { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, error: `Exit code 1\n${ERROR}`, tool_use_id: id } : { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, tool_response: { stdout: '', stderr: '', exit_code: 0 }, tool_use_id: id });
}

/** `npm test` failed five times, each seen by the post hook: exhausted (the journal, or folded into memory.json). */
function exhaust(l: Lab, fold: boolean): void {
  for (let i = 0; i < 5; i++) post(l, 'npm test', true);
  if (fold) for (let i = 0; i < 3; i++) post(l, `make step${i}`, true); // eight runs: the journal is folded
}

function decision(r: ReturnType<typeof hook>): { decision: string; reason: string; shown: string } {
  const out = r.stdout ? (JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string }; systemMessage?: string }) : {};
  return { decision: out.hookSpecificOutput?.permissionDecision ?? 'allow', reason: out.hookSpecificOutput?.permissionDecisionReason ?? '', shown: `${out.systemMessage ?? ''}\n${r.stderr}` };
}

function doctor(l: Lab): string {
  const r = spawnSync(process.execPath, [CLI, 'doctor', '--workspace', l.ws], { encoding: 'utf8', env: l.env });
  return r.stdout + r.stderr;
}

const memoryFile = (l: Lab) => join(memoryDirFor(l.ws), 'memory.json');

describe('an agent undoes the gate with its shell: the command is still stopped, and the user is told', { skip: !fs.existsSync(join(DIST, 'hook.js')) && 'dist/ is not built' }, () => {
  test('the memory folder deleted by a command the hooks saw: restored, and the command named', () => {
    const l = lab();
    exhaust(l, true);
    assert.equal(decision(pre(l, 'npm test')).decision, 'deny');
    const attack = 'rm -rf .vscode/failure-memory';
    fs.rmSync(memoryDirFor(l.ws), { recursive: true }); // what `attack` did (the pre hook's refusal of it is another test's)
    // the post hook of that very call finds it, writes memory back and says so: that is the next answer in the session
    const told = decision(post(l, attack, false)).shown;
    assert.match(told, /the workspace memory \(\.vscode\/failure-memory\) was deleted, by the command ⟦rm -rf \.vscode\/failure-memory⟧/);
    assert.match(told, /The gate restored “npm test” from its copy/);
    assert.ok(fs.existsSync(memoryFile(l)), 'memory written back');
    const after = decision(pre(l, 'npm test'));
    assert.equal(after.decision, 'deny', 'still stopped');
    assert.match(doctor(l), /gate state .*: tampered with[^\n]*\n[^\n]*was deleted, by the command ⟦rm -rf \.vscode\/failure-memory⟧/);
    assert.doesNotMatch(decision(pre(l, 'npm test')).reason, /restored/, 'told once in the hooks');
  });

  const behindTheHooks: Array<[string, (l: Lab) => void, RegExp]> = [
    ['memory.json replaced by an empty memory', l => fs.writeFileSync(memoryFile(l), JSON.stringify({ schemaVersion: SCHEMA_VERSION, approaches: {}, reflections: [], learnings: [], updatedAt: new Date().toISOString() })), /the workspace memory was emptied or replaced/],
    ['memory.json replaced by an empty memory of an older version', l => fs.writeFileSync(memoryFile(l), JSON.stringify({ schemaVersion: 3, approaches: {}, reflections: [], learnings: [], updatedAt: new Date().toISOString() })), /the workspace memory was emptied or replaced/],
    [
      'the approach edited to resolved, the index rewritten to match',
      l => {
        const data = JSON.parse(fs.readFileSync(memoryFile(l), 'utf8')) as { approaches: Record<string, Record<string, unknown>> };
        Object.assign(data.approaches['.::npm test'], { status: 'resolved', failures: 0, streakErrors: [], resolvedBy: 'manual' });
        fs.writeFileSync(memoryFile(l), JSON.stringify(data));
        fs.rmSync(join(memoryDirFor(l.ws), 'memory.index.json'));
      },
      /1 exhausted approach was changed in the workspace memory to no longer stop a run/,
    ],
  ];
  for (const [what, attack, said] of behindTheHooks) {
    test(`${what}, behind every hook's back: restored at the next call, and said`, () => {
      const l = lab();
      exhaust(l, true);
      attack(l);
      const after = decision(pre(l, 'npm test'));
      assert.equal(after.decision, 'deny');
      assert.match(after.reason, said);
      assert.match(doctor(l), said);
    });
  }

  test('memory deleted, then a write by the CLI: restored, said on its stderr, and the event names the CLI as who found it', () => {
    const l = lab();
    exhaust(l, true);
    fs.rmSync(memoryDirFor(l.ws), { recursive: true });
    const r = spawnSync(process.execPath, [CLI, 'record', '--command', 'make docs', '--exit-code', '1', '--workspace', l.ws], { input: 'make: *** [docs] Error 2\n', encoding: 'utf8', env: l.env });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /the workspace memory had lost exhausted approaches \(the workspace memory \(\.vscode\/failure-memory\) was deleted\); they were restored from the copy/);
    const h = readCopyHeader(copyFileFor(l.ws, join(l.home, '.failure-memory', 'state')), l.ws);
    assert.ok(typeof h !== 'string', String(h));
    assert.deepEqual(h.events.map(e => [e.kind, e.via, e.approaches.map(a => a.label)]), [['restored', 'cli', ['npm test']]]);
  });

  test('runs still in the journal (not yet folded) deleted with it: the copy had them', () => {
    const l = lab();
    exhaust(l, false);
    assert.ok(fs.existsSync(join(memoryDirFor(l.ws), 'journal.jsonl')) && !fs.existsSync(memoryFile(l)), 'the runs are in the journal only');
    fs.rmSync(join(memoryDirFor(l.ws), 'journal.jsonl'));
    assert.equal(decision(pre(l, 'npm test')).decision, 'deny');
  });

  test('the copy altered to drop the approach, then memory deleted: the copy is not used, and the user is told', () => {
    const l = lab();
    exhaust(l, true);
    const state = join(l.home, '.failure-memory', 'state');
    const copy = fs.readdirSync(state).find(f => /^[0-9a-z]+\.json$/.test(f))!;
    const text = fs.readFileSync(join(state, copy), 'utf8');
    fs.writeFileSync(join(state, copy), text.replace(/"heads":\[[^\]]*\]\]/, '"heads":[]'));
    fs.rmSync(memoryDirFor(l.ws), { recursive: true });
    const after = pre(l, 'npm test');
    assert.match(decision(after).shown, /The copy of the gate's state .* was changed outside Failure Memory: it is not used/);
    assert.match(doctor(l), /gate state .*: changed behind Failure Memory's back/);
  });

  test('a code cache made from other code of the same length is never run; doctor removes it', () => {
    const l = lab();
    exhaust(l, true);
    pre(l, 'make lint'); // the hook writes its cache
    const cache = join(l.home, '.failure-memory', 'cache');
    const main = fs.readdirSync(cache).find(f => f.startsWith('hook-main-'))!;
    const source = fs.readFileSync(join(DIST, 'hook-main.js'), 'utf8').replace(/^#!.*/, '');
    // the attack: a script that lets everything through, padded to the bundle's length, compiled, its cache put in place
    const evil = `process.exitCode = 0;${' '.repeat(source.length - 'process.exitCode = 0;'.length)}`;
    const data = new Script(Module.wrap(evil), { filename: join(DIST, 'hook-main.js') }).createCachedData();
    fs.writeFileSync(join(cache, main), data);
    assert.equal(decision(pre(l, 'npm test')).decision, 'deny', 'the foreign cache did not run');
    fs.writeFileSync(join(cache, main), Buffer.concat([Buffer.from(`FMCACHE1 ${'0'.repeat(64)} ${'0'.repeat(64)}\n`), data]));
    assert.equal(decision(pre(l, 'npm test')).decision, 'deny', 'nor one with a made-up signature');
    fs.writeFileSync(join(cache, 'hook-main-x.v8'), data);
    assert.match(doctor(l), /hooks' code cache: tampered with[^\n]*hook-main-x\.v8/);
    assert.ok(!fs.existsSync(join(cache, 'hook-main-x.v8')));
  });

  test('the launcher replaced by one that lets everything pass: doctor says so and writes it again', () => {
    const l = lab();
    exhaust(l, true);
    const launcher = join(l.home, '.failure-memory', 'bin', 'failure-memory');
    fs.writeFileSync(launcher, '#!/bin/sh\nexit 0\n');
    assert.equal(decision(pre(l, 'npm test')).decision, 'allow', 'a replaced launcher is one thing the hook cannot see from inside');
    assert.match(doctor(l), /failure-memory launcher: [^\n]*was not Failure Memory's[^\n]*written again/);
    assert.equal(decision(pre(l, 'npm test')).decision, 'deny', 'the gate is back');
  });

  test('Claude Code settings that send the hooks elsewhere or turn them off, and entries taken out: doctor names each', () => {
    const l = lab();
    const settings = join(l.ws, '.claude', 'settings.local.json');
    fs.writeFileSync(settings, JSON.stringify({ env: { FAILURE_MEMORY_BIN: '/bin/true' }, disableAllHooks: true }));
    const file = join(l.ws, '.claude', 'settings.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> };
    delete config.hooks.PreToolUse;
    fs.writeFileSync(file, JSON.stringify(config, null, 2));
    const out = doctor(l);
    assert.match(out, /environment overrides: changed behind Failure Memory's back — FAILURE_MEMORY_BIN in .*settings\.local\.json/);
    assert.match(out, /Claude Code: gate OFF — Failure Memory's entries were taken out of \.claude\/settings\.json \(set up here [^)]*\): PreToolUse missing/);
  });
});
