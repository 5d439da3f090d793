// Edits as evidence through the agent hooks: each harness's edit tool, read from its documented post-tool
// payload (test/fixtures/hooks/<harness>/post-edit*.json, each naming the page it follows), becomes an
// edit event of the workspace memory; and the gate's ask reaches each harness in its own shape (ask where
// the harness can ask: Claude Code, VS Code, Cursor, Copilot; elsewhere the call goes on).
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARNESS_IDS, type HarnessId, type HookReply } from '../../src/agents/hooks';
import { editsOf, patchFiles } from '../../src/agents/hooks/edits';
import { gateAnswer } from '../../src/agents/hooks/types';
import { readMemoryFull, recordHookDecision, recordHookEdits, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { targetFor } from '../../src/agents/setup';
import { fill, fixture } from '../support/hookPayloads';
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

describe('the gate answers ask where the harness can ask', () => {
  async function askWorkspace(): Promise<string> {
    const ws = workspace(3);
    for (let i = 0; i < 3; i++) {
      await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: ERR });
      await recordHookEdits({ workspace: ws, edits: [{ path: join(ws, 'src', 'cart.js'), ok: true, tool: 'Edit' }], via: 'claude' });
    }
    return ws;
  }

  const ASKS: Partial<Record<HarnessId, (r: HookReply) => void>> = {
    claude: r => assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'ask'),
    vscode: r => assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'ask'),
    copilot: r => assert.equal(JSON.parse(r.stdout).permissionDecision, 'ask'),
    cursor: r => {
      const j = JSON.parse(r.stdout);
      assert.equal(j.permission, 'ask');
      assert.equal(j.user_message, j.agent_message.split('\n')[0]);
    },
  };

  for (const h of HARNESS_IDS) {
    test(`${h}: ${ASKS[h] ? 'asks the user' : 'cannot ask: lets the call go on'} (the same error through the budget despite edits), and the decision is logged`, async () => {
      const ws = await askWorkspace();
      const p = payload(h, 'pre', { COMMAND: 'npm test', CWD: ws, ROOT: ws, OUTPUT: '' })!;
      const r = await runHook(h, 'pre', p.text, opts(p.env));
      assert.equal(r.exitCode, 0);
      if (ASKS[h]) {
        ASKS[h]!(r);
        assert.match(r.stdout, /same-error-after-change/);
      } else {
        assert.doesNotMatch(`${r.stdout}${r.stderr}`, /deny|NOT RUN|"cancel":true/);
      }
      const decisions = (await readMemoryFull(ws)).decisions ?? [];
      assert.equal(decisions.length, 1);
      assert.deepEqual([decisions[0].policy, decisions[0].code, decisions[0].via], ['ask', 'same-error-after-change', `hook:${h}`]);
    });
  }

  test('the mapping is one table: deny everywhere, ask only on the four harnesses that support it', () => {
    for (const h of HARNESS_IDS) {
      assert.equal(gateAnswer(h, 'deny', 'r').kind, 'deny');
      assert.equal(gateAnswer(h, 'ask', 'r').kind, ['claude', 'vscode', 'cursor', 'copilot'].includes(h) ? 'ask' : 'allow');
      assert.equal(gateAnswer(h, 'warn', 'r').kind, 'allow');
    }
  });
});
