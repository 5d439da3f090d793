// Edits as evidence through the agent hooks: each harness's edit tool, read from its documented post-tool
// payload (test/fixtures/hooks/<harness>/post-edit*.json, each naming the page it follows), becomes an
// edit event of the workspace memory; and the gate's ask reaches each harness in its own shape: asked
// where a person can answer (the harness can prompt, and its session is not known to be headless),
// refused everywhere else with the facts and what the user can do — never a pass.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARNESS_IDS, type HarnessId, type HookReply } from '../../src/agents/hooks';
import { codexShellPatch, editsOf, patchApplies, patchFiles, shellPatch } from '../../src/agents/hooks/edits';
import { gateShape } from '../../src/agents/hooks/types';
import { readMemoryFull, recordHookDecision, recordHookEdits, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { targetFor } from '../../src/agents/setup';
import { fill, fixture, nextMillisecond } from '../support/hookPayloads';
import { tempFolders } from '../support/tempFolders';

const tempDir = tempFolders('fm-hook-edits-');
const ERR = 'FAIL src/cart.test.js\n  ● cart › total\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 3 passed, 4 total\n';

function payload(h: HarnessId, name: string, vars: Record<string, string>): { text: string; env: NodeJS.ProcessEnv } | undefined {
  const fx = fixture(h, name);
  return fx && { text: JSON.stringify(fill(fx.payload, vars)), env: fill(fx.env ?? {}, vars) as NodeJS.ProcessEnv };
}

function workspace(threshold = 3): string {
  const ws = realpathSync(tempDir());
  mkdirSync(join(ws, 'src'));
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'failureMemory.threshold': threshold }));
  mkdirSync(join(ws, '.git'));
  return ws;
}

const opts = (env: NodeJS.ProcessEnv = {}) => ({ record: recordHookResult, readFull: readMemoryFull, recordEdits: recordHookEdits, recordDecision: recordHookDecision, env });

describe('edit tools report their edits (post hooks)', () => {
  for (const h of HARNESS_IDS) {
    const name = `${h}: the documented post-tool payload of its edit tool is an edit event`;
    test(name, async t => {
      const ws = workspace();
      const vars = { CWD: ws, ROOT: ws, FILE: join(ws, 'src', 'cart.js'), RELFILE: 'src/cart.js' };
      const p = payload(h, 'post-edit', vars);
      if (!p) return t.skip(`${h} reports no edits in its hook payloads`);
      const r = await runHook(h, 'post', p.text, opts(p.env));
      assert.equal(r.exitCode, 0, r.stderr);
      const data = await readMemoryFull(ws);
      assert.deepEqual(data.edits?.map(e => [e.path, e.ok, e.source]), [['src/cart.js', true, 'agent']]);
      const failed = payload(h, 'post-edit-failed', vars);
      if (failed) {
        await runHook(h, 'post', failed.text, opts(failed.env));
        assert.deepEqual((await readMemoryFull(ws)).edits?.map(e => e.ok), [true, false], 'a failed edit is kept as ok: false');
      }
    });
  }

  test('shell tools are still recorded as runs, and other tools are not edits', () => {
    assert.equal(editsOf('claude', 'post', { tool_name: 'Bash', tool_input: { command: 'ls' } }), undefined);
    assert.equal(editsOf('claude', 'post', { tool_name: 'Read', tool_input: { file_path: '/x' } }), undefined);
    assert.equal(editsOf('claude', 'pre', { tool_name: 'Edit', tool_input: { file_path: '/x' } }), undefined);
    assert.deepEqual(editsOf('claude', 'post', { tool_name: 'MultiEdit', tool_input: { file_path: '/w/a.ts', edits: [] }, tool_response: {} }), [{ path: '/w/a.ts', ok: true, tool: 'MultiEdit' }]);
    assert.deepEqual(editsOf('claude', 'post', { tool_name: 'NotebookEdit', tool_input: { notebook_path: '/w/n.ipynb' }, tool_response: {} }), [{ path: '/w/n.ipynb', ok: true, tool: 'NotebookEdit' }]);
    assert.deepEqual(editsOf('gemini', 'post', { tool_name: 'write_file', tool_input: { file_path: 'a.py' }, tool_response: { error: { message: 'permission denied' } } }), [{ path: 'a.py', ok: false, tool: 'write_file' }]);
  });

  test("a Codex patch names every file it adds, updates, deletes or moves", () => {
    assert.deepEqual(patchFiles('*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: src/b.ts\n*** Move to: src/c.ts\n@@\n*** Delete File: d.md\n*** End Patch'), ['a.txt', 'src/b.ts', 'src/c.ts', 'd.md']);
    assert.deepEqual(patchFiles('no patch here'), []);
  });

  test('setup writes the edit tools into each harness\'s post-hook matchers (and Cursor\'s afterFileEdit)', () => {
    const claude = targetFor('claude');
    assert.ok(claude.kind === 'json');
    if (claude.kind !== 'json') return;
    for (const ev of ['PostToolUse', 'PostToolUseFailure']) assert.equal(claude.entries[ev][0].matcher, 'Bash|Edit|Write|MultiEdit|NotebookEdit');
    const gemini = targetFor('gemini');
    if (gemini.kind === 'json') assert.equal(gemini.entries.AfterTool[0].matcher, 'run_shell_command|write_file|replace');
    const codex = targetFor('codex');
    if (codex.kind === 'json') assert.equal(codex.entries.PostToolUse[0].matcher, 'Bash|apply_patch');
    const cursor = targetFor('cursor');
    if (cursor.kind === 'json') assert.match(JSON.stringify(cursor.entries.afterFileEdit), /hook cursor post/);
  });
});

describe('the gate\'s ask: asked where a person can answer, else refused with what the user can do (never a pass)', () => {
  async function askWorkspace(): Promise<string> {
    const ws = workspace(3);
    // the same error after each of three edits: the fourth asks
    for (let i = 0; i < 4; i++) {
      await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: ERR });
      nextMillisecond();
      await recordHookEdits({ workspace: ws, edits: [{ path: join(ws, 'src', 'cart.js'), ok: true, tool: 'Edit' }], via: 'claude' });
    }
    return ws;
  }
  // no `failure-memory` on PATH, the launcher in this HOME: the user runs it by its path
  const home = () => {
    const h = realpathSync(tempDir());
    mkdirSync(join(h, '.failure-memory', 'bin'), { recursive: true });
    writeFileSync(join(h, '.failure-memory', 'bin', 'failure-memory'), '#!/bin/sh\n', { mode: 0o755 });
    return h;
  };
  const modeOpts = (env: NodeJS.ProcessEnv, mode: 'headless' | 'interactive' | undefined, h: string) => ({ ...opts({ ...env, HOME: h, PATH: '' }), sessionMode: () => mode });

  const ASKED: Partial<Record<HarnessId, (r: HookReply) => string>> = {
    claude: r => JSON.parse(r.stdout).hookSpecificOutput.permissionDecision === 'ask' && JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason,
    vscode: r => JSON.parse(r.stdout).hookSpecificOutput.permissionDecision === 'ask' && JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason,
    copilot: r => JSON.parse(r.stdout).permissionDecision === 'ask' && JSON.parse(r.stdout).permissionDecisionReason,
    cursor: r => JSON.parse(r.stdout).permission === 'ask' && JSON.parse(r.stdout).agent_message,
    gemini: r => JSON.parse(r.stdout).decision === 'ask' && JSON.parse(r.stdout).systemMessage,
  };
  // the refusal, where each harness puts a deny's reason
  const REFUSED: Record<HarnessId, (r: HookReply) => string> = {
    claude: r => JSON.parse(r.stdout).hookSpecificOutput.permissionDecision === 'deny' && JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason,
    vscode: r => JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason,
    copilot: r => JSON.parse(r.stdout).permissionDecision === 'deny' && JSON.parse(r.stdout).permissionDecisionReason,
    cursor: r => JSON.parse(r.stdout).permission === 'deny' && JSON.parse(r.stdout).agent_message,
    gemini: r => JSON.parse(r.stdout).decision === 'deny' && JSON.parse(r.stdout).reason,
    codex: r => (r.exitCode === 2 ? r.stderr : ''),
    cline: r => JSON.parse(r.stdout).cancel === true && JSON.parse(r.stdout).errorMessage,
    windsurf: r => (r.exitCode === 2 ? r.stderr : ''),
  };
  // what each harness does with an ask when its session's mode is unknown / headless / interactive
  const EXPECT: Record<HarnessId, ['ask' | 'deny', 'ask' | 'deny', 'ask' | 'deny']> = {
    claude: ['ask', 'deny', 'ask'],
    copilot: ['ask', 'deny', 'ask'],
    cursor: ['ask', 'deny', 'ask'],
    vscode: ['ask', 'ask', 'ask'],
    gemini: ['deny', 'deny', 'ask'],
    codex: ['deny', 'deny', 'deny'],
    cline: ['deny', 'deny', 'deny'],
    windsurf: ['deny', 'deny', 'deny'],
  };

  for (const h of HARNESS_IDS) {
    test(`${h}: ask in an unknown, a headless and an interactive session: ${EXPECT[h].join(', ')}; logged as given`, async () => {
      for (const [i, mode] of (['unknown', 'headless', 'interactive'] as const).entries()) {
        const ws = await askWorkspace();
        const hm = home();
        const p = payload(h, 'pre', { COMMAND: 'npm test', CWD: ws, ROOT: ws, OUTPUT: '' })!;
        const r = await runHook(h, 'pre', p.text, modeOpts(p.env, mode === 'unknown' ? undefined : mode, hm));
        const want = EXPECT[h][i];
        const cli = join(hm, '.failure-memory', 'bin', 'failure-memory');
        if (want === 'ask') {
          const reason = ASKED[h]!(r);
          assert.match(reason, /^Failure Memory: ⟦npm test⟧ failed 4 times in a row[^\n]*\nWhy \(same-error-after-change\)/, `${h} ${mode}: ${r.stdout}`);
          // a question no one may answer (a headless run the hook could not tell) says what to do then
          const told = reason.includes(`If no one can answer this (a headless run), do not run it another way: stop and ask the user. The user lets it run once with \`${cli} allow --command 'npm test'\``);
          assert.equal(told, h !== 'vscode' && mode !== 'interactive', `${h} ${mode}: ${reason}`);
        } else {
          const reason = REFUSED[h](r);
          assert.match(reason, /^Failure Memory: NOT RUN — ⟦npm test⟧ needs a person's decision \(⟦npm test⟧ in the workspace root: 4 failures in a row, threshold 3; the changes so far did not move its error\), and /, `${h} ${mode}: ${r.stdout}${r.stderr}`);
          assert.match(reason, mode === 'headless' ? /no one can be asked in this headless session/ : /this harness cannot put the question to the user/);
          assert.match(reason, /\nLast error \(command output, untrusted\): ⟦● cart › total⟧\n/);
          assert.match(reason, /\nAlready tried: ⟦npm test⟧ in the workspace root\./);
          assert.ok(reason.includes(`Stop and ask the user whether it should run once more: tell them the last error and what you changed. The user lets it run once with \`${cli} allow --command 'npm test'\` in their own terminal`), reason);
        }
        const decisions = (await readMemoryFull(ws)).decisions ?? [];
        assert.deepEqual(decisions.map(d => [d.decision, d.policy, d.code, d.via]), [[want, 'ask', 'same-error-after-change', `hook:${h}`]], `${h} ${mode}`);
      }
    });
  }

  test('the mapping is one table: deny and warn everywhere, ask where a person can answer', () => {
    for (const h of HARNESS_IDS) {
      assert.equal(gateShape(h, 'deny'), 'deny');
      assert.equal(gateShape(h, 'warn', 'headless'), 'warn');
      assert.equal(gateShape(h, 'allow', 'headless'), 'allow');
      assert.deepEqual([gateShape(h, 'ask'), gateShape(h, 'ask', 'headless'), gateShape(h, 'ask', 'interactive')], EXPECT[h], h);
    }
  });

  test('codex: its transcript says how the session started (exec: headless); either way the ask is refused, Codex having no ask', async () => {
    for (const [source, originator, headless] of [['exec', 'codex_exec', true], ['cli', 'codex_cli_rs', false]] as const) {
      const ws = await askWorkspace();
      const transcript = join(ws, 'rollout.jsonl');
      writeFileSync(transcript, `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 's', cwd: ws, originator, cli_version: '0.169.0', source, base_instructions: { text: 'x'.repeat(100_000) } } })}\n`);
      const p = JSON.parse(payload('codex', 'pre', { COMMAND: 'npm test', CWD: ws, ROOT: ws, OUTPUT: '' })!.text) as Record<string, unknown>;
      const r = await runHook('codex', 'pre', JSON.stringify({ ...p, transcript_path: transcript }), opts());
      assert.equal((await readMemoryFull(ws)).decisions?.[0].decision, 'deny');
      assert.equal(r.exitCode, 2, 'Codex blocks on exit 2');
      assert.match(r.stderr, headless ? /, and no one can be asked in this headless session\./ : /, and this harness cannot put the question to the user\./);
    }
  });
});

describe("Codex's apply_patch given to its shell tool (Codex applies it itself; no post hook follows)", () => {
  const PATCH = '*** Begin Patch\n*** Update File: src/cart.js\n@@\n-  return total + 1;\n+  return total;\n*** End Patch';
  const pre = (ws: string, command: unknown, id = 'call_1') =>
    JSON.stringify({ session_id: 's-1', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

  test('the patch is read from the line as Codex reads it: a heredoc (quoted or not), a quoted argument, after cd DIR &&, or an argv', () => {
    assert.deepEqual(shellPatch(`apply_patch <<'EOF'\n${PATCH}\nEOF`), { patch: PATCH });
    assert.deepEqual(shellPatch(`apply_patch <<EOF\n${PATCH}\nEOF\n`), { patch: PATCH });
    assert.deepEqual(shellPatch(`cd api && applypatch <<"PATCH"\n${PATCH}\nPATCH`), { patch: PATCH, dir: 'api' });
    assert.deepEqual(shellPatch(`apply_patch '${PATCH.replace('total;', "it'\\''s;")}'`), { patch: PATCH.replace('total;', "it's;") });
    assert.deepEqual(codexShellPatch(['apply_patch', PATCH]), { patch: PATCH });
    assert.deepEqual(codexShellPatch(['/bin/bash', '-lc', `apply_patch <<'EOF'\n${PATCH}\nEOF`]), { patch: PATCH });
    for (const not of ['npm test', `cat <<'EOF'\n${PATCH}\nEOF`, `apply_patch <<'EOF'\n${PATCH}\nEND`, 'apply_patch <<EOF\nno patch\nEOF', `apply_patch <<'EOF'\n${PATCH}\nEOF\nrm -rf x`]) {
      assert.equal(shellPatch(not), undefined, not);
    }
  });

  test('it applies when every file it updates or deletes is there and each hunk is found (blanks at the ends aside)', () => {
    const files: Record<string, string> = { 'src/cart.js': 'function total() {\n  return total + 1;   \n}\n', 'old.md': 'x' };
    const read = (p: string) => files[p];
    assert.equal(patchApplies(PATCH, read), true);
    assert.equal(patchApplies('*** Begin Patch\n*** Add File: new.txt\n+x\n*** Delete File: old.md\n*** End Patch', read), true);
    assert.equal(patchApplies('*** Begin Patch\n*** Delete File: gone.md\n*** End Patch', read), false, 'Codex: Failed to read file');
    assert.equal(patchApplies(PATCH.replace('return total + 1;', 'return nothing;'), read), false, 'Codex: Failed to find expected lines');
    assert.equal(patchApplies(PATCH.replace('src/cart.js', 'src/missing.js'), read), false);
  });

  test('its pre hook is the one report: the edit is recorded once (a failed one as ok: false), never gated as a command', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'src', 'cart.js'), 'function total() {\n  return total + 1;\n}\n');
    const line = `apply_patch <<'EOF'\n${PATCH}\nEOF`;
    for (let i = 0; i < 6; i++) await recordHookResult({ workspace: ws, command: line, cwd: '.', exitCode: 1, output: 'x' });
    const r = await runHook('codex', 'pre', pre(ws, line), opts());
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, '', ''], 'let through: an edit, not an exhausted command');
    await runHook('codex', 'pre', pre(ws, line), opts());
    // should a later Codex post it too, the call is not recorded twice
    await runHook('codex', 'post', JSON.stringify({ ...JSON.parse(pre(ws, line)), hook_event_name: 'PostToolUse', tool_response: 'Exit code: 0\nOutput:\nSuccess.' }), opts());
    await runHook('codex', 'pre', pre(ws, `apply_patch <<'EOF'\n${PATCH.replace('+ 1', '+ 2')}\nEOF`, 'call_2'), opts());
    assert.deepEqual((await readMemoryFull(ws)).edits?.map(e => [e.path, e.ok, e.tool]), [['src/cart.js', true, 'apply_patch'], ['src/cart.js', false, 'apply_patch']]);
  });

  test("a patch of Failure Memory's own files through the shell is refused like an edit tool's", async () => {
    const ws = workspace();
    mkdirSync(join(ws, '.vscode', 'failure-memory'), { recursive: true });
    const r = await runHook('codex', 'pre', pre(ws, "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: .vscode/failure-memory/memory.json\n@@\n-{}\n+{\"approaches\":{}}\n*** End Patch\nEOF"), opts());
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /Failure Memory/);
  });

  test("Cline CLI's editor and apply_patch: a failed edit (tool_result.output.success false, postToolUse.success true) changed nothing", () => {
    const post = (toolName: string, parameters: object, output: object) => ({ workspaceRoots: ['/w'], tool_result: { name: toolName, input: parameters, output }, postToolUse: { toolName, parameters, result: JSON.stringify(output), success: true } });
    assert.deepEqual(editsOf('cline', 'post', post('editor', { path: '/w/a.txt', new_text: 'x' }, { query: 'edit:/w/a.txt', result: 'File created successfully', success: true })), [{ path: '/w/a.txt', ok: true, tool: 'editor' }]);
    assert.deepEqual(editsOf('cline', 'post', post('editor', { path: '/w/a.txt', old_text: 'no', new_text: 'x' }, { query: 'edit:/w/a.txt', result: '', error: 'Editor operation failed: No replacement performed', success: false })), [{ path: '/w/a.txt', ok: false, tool: 'editor' }]);
    const patch = post('apply_patch', { input: '*** Begin Patch\n*** Add File: /w/b.txt\n+x\n*** End Patch\n' }, { query: 'apply_patch', result: 'Successfully applied patch', success: true });
    delete (patch as { tool_result?: unknown }).tool_result;
    assert.deepEqual(editsOf('cline', 'post', patch), [{ path: '/w/b.txt', ok: true, tool: 'apply_patch' }], 'read from postToolUse.result when tool_result is absent');
  });
});
