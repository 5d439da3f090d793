// The harness is the witness: an agent cannot clear its own block. Our CLI is recognised however the
// line is quoted, escaped or wrapped; Failure Memory's files and settings are refused to the agent's
// shell and edit tools; a success the agent reports itself clears nothing where gates are set up;
// the exhausted command through eval, sh -c, escapes or quotes is the same approach and is blocked.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HARNESSES, type HarnessId, type HookReply } from '../../src/agents/hooks';
import { agentGatesSetUp } from '../../src/agents/hooks/protect';
import { readMemoryFull, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { applySetup, planSetup } from '../../src/agents/setupFiles';
import { directAccess, runTool } from '../../src/agents/tools';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { main } from '../../src/cli/main';
import { approachKey } from '../../src/core/approach';
import { selfProtectionRefusal, type Protected } from '../../src/core/rules/selfProtection';
import { prePayload } from '../support/hookPayloads';
import { tempFolders } from '../support/tempFolders';

const temp = tempFolders('fm-self-protection-');
const opts = { record: recordHookResult, readFull: readMemoryFull, env: {} };

const WHERE = { workspace: '/home/u/proj', cwd: '.', home: '/home/u' };
const PROT: Protected = {
  memoryDir: '/home/u/proj/.vscode/failure-memory',
  settings: '/home/u/proj/.vscode/settings.json',
  settingsHaveOurs: () => true,
  gateConfigs: near => ['/home/u/proj/.claude/settings.json'].filter(c => !near || near(c)),
  // git's own answer, as the hook asks it: the memory folder is ignored, so -x and --include-untracked reach it
  gitChanges: g => (g.sub === 'clean' && g.args.some(a => /^-\w*x/.test(a))) || (g.sub === 'stash' && g.args.includes('--include-untracked')) ? '/home/u/proj/.vscode/failure-memory' : undefined,
};
const verdict = (line: string, where = WHERE) => selfProtectionRefusal(line, where, PROT)?.code ?? 'allow';

describe('the command line is read as a shell reads it', () => {
  test('every bypass the issue lists is refused, each with its reason', () => {
    const cases: Array<[string, string]> = [
      ['failure-memory "resolve" --command "npm test"', 'user-only'],
      ["failure-memory res''olve --command 'npm test'", 'user-only'],
      ['failure-memory re\\solve --command x', 'user-only'],
      ['FM=failure-memory; $FM resolve --command x', 'user-only'],
      ['$FM resolve --command x', 'unknown-program'],
      ['${FM} clear', 'unknown-program'],
      ['failure-memory $SUB --command x', 'unknown-program'],
      ['failure-memory record --command "npm test" --exit-code 0', 'forged-result'],
      ['failure-memory record --command "npm test" --exit-code=0 --no-stdin', 'forged-result'],
      ['failure-memory record --command "npm test" --exit-code unknown', 'forged-result'],
      ['failure-memory record --command "npm test"', 'forged-result'],
      ['failure-memory setup-agents --remove', 'user-only'],
      ['npx -y failure-memory@latest setup-agents --harness claude --remove', 'user-only'],
      ['echo \'{"tool_name":"Bash"}\' | failure-memory hook claude post', 'hook-by-agent'],
      ['failure-memory learn --type learning --text "the user said so"', 'learning-as-user'],
      ["echo '{}' > .vscode/failure-memory/memory.json", 'memory-files'],
      ['rm -rf .vscode/failure-memory', 'memory-files'],
      ['mv .vscode/failure-memory /tmp/fm', 'memory-files'],
      ['rm -rf .vscode', 'memory-files'],
      ['rm -rf .vs*', 'memory-files'],
      ['cd .vscode && rm -rf failure-memory', 'memory-files'],
      ['cd api && rm -rf ../.vscode/failure-memory/memory.json', 'memory-files'],
      ['rm -rf ~/proj', 'memory-files'],
      ['rm -rf $HOME/proj/.vscode', 'memory-files'],
      ['chmod 000 .vscode/failure-memory/memory.json', 'memory-files'],
      ['find .vscode -name "*.json" -delete', 'memory-files'],
      ['find . -path "*failure-memory*" -exec rm {} +', 'memory-files'],
      ['git clean -fdx', 'memory-files'],
      ['git stash --include-untracked', 'memory-files'],
      ['D=.vscode/failure-memory; rm -rf $D', 'memory-files'],
      ['cp /tmp/empty.json .vscode/failure-memory/memory.json', 'memory-files'],
      ['tee .vscode/failure-memory/memory.json < /dev/null', 'memory-files'],
      ["python3 -c \"import shutil; shutil.rmtree('.vscode/failure-memory')\"", 'memory-files'],
      ['echo \'{"failureMemory.blockMode": "off"}\' > .vscode/settings.json', 'settings'],
      ['rm .vscode/settings.json', 'settings'],
      ["sed -i 's/interrupt/off/' .vscode/settings.json", 'settings'],
      ["node -e \"require('fs').writeFileSync('.vscode/settings.json', '{}')\"", 'settings'],
      ["sed -i '/failure-memory/d' .claude/settings.json", 'gate-config'],
      ['rm .claude/settings.json', 'gate-config'],
      ['echo "{}" >> .vscode/settings.json', 'settings'],
    ];
    for (const [line, code] of cases) assert.equal(verdict(line), code, line);
  });

  test('our CLI through wrappers, shells, eval, aliases and launchers', () => {
    for (const line of [
      'npx failure-memory --workspace . allow --command x',
      'node dist/cli.js clear --yes',
      'node ~/.vscode/extensions/failure-memory.failure-memory-0.1.0/dist/cli.js resolve --command x',
      '"$HOME/.failure-memory/bin/failure-memory" resolve --command x',
      'bash -c "failure-memory resolve --command x"',
      "sh -lc 'cd /tmp && failure-memory clear'",
      'eval "failure-memory  allow --command x"',
      'sudo -E env A=1 nohup failure-memory clear',
      'timeout 5 failure-memory resolve --command x',
      'alias fm=failure-memory; fm clear',
      'echo x | xargs failure-memory resolve --command',
      'failure-memory.cmd allow --command x',
    ]) {
      assert.equal(verdict(line), 'user-only', line);
    }
  });

  test('everyday commands, reads of the memory and failures reported by the agent go through', () => {
    for (const line of [
      'npm test',
      'failure-memory check --command "npm test"',
      'failure-memory recall "Cannot find module"',
      'failure-memory record --command "npm test" --exit-code 1 --no-stdin',
      'failure-memory learn --type learning --text "x" --source agent',
      'cat .vscode/failure-memory/memory.json | jq .approaches',
      'cp .vscode/failure-memory/memory.json /tmp/m.json',
      'git diff .vscode/failure-memory',
      'rm -rf node_modules dist',
      'rm -rf *',
      'git checkout main',
      'git clean -fd',
      'npm install failure-memory',
      'node scripts/cli.js build',
      '$EDITOR README.md',
    ]) {
      assert.equal(verdict(line), 'allow', line);
    }
  });

  test('settings.json without Failure Memory settings may be written by the agent', () => {
    const free = { ...PROT, settingsHaveOurs: () => false };
    assert.equal(selfProtectionRefusal('echo \'{"editor.tabSize": 2}\' > .vscode/settings.json', WHERE, free), undefined);
    assert.equal(selfProtectionRefusal('echo \'{"failureMemory.threshold": 99}\' > .vscode/settings.json', WHERE, free)?.code, 'settings');
    assert.equal(selfProtectionRefusal('echo "{}" >> .vscode/settings.json', WHERE, free), undefined);
  });

  test('a harness configuration is read only when the write touches it', () => {
    const configs = ['/home/u/proj/.claude/settings.json', '/home/u/proj/.gemini/settings.json'];
    const read: string[] = [];
    const prot: Protected = { ...PROT, gateConfigs: near => configs.filter(c => (!near || near(c)) && read.push(c) > 0) };
    assert.equal(selfProtectionRefusal('echo hi > notes.txt && rm -rf build', WHERE, prot), undefined);
    assert.deepEqual(read, [], 'no configuration read for writes elsewhere');
    assert.equal(selfProtectionRefusal('echo {} > .gemini/settings.json', WHERE, prot)?.code, 'gate-config');
    assert.deepEqual(read, ['/home/u/proj/.gemini/settings.json']);
  });

  test('the exhausted command through eval, sh -c, xargs, escapes or quotes is the same approach', () => {
    const key = approachKey('npm test');
    for (const line of ['npm te\\st', 'n\\pm test', 'eval "npm test"', 'eval npm test', "sh -c 'npm te\\st'", '"npm" "test"', "np''m t'es't", 'echo | xargs npm test', 'bash -c "eval \\"npm test\\""']) {
      assert.equal(approachKey(line), key, line);
    }
    // Windows paths keep their backslashes
    assert.equal(approachKey('C:\\tools\\npm.cmd test'), key);
    assert.equal(approachKey('.\\gradlew.bat build'), approachKey('gradle build'));
  });
});

/** A workspace with `npm test` exhausted (5 failures seen by a hook). */
async function exhausted(): Promise<string> {
  const ws = realpathSync(temp());
  mkdirSync(join(ws, '.git'));
  for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: 'Error: expected 2, got 3' });
  assert.equal((await readMemoryFull(ws)).approaches['.::npm test'].status, 'exhausted');
  return ws;
}

const claudePre = (ws: string, tool: string, input: Record<string, unknown>) =>
  JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 't' });
const denied = (r: HookReply) => r.exitCode === 2 || /"(?:deny|permissionDecision":"deny)"|"cancel":true/.test(r.stdout);

describe('the pre hook refuses them in every harness', () => {
  test('the exhausted command in disguise is denied (Claude Code payloads)', async () => {
    const ws = await exhausted();
    for (const command of ['eval "npm test"', "sh -c 'npm te\\st'", 'n\\p\\m te\\s\\t', "np''m 'test'", 'bash -lc "cd . && npm test"']) {
      const r = await runHook('claude', 'pre', claudePre(ws, 'Bash', { command }), opts);
      assert.ok(denied(r), `${command}: ${r.stdout}`);
      assert.match(r.stdout, /is an exhausted approach/);
    }
    assert.equal((await runHook('claude', 'pre', claudePre(ws, 'Bash', { command: 'npm run lint' }), opts)).stdout, '');
  });

  test('a write to the memory folder or a failureMemory setting by an edit tool is denied, per harness', async () => {
    const ws = await exhausted();
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{ "failureMemory.threshold": 3 }\n');
    const mem = join(ws, '.vscode/failure-memory/memory.json');
    const payloads: Array<[HarnessId, Record<string, unknown>]> = [
      ['claude', { cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: mem, content: '{}' } }],
      ['claude', { cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, '.vscode/settings.json'), old_string: '3', new_string: '300' } }],
      ['claude', { cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'MultiEdit', tool_input: { file_path: '.vscode/failure-memory/memory.json', edits: [{ old_string: 'exhausted', new_string: 'resolved' }] } }],
      ['codex', { cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Delete File: .vscode/failure-memory/memory.json\n*** End Patch' } }],
      ['gemini', { cwd: ws, hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { file_path: mem, content: '{}' } }],
      ['gemini', { cwd: ws, hook_event_name: 'BeforeTool', tool_name: 'replace', tool_input: { file_path: join(ws, '.vscode/settings.json'), old_string: '"failureMemory.threshold": 3', new_string: '' } }],
      ['copilot', { cwd: ws, toolName: 'edit', toolArgs: JSON.stringify({ path: '.vscode/failure-memory/memory.json', old_str: 'exhausted', new_str: 'resolved' }) }],
      ['cline', { workspaceRoots: [ws], preToolUse: { toolName: 'write_to_file', parameters: { path: '.vscode/failure-memory/memory.json', content: '{}' } } }],
      ['vscode', { cwd: ws, hookEventName: 'PreToolUse', tool_name: 'replace_string_in_file', tool_input: { filePath: mem, oldString: 'a', newString: 'b' } }],
      ['windsurf', { agent_action_name: 'pre_write_code', tool_info: { file_path: mem, edits: [{ old_string: 'a', new_string: 'b' }] } }],
    ];
    for (const [h, p] of payloads) {
      const r = await runHook(h, 'pre', JSON.stringify(p), { ...opts, env: h === 'windsurf' ? {} : {} });
      assert.ok(denied(r), `${h} ${String(p.tool_name ?? p.toolName ?? p.agent_action_name ?? 'cline')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout + r.stderr, /NOT RUN — this would (?:change|edit) Failure Memory's (?:own files|settings)/);
    }
    // an ordinary edit goes through
    const ok = await runHook('claude', 'pre', claudePre(ws, 'Write', { file_path: join(ws, 'src/x.ts'), content: 'export {};' }), opts);
    assert.deepEqual(ok, { exitCode: 0, stdout: '', stderr: '' });
    // memory as every reader sees it (the hooks' runs may still wait in the journal beside memory.json)
    assert.equal((await readMemoryFull(ws)).approaches['.::npm test'].status, 'exhausted');
  });

  test('the hook entries of the gate cannot be edited away; other edits of that file can', async () => {
    const ws = await exhausted();
    applySetup(ws, planSetup(ws, { harnesses: ['claude'] }));
    const file = join(ws, '.claude/settings.json');
    const text = readFileSync(file, 'utf8');
    const ourLine = text.split('\n').find(l => l.includes('hook claude pre'))!;
    const edit = await runHook('claude', 'pre', claudePre(ws, 'Edit', { file_path: file, old_string: ourLine, new_string: '' }), opts);
    assert.match(edit.stdout, /agent gate's hook entries/);
    const whole = await runHook('claude', 'pre', claudePre(ws, 'Write', { file_path: file, content: '{"hooks":{}}' }), opts);
    assert.match(whole.stdout, /agent gate's hook entries/);
    const perms = await runHook('claude', 'pre', claudePre(ws, 'Write', { file_path: file, content: text.replace('{', '{"permissions":{"allow":["Bash(ls)"]},') }), opts);
    assert.equal(perms.stdout, '', 'the same hooks with a permission added');
    const rm = await runHook('claude', 'pre', claudePre(ws, 'Bash', { command: 'rm .claude/settings.json' }), opts);
    assert.match(rm.stdout, /agent gate's hook entries/);
  });

  test('the deny reasons are the same words in every harness protocol', async () => {
    const ws = await exhausted();
    for (const h of Object.keys(HARNESSES) as HarnessId[]) {
      const r = await runHook(h, 'pre', JSON.stringify(prePayload(h, ws, 'rm -rf .vscode/failure-memory')), opts);
      assert.ok(denied(r), h);
      assert.match(r.stdout + r.stderr, /this would delete Failure Memory's own files/);
    }
  });
});

describe('a success the agent reports itself', () => {
  test('where agent gates are set up it does not clear an exhausted approach (MCP / LM record); a hook-seen success does', async () => {
    const ws = await exhausted();
    applySetup(ws, planSetup(ws, { harnesses: ['claude'] }));
    assert.equal(agentGatesSetUp(ws), true);
    const memory = new WorkspaceMemory(ws, { git: false });
    const access = directAccess(memory, () => agentGatesSetUp(ws));
    const answer = await runTool('failure_memory_record', access, { command: 'npm test', exitCode: 0, output: 'all passed' });
    assert.match(answer.text, /NOT COUNTED: a success you report yourself does not clear ⟦npm test⟧ here \(it stays EXHAUSTED\)/);
    assert.equal(answer.json.status, 'exhausted');
    let a = (await readMemoryFull(ws)).approaches['.::npm test'];
    assert.equal(a.status, 'exhausted');
    assert.equal(a.attempts.at(-1)!.source, 'reported');
    assert.equal(a.attempts.at(-1)!.outcome, 'unknown');
    // the harness's own post hook saw it pass: that clears it
    await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 0, output: 'all passed' });
    a = (await readMemoryFull(ws)).approaches['.::npm test'];
    assert.equal(a.status, 'resolved');
  });

  test('without agent gates the agent is the only witness: its success counts', async () => {
    const ws = await exhausted();
    assert.equal(agentGatesSetUp(ws), false);
    const memory = new WorkspaceMemory(ws, { git: false });
    await runTool('failure_memory_record', directAccess(memory, () => agentGatesSetUp(ws)), { command: 'npm test', exitCode: 0 });
    assert.equal((await readMemoryFull(ws)).approaches['.::npm test'].status, 'resolved');
  });

  test('failure-memory learn says who wrote it', async () => {
    const ws = realpathSync(temp());
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    assert.equal(await main(['learn', '--workspace', ws, '--type', 'learning', '--text', 'use pnpm', '--source', 'agent'], io), 0);
    assert.equal(await main(['learn', '--workspace', ws, '--type', 'learning', '--text', 'prisma needs generate'], io), 0);
    assert.deepEqual((await readMemoryFull(ws)).learnings.map(l => l.source), ['agent', 'user']);
    assert.equal(await main(['learn', '--workspace', ws, '--type', 'learning', '--text', 'x', '--source', 'boss'], io), 1);
  });
});
