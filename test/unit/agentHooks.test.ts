// `failure-memory hook <harness> <event>`: every harness's documented payloads (fixtures in
// test/fixtures/hooks/<harness>/, each naming the doc page it follows) for every event, with
// the exact answer in that harness's protocol, through the runner in process (the built
// dist/hook.js, as a harness runs it: test/integration/agentHooks.test.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { agentSummary } from '../../src/core/prompts/agentContext';
import { HARNESSES, HARNESS_IDS, type HarnessId, type HookEvent, type HookReply } from '../../src/agents/hooks';
import { readMemoryFull, recordHookResult } from '../../src/agents/hooks/record';
import { readMemorySnapshot, runHook } from '../../src/agents/hooks/runner';
import { locate } from '../../src/agents/hooks/locate';
import { GateGuard } from '../../src/store/gateGuard';
import { memoryDirFor } from '../../src/store/paths';
import { denyReason, EXHAUSTED_VARIANT, EXPECTED_REASON, fill, FIXTURES, fixture, parse, seeded, type Fixture } from '../support/hookPayloads';
import { tempFolders } from '../support/tempFolders';

const tempDir = tempFolders('fm-agent-hooks-');

const opts = (env: NodeJS.ProcessEnv = {}) => ({ record: recordHookResult, readFull: readMemoryFull, env });

async function call(h: HarnessId, event: HookEvent, name: string, vars: Record<string, string>): Promise<HookReply> {
  const f = fixture(h, name)!;
  const env = fill(f.env ?? {}, vars) as Record<string, string>;
  return runHook(h, event, JSON.stringify(fill(f.payload, vars)), opts(env));
}

/** "No opinion": what each harness reads as "go on as usual" (never an explicit allow that skips the user's approval). */
const ALLOW: Record<HarnessId, HookReply> = {
  claude: { exitCode: 0, stdout: '', stderr: '' },
  vscode: { exitCode: 0, stdout: '', stderr: '' },
  copilot: { exitCode: 0, stdout: '', stderr: '' },
  codex: { exitCode: 0, stdout: '', stderr: '' },
  windsurf: { exitCode: 0, stdout: '', stderr: '' },
  cursor: { exitCode: 0, stdout: '{}\n', stderr: '' },
  gemini: { exitCode: 0, stdout: '{}\n', stderr: '' },
  cline: { exitCode: 0, stdout: '{"cancel":false}\n', stderr: '' },
};

/** The context a session-start / prompt answer carries, in each protocol; undefined when the harness has no such channel. */
function contextText(h: HarnessId, event: 'session-start' | 'prompt', r: HookReply): string | undefined {
  assert.equal(r.exitCode, 0);
  assert.equal(r.stderr, '');
  if (h === 'windsurf' || (h === 'cursor' && event === 'prompt')) return undefined;
  const j = parse(r);
  if (h === 'copilot') {
    // Copilot CLI 1.0.102 reads a top-level additionalContext from sessionStart and userPromptSubmitted
    assert.deepEqual(Object.keys(j), ['additionalContext']);
    return j.additionalContext;
  }
  if (h === 'cursor') {
    assert.deepEqual(Object.keys(j), ['additional_context']);
    return j.additional_context;
  }
  if (h === 'cline') {
    assert.equal(j.cancel, false);
    return j.contextModification;
  }
  const names: Record<string, [string, string]> = { gemini: ['SessionStart', 'BeforeAgent'] };
  const [start, prompt] = names[h] ?? ['SessionStart', 'UserPromptSubmit'];
  assert.deepEqual(j.hookSpecificOutput, { hookEventName: event === 'session-start' ? start : prompt, additionalContext: j.hookSpecificOutput.additionalContext });
  return j.hookSpecificOutput.additionalContext;
}

describe('every fixture names the documentation page it follows', () => {
  test('one folder per harness, each file with $doc (a URL on the page the adapter cites) and a payload', () => {
    assert.deepEqual(readdirSync(FIXTURES).sort(), [...HARNESS_IDS].sort());
    for (const h of HARNESS_IDS) {
      // real-<version>/: payloads captured from the harness program itself (realHarnessPayloads.test.ts)
      const files = readdirSync(join(FIXTURES, h)).filter(f => f.endsWith('.json'));
      assert.ok(files.includes('pre.json'), `${h}: pre.json`);
      for (const f of files) {
        const fx = JSON.parse(readFileSync(join(FIXTURES, h, f), 'utf8')) as Fixture;
        assert.match(fx.$doc, /^https:\/\//, `${h}/${f}`);
        assert.ok(fx.$doc.startsWith(HARNESSES[h].doc), `${h}/${f} follows ${HARNESSES[h].doc}`);
        assert.equal(typeof fx.payload, 'object');
      }
    }
  });
});

for (const h of HARNESS_IDS) {
  const adapter = HARNESSES[h];
  describe(`hook ${h} (${adapter.doc})`, () => {
    test('pre: an exhausted approach is denied with the approach, failures, real last error, variants with folders and what to do instead', async () => {
      const ws = await seeded();
      const r = await call(h, 'pre', 'pre', { COMMAND: EXHAUSTED_VARIANT, CWD: join(ws, 'api'), ROOT: ws });
      const reason = denyReason(h, r, 'PreToolUse', h === 'copilot');
      assert.equal(reason, EXPECTED_REASON);
      assert.doesNotMatch(reason, /\b(resolve|allow|clear)\b/, 'never tells the model to unblock itself');
      if (fixture(h, 'pre-vscode-format')) {
        const v = await call(h, 'pre', 'pre-vscode-format', { COMMAND: EXHAUSTED_VARIANT, CWD: join(ws, 'api'), ROOT: ws });
        assert.equal(denyReason(h, v, 'PreToolUse'), EXPECTED_REASON);
      }
    });

    test('pre: other commands, other folders and non-terminal tools are let through', async () => {
      const ws = await seeded();
      assert.deepEqual(await call(h, 'pre', 'pre', { COMMAND: 'npm test', CWD: join(ws, 'api'), ROOT: ws }), ALLOW[h]);
      // the same command in another folder is another approach
      assert.deepEqual(await call(h, 'pre', 'pre', { COMMAND: 'npx prisma generate', CWD: ws, ROOT: ws }), ALLOW[h]);
      if (fixture(h, 'pre-other')) {
        // answered at once: even a memory file that cannot be read is not looked at
        writeFileSync(join(memoryDirFor(ws), 'memory.json'), '{ not json');
        assert.deepEqual(await call(h, 'pre', 'pre-other', { COMMAND: EXHAUSTED_VARIANT, CWD: join(ws, 'api'), ROOT: ws }), ALLOW[h]);
      }
    });

    test('pre: `failure-memory resolve|allow|clear` through the agent is refused', async () => {
      const ws = await seeded();
      for (const cmd of ['failure-memory resolve --command "npx prisma generate"', 'npx failure-memory --workspace . allow --command x', 'node dist/cli.js clear --yes']) {
        const reason = denyReason(h, await call(h, 'pre', 'pre', { COMMAND: cmd, CWD: ws, ROOT: ws }), 'PreToolUse', h === 'copilot');
        assert.match(reason, /^Failure Memory: NOT RUN — `failure-memory (resolve|allow|clear)` is for the user, not for an agent\./);
      }
    });

    test('post: the result is recorded as a failure of the approach (or left to whoever records it)', async () => {
      const ws = await seeded();
      const post = fixture(h, 'post');
      if (!post) {
        assert.equal(adapter.nativeEvents.post, undefined, `${h} has no post event: nothing to record with`);
        const r = await runHook(h, 'post', JSON.stringify(fill(fixture(h, 'pre')!.payload, { COMMAND: 'cargo build', CWD: ws, ROOT: ws })), opts());
        assert.deepEqual(r, ALLOW[h].stdout === '' ? ALLOW[h] : r);
        assert.equal((await readMemoryFull(ws)).approaches['.::cargo build'], undefined);
        return;
      }
      const r = await call(h, 'post', 'post', { COMMAND: 'cargo build --release', CWD: ws, ROOT: ws, OUTPUT: 'error[E0432]: unresolved import `foo::bar`' });
      assert.equal(r.exitCode, 0);
      assert.equal(r.stderr, '');
      const a = (await readMemoryFull(ws)).approaches['.::cargo build'];
      if (h === 'vscode') {
        // run_in_terminal runs in VS Code's terminal: the extension records it through shell integration
        assert.equal(a, undefined, 'not recorded twice');
        return;
      }
      assert.ok(a, `${h}: recorded`);
      const t = a.attempts.at(-1)!;
      assert.equal(t.source, 'agent');
      assert.equal(t.command, 'cargo build --release');
      if (h === 'cursor') {
        // afterShellExecution reports no exit code: kept, never counted
        assert.equal(t.outcome, 'unknown');
        assert.equal(a.failures, 0);
      } else {
        assert.equal(t.outcome, 'failure');
        assert.equal(t.exitCode, 1);
        assert.equal(a.failures, 1);
        assert.match(a.lastErrorSignature, /unresolved import/);
      }
      const ok = fixture(h, 'post-success');
      if (ok) {
        await call(h, 'post', 'post-success', { COMMAND: 'cargo build', CWD: ws, ROOT: ws, OUTPUT: 'Finished release' });
        assert.equal((await readMemoryFull(ws)).approaches['.::cargo build'].status, 'resolved');
      }
    });

    for (const event of ['session-start', 'prompt'] as const) {
      test(`${event}: the failure summary goes into the agent's context (bounded)`, async () => {
        const ws = await seeded();
        const f = fixture(h, event);
        if (!f) {
          assert.ok(!adapter.nativeEvents[event], `${h} documents no ${event} hook`);
          return;
        }
        const r = await call(h, event, event, { CWD: ws, ROOT: ws });
        const text = contextText(h, event, r);
        if (text === undefined) {
          assert.deepEqual(r, ALLOW[h].stdout ? r : ALLOW[h], `${h} ${event}: no context channel, nothing said`);
          return;
        }
        assert.equal(text, agentSummary(await readMemoryFull(ws), 5));
        assert.match(text, /EXHAUSTED: ⟦npx prisma generate --schema prisma\/schema\.prisma⟧ in api, 5 failure\(s\) — last error ⟦Error: Cannot find module '@prisma\/client'⟧/);
        assert.match(text, /failing: ⟦npm install @prisma\/client⟧ in api, 2 failure\(s\)/);
        assert.ok(text.length <= 1500);
      });
    }
  });
}

describe('where a hook call belongs', () => {
  test('a symlinked project folder matches the real path the harness reports', async () => {
    const ws = await seeded();
    const link = join(realpathSync(tempDir()), 'proj');
    symlinkSync(ws, link);
    assert.deepEqual(locate(link, join(ws, 'api')), { workspace: ws, rel: 'api' });
    assert.deepEqual(locate(ws, join(link, 'api')), { workspace: ws, rel: 'api' });
    const r = await runHook('claude', 'pre', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: EXHAUSTED_VARIANT }, cwd: join(ws, 'api') }), opts({ CLAUDE_PROJECT_DIR: link }));
    assert.equal(denyReason('claude', r), EXPECTED_REASON);
  });

  test('without a project directory: the nearest folder with .vscode/failure-memory (or a git top level) above the cwd', async () => {
    const ws = await seeded();
    mkdirSync(join(ws, 'api', 'src'));
    assert.deepEqual(locate(undefined, join(ws, 'api', 'src')), { workspace: ws, rel: 'api/src' });
  });

  test('outside any workspace, bad input, unreadable memory: let through, and said where the user sees it', async () => {
    const nowhere = realpathSync(tempDir());
    const pre = (cwd: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make' }, cwd });
    const outside = await runHook('claude', 'pre', pre(nowhere), opts());
    // Claude Code shows an exit-0 hook's stderr only in its debug log: systemMessage is what the user sees
    assert.equal(outside.exitCode, 0, 'the call goes on');
    const shown = parse(outside) as { systemMessage: string };
    assert.deepEqual(Object.keys(shown), ['systemMessage']);
    assert.match(shown.systemMessage, /^Failure Memory hook: .* is outside any workspace .*; not checked, the agent goes on\.$/);
    assert.equal(outside.stderr, `${shown.systemMessage}\n`);
    const bad = await runHook('gemini', 'pre', 'not json', opts());
    const badLine = 'Failure Memory hook: the Gemini CLI hook input is not a JSON object; not checked, the agent goes on.';
    assert.deepEqual(bad, { exitCode: 0, stdout: `${JSON.stringify({ systemMessage: badLine })}\n`, stderr: `${badLine}\n` });
    const ws = await seeded();
    writeFileSync(join(memoryDirFor(ws), 'memory.json'), JSON.stringify({ schemaVersion: 99 }));
    // the gate's copy in the user's data folder answers while memory.json cannot be read: said, and still a gate
    const newer = await runHook('claude', 'pre', pre(join(ws, 'api')), opts({ CLAUDE_PROJECT_DIR: ws }));
    assert.equal(newer.exitCode, 0);
    assert.match((parse(newer) as { systemMessage: string }).systemMessage, /^Failure Memory: The workspace memory could not be read \(.*newer version of Failure Memory.*\): this answer comes from the copy of the gate's state/);
    const denied = parse(await runHook('claude', 'pre', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: EXHAUSTED_VARIANT }, cwd: join(ws, 'api') }), opts({ CLAUDE_PROJECT_DIR: ws }))) as { hookSpecificOutput: { permissionDecision: string } };
    assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny', 'the exhausted command is still stopped');
    // without a copy (none was ever written, or it is gone), as before: let through, and said
    rmSync(new GateGuard({ workspace: ws, via: 'test' }).file);
    const bare = await runHook('claude', 'pre', pre(join(ws, 'api')), opts({ CLAUDE_PROJECT_DIR: ws }));
    assert.match((parse(bare) as { systemMessage: string }).systemMessage, /^Failure Memory hook: memory could not be used \(.*newer version of Failure Memory.*\); not checked, the agent goes on\.$/);
    assert.equal((await runHook('nope', 'pre', '{}', opts())).exitCode, 1);
  });

  test('each harness says it where its user (or, headless, its model) sees it, and never blocks', () => {
    const msg = 'Failure Memory hook: x; not checked, the agent goes on.';
    for (const h of HARNESS_IDS) {
      for (const event of ['pre', 'post', 'session-start', 'prompt'] as const) {
        const r = HARNESSES[h].notice(event, msg, {});
        assert.notEqual(r.exitCode, 2, `${h} ${event}: exit 2 blocks`);
        assert.match(r.stderr, /not checked/, `${h} ${event}: the line is on stderr too (logs)`);
        if (r.stdout) assert.doesNotMatch(r.stdout, /"(?:cancel|decision|permissionDecision|permission)":\s*(?:true|"deny")/, `${h} ${event}: no deny`);
      }
    }
    // a failing preToolUse hook DENIES in Copilot CLI 1.0.102: its notice exits 0
    assert.equal(HARNESSES.copilot.notice('pre', msg, {}).exitCode, 0);
    assert.equal(JSON.parse(HARNESSES.copilot.notice('session-start', msg, {}).stdout).additionalContext.startsWith(msg), true);
    for (const h of ['claude', 'codex', 'gemini', 'vscode'] as const) {
      const j = JSON.parse(HARNESSES[h].notice('session-start', msg, {}).stdout);
      assert.equal(j.systemMessage, msg, `${h}: systemMessage`);
      assert.match(j.hookSpecificOutput.additionalContext, /Tell the user/, `${h}: the model is asked to pass it on`);
    }
    assert.match(JSON.parse(HARNESSES.cline.notice('pre', msg, {}).stdout).contextModification, /not checked/);
  });

  test('the quick read takes only current, well-formed files; the rest goes to the store', async () => {
    const ws = await seeded();
    assert.ok(readMemorySnapshot(ws));
    assert.equal(readMemorySnapshot(realpathSync(tempDir())), null);
    writeFileSync(join(memoryDirFor(ws), 'memory.json'), JSON.stringify({ approaches: {} }));
    assert.equal(readMemorySnapshot(ws), undefined, 'schema v0: migrated by the store');
  });
});

describe('Codex: a command given as an argv', () => {
  test('is quoted back into the line its shell runs: `bash -lc "npm test"` is the exhausted npm test, not `bash -lc npm`', async () => {
    const ws = realpathSync(tempDir());
    mkdirSync(join(ws, '.git'));
    for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: 'Error: Cannot find module left-pad' });
    const call = (argv: string[]) => JSON.stringify({ hook_event_name: 'PreToolUse', cwd: ws, tool_name: 'shell', tool_input: { command: argv } });
    const r = await runHook('codex', 'pre', call(['bash', '-lc', 'npm test']), opts());
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /NOT RUN — ⟦bash -lc 'npm test'⟧/);
    assert.equal((await runHook('codex', 'pre', call(['bash', '-lc', 'npm run lint']), opts())).exitCode, 0);
  });
});
