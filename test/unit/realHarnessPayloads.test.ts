// The payloads the real harness programs sent (captured by the agents suite from the npm releases
// named in each fixture: test/fixtures/hooks/<harness>/real-<version>/) through the runner:
// the command and the exit code each harness really reported (the npm project's suite failed with
// "Cannot find module 'left-pad'", then passed after the fix), its own wrapping taken off the output,
// one record per tool call, and the summary where each harness reads it, once per session; each edit
// tool's call one edit event with its path (a failed one changes nothing); the gate's answers of the
// whole session replayed on the memory they met: the sixth run and every respelled form refused, the
// run after a fix warned, the ask after the spent change budget refused with what the user can do,
// the session's mode told from what the hook saw (the harness's environment, its process).
// VS Code (1.139.1, its agent mode in code-server) runs Copilot's entries of .github/hooks for most
// events (`hook` in the fixture): its terminal runs are recorded by the extension, the hook hands over
// their output. Plus VS Code's documented payloads (its docs' examples).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { HARNESSES, type HarnessId, type HookEvent } from '../../src/agents/hooks';
import { REFUSED_MARKER } from '../../src/agents/hooks/cline';
import { readMemoryFull, recordHookDecision, recordHookEdits, recordHookResult } from '../../src/agents/hooks/record';
import type { HookRecord } from '../../src/app/hookRecord';
import { callKey } from '../../src/agents/hooks/types';
import { claimAgentRun, handedOutput, shortName } from '../../src/store/agentRuns';
import { memoryDirFor } from '../../src/store/paths';
import { RULES_MARKER } from '../../src/app/agentRules';
import { runHook } from '../../src/agents/hooks/runner';
import { sessionMode } from '../../src/agents/hooks/sessionMode';
import { CHANGE_BUDGET } from '../../src/core/rules/policy';

const FIXTURES = resolve(__dirname, '../fixtures/hooks');

interface RealFixture {
  $doc: string;
  harness: HarnessId;
  /** The hook that ran, when the program runs another harness's entry (VS Code runs Copilot's). */
  hook?: HarnessId;
  version: string;
  event: HookEvent;
  payload: Record<string, unknown>;
  expect: {
    command?: string;
    exitCode?: number;
    outputIncludes?: string;
    recorded?: false;
    /** An edit tool's call: the edit events it makes, and the workspace's files before it. */
    edits?: Array<{ path: string; ok: boolean }>;
    files?: Record<string, string>;
    /** The gate's answer that call met in the suite, as this harness was given it. */
    decision?: 'ask' | 'warn' | 'deny';
    /** The decision was an ask (refused: no one could be asked). */
    asked?: boolean;
  };
  transcript?: unknown[];
  /** Codex's first transcript line (how the session was started), without its instructions. */
  sessionMeta?: unknown;
  /** What the hook saw of the session: the harness's CLAUDE_CODE_ENTRYPOINT, its process's command line and stdin. */
  session?: { env: Record<string, string>; argv: string[]; tty: boolean };
}

function realFixtures(): Array<{ name: string; f: RealFixture }> {
  const out: Array<{ name: string; f: RealFixture }> = [];
  for (const h of readdirSync(FIXTURES)) {
    for (const dir of readdirSync(join(FIXTURES, h)).filter(d => d.startsWith('real-'))) {
      for (const file of readdirSync(join(FIXTURES, h, dir)).filter(f => f.endsWith('.json') && f !== 'one-call-two-hooks.json')) {
        out.push({ name: `${h}/${dir}/${file}`, f: JSON.parse(readFileSync(join(FIXTURES, h, dir, file), 'utf8')) as RealFixture });
      }
    }
  }
  return out;
}

function workspace(): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'fm-real-')));
  mkdirSync(join(ws, '.git'));
  return ws;
}

/** {{ROOT}} → the workspace; Codex's transcript lines into a file of their own. */
function payloadFor(f: RealFixture, ws: string): Record<string, unknown> {
  const p = JSON.parse(JSON.stringify(f.payload).replaceAll('{{ROOT}}', ws)) as Record<string, unknown>;
  if (f.transcript || f.sessionMeta) {
    const file = join(ws, 'transcript.jsonl');
    const first = f.sessionMeta ? JSON.stringify(f.sessionMeta).replaceAll('{{ROOT}}', ws) : '{"type":"session_meta"}';
    writeFileSync(file, `${first}\n${(f.transcript ?? []).map(l => JSON.stringify(l)).join('\n')}\n`);
    p.transcript_path = file;
  }
  return p;
}

/** The session's mode as the hook read it in the suite: from what the fixture says the hook saw (nothing: unknown). */
const modeOf = (f?: RealFixture) => (h: HarnessId, env: NodeJS.ProcessEnv) =>
  f?.session ? sessionMode(h, { ...env, ...f.session.env }, () => ({ argv: f.session!.argv, tty: f.session!.tty, ppid: 1 }), 2) : undefined;

const recorder = (f?: RealFixture) => {
  const records: HookRecord[] = [];
  return { records, opts: { record: async (r: HookRecord) => void records.push(r), readFull: readMemoryFull, env: {}, sessionMode: modeOf(f) } };
};

describe('payloads captured from the real harness programs', () => {
  const all = realFixtures();
  test('every harness that runs here has captured payloads, each naming its program and version', () => {
    assert.deepEqual([...new Set(all.map(x => x.f.harness))].sort(), ['claude', 'cline', 'codex', 'copilot', 'gemini', 'vscode']);
    for (const { name, f } of all) assert.ok(f.$doc.startsWith('Captured from ') && f.$doc.includes(`${f.version} (`), name);
  });

  const shellCall = (f: RealFixture) => !f.expect.edits && !f.expect.decision;
  for (const { name, f } of all.filter(x => x.f.event === 'pre' && shellCall(x.f))) {
    test(`${name}: the shell command is seen and, with nothing failed yet, let through`, async () => {
      const ws = workspace();
      const input = HARNESSES[f.hook ?? f.harness].parse('pre', payloadFor(f, ws), {});
      const commands = input.runs?.map(r => r.command) ?? [input.command];
      assert.ok(commands.some(c => c?.includes(f.expect.command!)), JSON.stringify(commands));
      const r = await runHook(f.hook ?? f.harness, 'pre', JSON.stringify(payloadFor(f, ws)), recorder(f).opts);
      assert.equal(r.exitCode, 0);
      assert.doesNotMatch(r.stdout, /deny|"cancel":true|overrideInput/);
    });
  }

  for (const { name, f } of all.filter(x => x.f.event === 'post' && shellCall(x.f))) {
    test(`${name}: recorded once with the exit code the harness reported, its wrapping off the output`, async () => {
      const ws = workspace();
      const { records, opts } = recorder();
      const r = await runHook(f.hook ?? f.harness, 'post', JSON.stringify(payloadFor(f, ws)), opts);
      assert.equal(r.exitCode, 0);
      if (f.expect.recorded === false) {
        const why = f.harness === 'vscode' ? 'the extension records it through shell integration' : `Cline's stand-in for a refused call (${REFUSED_MARKER}) is not a run`;
        assert.deepEqual(records, [], why);
        return;
      }
      assert.equal(records.length, 1);
      assert.ok(records[0].command.includes(f.expect.command!), records[0].command);
      assert.equal(records[0].exitCode, f.expect.exitCode);
      if (f.expect.outputIncludes) assert.ok(records[0].output.includes(f.expect.outputIncludes), records[0].output);
      assert.doesNotMatch(records[0].output, /<\/?untrusted_context>|^Output: |Process Group PGID|<shellId|\[Command exited|^\[(?:stdout|stderr)\]$/m);
    });
  }

  for (const { name, f } of all.filter(x => x.f.expect.edits)) {
    const what = f.expect.edits!.every(e => e.ok) ? 'one edit event with its path' : 'kept as changing nothing (ok: false)';
    test(`${name}: an edit by the harness's own tool, ${what}`, async () => {
      const ws = workspace();
      for (const [file, text] of Object.entries(f.expect.files ?? {})) {
        mkdirSync(dirname(join(ws, file)), { recursive: true });
        writeFileSync(join(ws, file), text);
      }
      const opts = { record: recordHookResult, readFull: readMemoryFull, recordEdits: recordHookEdits, env: {} };
      const r = await runHook(f.harness, f.event, JSON.stringify(payloadFor(f, ws)), opts);
      assert.equal(r.exitCode, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /deny|"cancel":true/);
      const data = await readMemoryFull(ws);
      assert.deepEqual(data.edits?.map(e => ({ path: e.path, ok: e.ok })), f.expect.edits);
      assert.deepEqual(Object.keys(data.approaches), [], 'an edit is not a command run');
    });
  }

  const ERR = "FAIL test/pad.test.js\n  ● Test suite failed to run\n\n    Error: Cannot find module 'left-pad' from 'src/pad.js'";
  const fail = (ws: string) => recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: ERR });
  const fix = (ws: string, h: string) => recordHookEdits({ workspace: ws, edits: [{ path: join(ws, 'src', 'pad.js'), ok: true, tool: 'Edit' }], via: h });
  /** The memory the call met in the suite: five failures; then a fix (the run after it), or the change budget's fixes each followed by the same failure and one more fix (the ask). */
  async function stateFor(f: RealFixture, ws: string): Promise<void> {
    mkdirSync(join(ws, 'src'));
    // the suite's project: its test script is jest
    writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'demo', private: true, scripts: { test: 'jest' } }));
    for (let i = 0; i < 5; i++) await fail(ws);
    if (f.expect.decision === 'warn') await fix(ws, f.harness);
    if (f.expect.asked) {
      for (let i = 0; i < CHANGE_BUDGET; i++) {
        await fix(ws, f.harness);
        await fail(ws);
      }
      await fix(ws, f.harness);
    }
  }
  /** What the harness's model reads of a pre hook's answer: the reason of a deny or an ask (Cline's stand-in command decoded), or its context. */
  const refusalOf = (r: { stdout: string; stderr: string }) => {
    let j: Record<string, unknown> = {};
    try {
      j = JSON.parse(r.stdout) as Record<string, unknown>;
    } catch {
      return `${r.stdout}${r.stderr}`;
    }
    const hso = (j.hookSpecificOutput ?? {}) as Record<string, unknown>;
    const standIn = ((j.overrideInput as { commands?: string[] } | undefined)?.commands ?? [])[0];
    const decoded = standIn && /printf '%s\\n' ('(?:[^']|'\\'')*') >&2/.exec(standIn)?.[1].slice(1, -1).replace(/'\\''/g, "'");
    return [hso.permissionDecisionReason, hso.additionalContext, j.permissionDecisionReason, j.additionalContext, j.reason, j.systemMessage, j.errorMessage, j.contextModification, decoded, r.stderr, j.decision, hso.permissionDecision, j.permissionDecision]
      .filter(x => typeof x === 'string' && x)
      .join('\n');
  };

  for (const { name, f } of all.filter(x => x.f.expect.decision)) {
    const what = f.expect.asked ? 'the ask after the change budget, refused (no one to ask)' : f.expect.decision === 'warn' ? 'the run after a fix, warned' : 'refused (exhausted, nothing changed)';
    test(`${name}: \`${f.expect.command}\` as the suite met it: ${what}`, async () => {
      const ws = workspace();
      await stateFor(f, ws);
      const opts = { record: recordHookResult, readFull: readMemoryFull, recordDecision: recordHookDecision, env: { HOME: ws, PATH: '' }, sessionMode: modeOf(f) };
      const r = await runHook(f.hook ?? f.harness, 'pre', JSON.stringify(payloadFor(f, ws)), opts);
      const said = refusalOf(r);
      if (f.expect.decision === 'warn') {
        assert.match(said, /Failure Memory \(warning\): ⟦npm test⟧ is exhausted/);
        assert.doesNotMatch(said, /NOT RUN|"cancel":true|overrideInput|"deny"/);
        return;
      }
      if (f.expect.decision === 'ask') {
        // a person is there (VS Code): asked, with the gate's reason
        assert.match(said, /^Failure Memory: ⟦npm test⟧ failed \d+ times in a row[^\n]*\nWhy \(same-error-after-change\)/);
        assert.match(said, /^ask$/m);
        assert.doesNotMatch(said, /If no one can answer this/, 'a person is there: nothing about a headless run');
        return;
      }
      if (f.expect.asked) {
        const headless = f.harness !== 'cline';
        assert.match(said, headless ? /NOT RUN — ⟦npm test⟧ needs a person's decision[^\n]*no one can be asked in this headless session/ : /NOT RUN — ⟦npm test⟧ needs a person's decision[^\n]*this harness cannot put the question to the user/);
        assert.match(said, /Stop and ask the user whether it should run once more[^\n]*failure-memory allow --command 'npm test'/);
        const d = (await readMemoryFull(ws)).decisions ?? [];
        assert.deepEqual(d.map(x => [x.policy, x.decision]).at(-1), ['ask', 'deny']);
        return;
      }
      assert.match(said, /NOT RUN/, `${f.expect.command} is refused`);
      assert.doesNotMatch(said, /\bask\b$/m, 'refused, not asked');
    });
  }

  for (const { name, f } of all.filter(x => x.f.event === 'session-start' || x.f.event === 'prompt')) {
    test(`${name}: the failure summary goes where this harness reads it`, async () => {
      const ws = workspace();
      for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'" });
      if (f.harness === 'cline') {
        mkdirSync(join(ws, '.clinerules'));
        writeFileSync(join(ws, '.clinerules', 'failure-memory.md'), `${RULES_MARKER}\n# Failure Memory\n\nold\n`);
      }
      const r = await runHook(f.hook ?? f.harness, f.event, JSON.stringify(payloadFor(f, ws)), recorder().opts);
      assert.equal(r.exitCode, 0);
      // Cline CLI ignores a TaskStart hook's context and reads its rules file: the summary is there, and only there
      const where = f.harness === 'cline' ? readFileSync(join(ws, '.clinerules', 'failure-memory.md'), 'utf8') : r.stdout;
      assert.match(where, /EXHAUSTED: ⟦npm test⟧[^\n]*, 5 failure\(s\) — last error ⟦Error: Cannot find module 'left-pad'⟧/);
      if (f.harness === 'cline') assert.doesNotMatch(r.stdout, /Failure Memory for this workspace/);
    });
  }

  // a session's start and its first prompt, as each harness sent them (one session id): the summary once
  const pairs = [...new Set(all.filter(x => x.f.event === 'session-start').map(x => x.f.harness))]
    .map(h => [all.find(x => x.f.harness === h && x.f.event === 'session-start')!, all.find(x => x.f.harness === h && x.f.event === 'prompt')] as const)
    .filter(([, prompt]) => prompt);
  for (const [start, prompt] of pairs) {
    test(`${start.f.harness}: its session start gives the summary, its first prompt in the same session does not (once per session, whichever runs first)`, async () => {
      const ws = workspace();
      for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'" });
      const a = await runHook(start.f.hook ?? start.f.harness, 'session-start', JSON.stringify(payloadFor(start.f, ws)), recorder().opts);
      const b = await runHook(prompt!.f.hook ?? prompt!.f.harness, 'prompt', JSON.stringify(payloadFor(prompt!.f, ws)), recorder().opts);
      assert.match(a.stdout, /Failure Memory for this workspace/);
      assert.doesNotMatch(b.stdout, /Failure Memory for this workspace/);
      // the start again: nothing; a restart of the session (resumed, compacted) gives it again; another session's prompt too
      const twice = await runHook(start.f.hook ?? start.f.harness, 'session-start', JSON.stringify(payloadFor(start.f, ws)), recorder().opts);
      assert.doesNotMatch(twice.stdout, /Failure Memory for this workspace/);
      const resumed = { ...payloadFor(start.f, ws), source: 'resume' };
      assert.match((await runHook(start.f.hook ?? start.f.harness, 'session-start', JSON.stringify(resumed), recorder().opts)).stdout, /Failure Memory for this workspace/);
      const other = JSON.stringify(payloadFor(prompt!.f, ws)).replace(/("session_?[iI]d":")[^"]+/, '$1another-session');
      assert.match((await runHook(prompt!.f.hook ?? prompt!.f.harness, 'prompt', other, recorder().opts)).stdout, /Failure Memory for this workspace/);
    });
  }

  test('copilot/real-1.0.102/one-call-two-hooks.json: Copilot CLI runs its own hook and .claude/settings.json\'s for one call: one record, the failure', async () => {
    const f = JSON.parse(readFileSync(join(FIXTURES, 'copilot', 'real-1.0.102', 'one-call-two-hooks.json'), 'utf8')) as { copilotPayload: object; claudePayload: object };
    const ws = workspace();
    const fill = (p: object) => JSON.stringify(p).replaceAll('{{ROOT}}', ws);
    const opts = { record: recordHookResult, readFull: readMemoryFull, env: {} };
    await runHook('copilot', 'post', fill(f.copilotPayload), opts);
    await runHook('claude', 'post', fill(f.claudePayload), opts);
    const a = (await readMemoryFull(ws)).approaches['.::bash build.sh'];
    assert.deepEqual(a.attempts.map(x => x.exitCode), [1]);
    // each alone (a repository set up for one of them) records the failure too
    for (const [h, p] of [['copilot', f.copilotPayload], ['claude', f.claudePayload]] as const) {
      const one = workspace();
      await runHook(h, 'post', JSON.stringify(p).replaceAll('{{ROOT}}', one), opts);
      assert.deepEqual((await readMemoryFull(one)).approaches['.::bash build.sh'].attempts.map(x => [x.exitCode, x.output]), [[1, "Error: Cannot find module 'left-pad'"]], h);
    }
  });
});

describe('VS Code 1.139.1: its agent terminal runs, recorded by the extension with the output the hooks hand over', () => {
  const real = (name: string, ws: string) => {
    const f = JSON.parse(readFileSync(join(FIXTURES, 'vscode', 'real-1.139.1', `${name}.json`), 'utf8')) as RealFixture;
    return { f, text: JSON.stringify(f.payload).replaceAll('{{ROOT}}', ws), payload: JSON.parse(JSON.stringify(f.payload).replaceAll('{{ROOT}}', ws)) as Record<string, unknown> };
  };
  const idOf = (p: Record<string, unknown>) => shortName(callKey(p.session_id, p.tool_use_id, p.timestamp)!);

  for (const [post, output] of [['post-failure', "Error: Cannot find module 'left-pad'"], ['post-success', '']] as const) {
    test(`${post}: the pre hook expects the run, the post hook hands its output (VS Code's own notes off) to the terminal's record`, async () => {
      const ws = workspace();
      const pre = real('pre', ws);
      const p = real(post, ws);
      // the same call in both (VS Code names it by tool_use_id); the fixture's pre is build.sh's
      p.payload.tool_use_id = pre.payload.tool_use_id;
      const command = (p.payload.tool_input as { command: string }).command;
      (pre.payload.tool_input as { command: string }).command = command;
      const { records, opts } = recorder();
      await runHook(pre.f.hook!, 'pre', JSON.stringify(pre.payload), opts);
      const id = claimAgentRun(memoryDirFor(ws), command, Date.now() - 1000);
      assert.equal(id, idOf(pre.payload), 'the terminal watcher finds the call that ran this command');
      await runHook(p.f.hook!, 'post', JSON.stringify(p.payload), opts);
      assert.deepEqual(records, [], 'never recorded by the hook: one run, one record');
      assert.equal(handedOutput(memoryDirFor(ws), id!), output);
    });
  }

  test('a second window cannot claim the same run; a command nobody expected is left to the terminal alone', async () => {
    const ws = workspace();
    const pre = real('pre', ws);
    await runHook(pre.f.hook!, 'pre', pre.text, recorder().opts);
    assert.equal(claimAgentRun(memoryDirFor(ws), 'bash ok.sh', Date.now() - 1000), undefined);
    assert.ok(claimAgentRun(memoryDirFor(ws), '  bash   build.sh ', Date.now() - 1000), 'the shell integration\'s whitespace aside, the same line');
    assert.equal(claimAgentRun(memoryDirFor(ws), 'bash build.sh', Date.now() - 1000), undefined);
  });

  test('the pre hook waits while the terminal records the run before: the fifth failure, recorded meanwhile, is seen (deny)', async () => {
    const ws = workspace();
    for (let i = 0; i < 4; i++) await recordHookResult({ workspace: ws, command: 'bash build.sh', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'" });
    // the fifth run ended: the watcher claimed its call and is recording it
    const first = real('pre', ws);
    await runHook(first.f.hook!, 'pre', first.text, recorder().opts);
    const id = claimAgentRun(memoryDirFor(ws), 'bash build.sh', Date.now() - 1000)!;
    const next = real('pre', ws);
    next.payload.tool_use_id = 'call_next';
    // started before the record: whenever it looks, the run is still being recorded until .ended goes
    const answer = runHook(next.f.hook!, 'pre', JSON.stringify(next.payload), recorder().opts);
    await recordHookResult({ workspace: ws, command: 'bash build.sh', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'" });
    rmSync(join(memoryDirFor(ws), 'agent-runs', `${id}.ended`));
    const r = await answer;
    assert.match(r.stdout, /"permissionDecision":"deny"/, r.stdout);
  });

  test('UserPromptSubmit (snake_case, as VS Code really sends it) gets the summary; Copilot CLI running the same entry does not (its own entry gives it)', async () => {
    const ws = workspace();
    for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'bash build.sh', cwd: '.', exitCode: 1, output: "Error: Cannot find module 'left-pad'" });
    const prompt = real('prompt', ws);
    assert.equal(prompt.f.hook, undefined, 'VS Code runs our UserPromptSubmit entry: the vscode adapter');
    const vscode = await runHook('vscode', 'prompt', prompt.text, recorder().opts);
    assert.match(JSON.parse(vscode.stdout).hookSpecificOutput.additionalContext, /EXHAUSTED: ⟦bash build\.sh⟧/);
    const copilotCli = await runHook('vscode', 'prompt', prompt.text, { ...recorder().opts, env: { COPILOT_CLI: '1' } });
    assert.equal(copilotCli.stdout, '');
  });
});

describe("VS Code's documented payloads (its docs' examples)", () => {
  const doc = (name: string, vars: Record<string, string>) => {
    const f = JSON.parse(readFileSync(join(FIXTURES, 'vscode', `${name}.json`), 'utf8')) as { payload: object };
    return JSON.stringify(f.payload).replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars[k] ?? '');
  };

  test('PostToolUse: the terminal output as a string, no exit code: unknown, and left to shell integration (one run, one record)', async () => {
    const ws = workspace();
    const payload = doc('post-terminal-output', { CWD: ws, COMMAND: 'npm run build', OUTPUT: 'npm ERR! Missing script: build' });
    const input = HARNESSES.vscode.parse('post', JSON.parse(payload) as Record<string, unknown>, {});
    assert.equal(input.result?.exitCode, null, 'a string response says no exit code');
    assert.equal(input.recordedElsewhere, true);
    const { records, opts } = recorder();
    assert.deepEqual(await runHook('vscode', 'post', payload, opts), { exitCode: 0, stdout: '', stderr: '' });
    assert.deepEqual(records, []);
  });

  test("the docs' runTerminalCommand is the terminal tool too: an exhausted command is refused", async () => {
    const ws = workspace();
    for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'npm run build', cwd: '.', exitCode: 1, output: 'npm ERR! Missing script: "build"' });
    const r = await runHook('vscode', 'pre', doc('pre-run-terminal-command', { CWD: ws, COMMAND: 'npm run build' }), recorder().opts);
    const j = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; hookEventName: string } };
    assert.equal(j.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(j.hookSpecificOutput.hookEventName, 'PreToolUse');
  });

  test('its events are its own: no userPromptSubmitted, no PostToolUseFailure', () => {
    assert.deepEqual(Object.values(HARNESSES.vscode.nativeEvents), ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit']);
  });
});
