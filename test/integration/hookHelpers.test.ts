// The pieces behind the adapters that the real harnesses needed: Codex's exit code from its
// transcript, one record per tool call across two hooks, Gemini's wrapped result, Cline's
// run_commands (several commands in one call, a refusal the model can read), Copilot's trailer.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { claimCall, PRUNED_MARKER } from '../../src/agents/hooks/callOnce';
import { shortName } from '../../src/store/agentRuns';
import { HARNESSES, callKey, exitCodeIn } from '../../src/agents/hooks';
import { refusalCommand, REFUSED_MARKER } from '../../src/agents/hooks/cline';
import { geminiShellResult } from '../../src/agents/hooks/gemini';
import { readMemoryFull, recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { exitCodeFromTranscript } from '../../src/agents/hooks/transcript';
import { tempDir } from '../support/tempFolders';

const tmp = (p: string) => realpathSync(tempDir(p));
const opts = { record: recordHookResult, readFull: readMemoryFull, env: {} };
/** The claims in a memory folder (not the marker of the last pruning). */
const claims = (dir: string) => readdirSync(join(dir, 'hook-calls')).filter(f => f !== PRUNED_MARKER);

describe("Codex: the exit code from the harness's transcript", () => {
  test('the last line naming the call with an integer exit_code; anything else: unknown', () => {
    const dir = tmp('fm-transcript-');
    const file = join(dir, 'rollout.jsonl');
    const lines = [
      { type: 'response_item', payload: { type: 'function_call', call_id: 'call_1', arguments: '{"cmd":"echo exit_code 0"}' } },
      { type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id: 'call_1', exit_code: 3 } } },
      { type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'call_2', exit_code: 0 } },
    ];
    writeFileSync(file, `${lines.map(l => JSON.stringify(l)).join('\n')}\n{"cut":`);
    assert.equal(exitCodeFromTranscript(file, 'call_1'), 3);
    assert.equal(exitCodeFromTranscript(file, 'call_2'), 0);
    assert.equal(exitCodeFromTranscript(file, 'call_9'), undefined);
    assert.equal(exitCodeFromTranscript('relative.jsonl', 'call_1'), undefined);
    assert.equal(exitCodeFromTranscript(join(dir, 'missing.jsonl'), 'call_1'), undefined);
    assert.equal(exitCodeFromTranscript(dir, 'call_1'), undefined, 'a folder is not a transcript');
  });

  test('a post whose transcript has no code for the call is kept as unknown, never as a success', async () => {
    const ws = tmp('fm-codex-unknown-');
    mkdirSync(join(ws, '.git'));
    const payload = { hook_event_name: 'PostToolUse', session_id: 's', cwd: ws, tool_name: 'Bash', tool_input: { command: 'make' }, tool_response: 'make: *** [all] Error 2\n', tool_use_id: 'call_x', transcript_path: join(ws, 'none.jsonl') };
    await runHook('codex', 'post', JSON.stringify(payload), opts);
    const a = (await readMemoryFull(ws)).approaches['.::make'];
    assert.deepEqual(a.attempts.map(x => [x.exitCode, x.outcome]), [[null, 'unknown']]);
  });
});

describe('one tool call, one record', () => {
  test('the first hook claims the call; the second finds the claim; other calls are claimed anew', () => {
    const dir = tmp('fm-claim-');
    assert.equal(claimCall(dir, 'session:t1\nmake'), true);
    assert.equal(claimCall(dir, 'session:t1\nmake'), false);
    assert.equal(claimCall(dir, 'session:t2\nmake'), true);
    assert.deepEqual(claims(dir).length, 2);
  });

  test('old claims are pruned, at most every few minutes, and a folder that cannot hold claims never loses a record', () => {
    const dir = tmp('fm-claim-prune-');
    const calls = join(dir, 'hook-calls');
    for (let i = 0; i < 70; i++) claimCall(dir, `s:${i}`);
    spawnSync('touch', ['-d', '3 hours ago', ...claims(dir).map(f => join(calls, f))]);
    claimCall(dir, 's:next');
    assert.equal(claims(dir).length, 71, 'pruned a moment ago: nothing looked at');
    spawnSync('touch', ['-d', '10 minutes ago', join(calls, PRUNED_MARKER)]);
    claimCall(dir, 's:new');
    assert.deepEqual(claims(dir).sort(), [shortName('s:new'), shortName('s:next')].sort(), 'the claims of 3 hours ago are gone');
    // the marker is made anew, never written through a link
    const target = join(dir, 'user-file');
    writeFileSync(target, 'keep');
    rmSync(join(calls, PRUNED_MARKER));
    symlinkSync(target, join(calls, PRUNED_MARKER));
    spawnSync('touch', ['-d', '10 minutes ago', target]);
    claimCall(dir, 's:linked');
    assert.equal(readFileSync(target, 'utf8'), 'keep');
    assert.equal(lstatSync(join(calls, PRUNED_MARKER)).isSymbolicLink(), false);
    writeFileSync(join(dir, 'file'), '');
    assert.equal(claimCall(join(dir, 'file'), 'k'), true, 'cannot claim: record anyway');
  });

  test('the same call in camelCase (ms) and snake_case (ISO time) has the same key', () => {
    assert.equal(callKey('s1', undefined, 1795618913452), callKey('s1', undefined, '2026-11-25T15:01:53.452Z'));
    assert.equal(callKey('s1', 'toolu_1', 5), 's1:toolu_1');
    assert.equal(callKey(undefined, 'toolu_1', 5), undefined);
    assert.equal(callKey('s1', undefined, undefined), undefined);
  });
});

describe('Gemini CLI: run_shell_command results', () => {
  test('the Output section and the Exit Code line, without the wrapper', () => {
    const llm = "<untrusted_context>\nOutput: line one\nline two: Output: not a label\nError: (none)\nExit Code: 2\nProcess Group PGID: 123\n</untrusted_context>";
    assert.deepEqual(geminiShellResult(llm), { output: 'line one\nline two: Output: not a label', exitCode: 2 });
    assert.deepEqual(geminiShellResult('Output: (empty)\nProcess Group PGID: 9'), { output: '', exitCode: undefined });
    const r = HARNESSES.gemini.parse('post', { tool_name: 'run_shell_command', tool_input: { command: 'x' }, tool_response: { llmContent: 'Output: ok\nProcess Group PGID: 1', returnDisplay: 'ok' } }, {});
    assert.deepEqual(r.result, { exitCode: 0, output: 'ok' });
  });
});

describe('Cline CLI: run_commands', () => {
  const pre = (commands: string[], cwd: string) => JSON.stringify({ hookName: 'tool_call', workspaceRoots: [cwd], tool_call: { id: 'c1', name: 'run_commands', input: { commands } }, preToolUse: { toolName: 'run_commands', parameters: { commands: JSON.stringify(commands) } } });

  test('one exhausted command among several refuses the call with a command that only prints why', async () => {
    const ws = tmp('fm-cline-');
    mkdirSync(join(ws, '.git'));
    for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'make test', cwd: '.', exitCode: 2, output: 'make: *** [test] Error 2' });
    const r = await runHook('cline', 'pre', pre(['ls', 'make test'], ws), opts);
    const j = JSON.parse(r.stdout) as { cancel: boolean; overrideInput: { commands: string[] } };
    assert.equal(j.cancel, false, 'cancel would stop the whole task, the model never learning why');
    assert.equal(j.overrideInput.commands.length, 1);
    const run = spawnSync('sh', ['-c', j.overrideInput.commands[0]], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^Failure Memory: NOT RUN — ⟦make test⟧/);
    assert.equal(run.stdout, '');
    assert.deepEqual(JSON.parse((await runHook('cline', 'pre', pre(['ls', 'npm test'], ws), opts)).stdout), { cancel: false });
  });

  test('a reason with quotes stays one literal argument', () => {
    const c = refusalCommand("it's `$(touch /tmp/fm-pwned)` \"x\"");
    assert.ok(c.startsWith(REFUSED_MARKER));
    const run = spawnSync('sh', ['-c', c], { encoding: 'utf8' });
    assert.equal(run.stderr, "it's `$(touch /tmp/fm-pwned)` \"x\"\n");
  });

  test('each command of a call is recorded with its own result; an aborted one is unknown', async () => {
    const ws = tmp('fm-cline-post-');
    mkdirSync(join(ws, '.git'));
    const output = [
      { query: 'npm test', result: '[Command exited with code 1]\n\n[stderr]\nError: 2 tests failed\n', error: 'Command exited with code 1', success: false },
      { query: 'ls', result: 'a b', success: true },
      { query: 'make', result: '', error: 'Command failed: Command was aborted', success: false },
    ];
    const payload = { hookName: 'tool_result', workspaceRoots: [ws], tool_result: { id: 'c2', name: 'run_commands', input: { commands: ['npm test', 'ls', 'make'] }, output }, postToolUse: { toolName: 'run_commands', parameters: { commands: '["npm test","ls","make"]' }, success: true } };
    await runHook('cline', 'post', JSON.stringify(payload), opts);
    const m = await readMemoryFull(ws);
    assert.deepEqual(m.approaches['.::npm test'].attempts.map(x => [x.exitCode, x.output]), [[1, 'Error: 2 tests failed']]);
    assert.equal(m.approaches['.::make'].attempts[0].exitCode, null);
  });
});

describe('Copilot CLI: exit codes from its trailer', () => {
  test('"<shellId: 0 completed with exit code N>" is the code, and not part of the output; the last one wins', () => {
    const r = HARNESSES.copilot.parse('post', { toolName: 'bash', toolArgs: { command: 'x' }, toolResult: { resultType: 'success', textResultForLlm: 'printed "exit code 0" earlier\n<shellId: 0 completed with exit code 7>' } }, {});
    assert.deepEqual(r.result, { exitCode: 7, output: 'printed "exit code 0" earlier' });
    assert.equal(exitCodeIn('exit code 1 … exit code 2'), 2);
  });
});
