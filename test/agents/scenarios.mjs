// The scenarios of the agents suite (run by ./run.mjs): a whole session per harness on projects set up
// only by `failure-memory setup-agents` (the loop stopped, the fix verified, the respelled loop
// stopped, the summary once), one for a repository set up for two harnesses whose hooks both fire for
// one call, one for a machine without the launcher (the gate says it is off), edits and the gate's ask
// per harness (./evidence.mjs), and team memory through two clones.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HARNESSES } from './harnesses.mjs';
import { evidenceScenarios } from './evidence.mjs';
import { causeScenarios } from './causes.mjs';
import { startMockModel } from './mockModel.mjs';
import { approachOf, cleanup, CLEAR, cliJson, failInTerminal, FAILING, memoryOf, newAt, npmWorkspace, requestAt, RIGHT_FIX, runsLogged, scriptOf, session, setupAgents, snippetAt, summariesInFirstRequest, tempRoot, TEST, THRESHOLD, VARIANTS, workspace, WRONG_FIX } from './session.mjs';

/** Seven runs of the failing suite, by flags an agent varies (a harness's own guard stops byte-identical calls first). */
export const SEVEN = ['npm test', 'npm test -- --verbose', 'npm test -- --ci', 'npm test -- --bail', 'npm test -- --silent', 'npm test -- --runInBand', 'npm test'];
/** The suite respelled and chained, in a project exhausted with nothing changed since (the package's script is `jest`). */
export const RESPELLED = ['npm run test', 'npm t', '{ npm test; }', 'npm test && git status', 'npm test; echo done', 'echo npm test | bash', 'npx jest'];

/**
 * Where each harness shows the model the gate's warning (the command runs): its pre hook's context,
 * or (Gemini CLI) its post hook's, with the result of the call.
 */
export const WARNING_SHOWN = {
  claude: /PreToolUse:Bash hook additional context: Failure Memory \(warning\)/,
  codex: /"role":"developer","content":\[\{"type":"input_text","text":"Failure Memory \(warning\)/,
  gemini: /<hook_context>Failure Memory \(warning\)/,
  copilot: /Additional context from preToolUse hook:\\nFailure Memory \(warning\)/,
  cline: /<hook_context source=\\"PreToolUse\\"[^>]*>\\nFailure Memory \(warning\)/,
};

/** Fixes that change src/pad.js and not its error (it still requires left-pad): one more than the change budget. */
/** The change budget of the gate's policy (src/core/rules/policy.ts): changes in a row that each ended in the same error before a person decides. */
const { CHANGE_BUDGET = 3 } = await (await import('tsx/esm/api')).tsImport('../../src/core/rules/policy.ts', import.meta.url);
const tried = n => `${WRONG_FIX[1]}${n > 1 ? ` // try ${n}` : ''}`;
// whole lines: a patch tool (Codex's, Cline's apply_patch) replaces lines, and a patch whose line is not there changes nothing
export const FUTILE_FIXES = [WRONG_FIX, ...Array.from({ length: CHANGE_BUDGET }, (_, i) => [tried(i + 1), tried(i + 2)])];

/** Where each harness shows the model the refusal of an ask no one can answer in its headless session. */
export const ASK_SHOWN = {
  claude: /"tool_result","content":"Failure Memory: NOT RUN — ⟦npm test⟧ needs a person's decision[^"]*no one can be asked in this headless session/,
  codex: /Command blocked by PreToolUse hook: Failure Memory: NOT RUN — ⟦npm test⟧ needs a person's decision[^"]*no one can be asked in this headless session/,
  gemini: /Tool execution blocked: Failure Memory: NOT RUN — ⟦npm test⟧ needs a person's decision[^"]*no one can be asked in this headless session/,
  copilot: /Denied by preToolUse hook: Failure Memory: NOT RUN — ⟦npm test⟧ needs a person's decision[^"]*no one can be asked in this headless session/,
  cline: /\[stderr\]\\\\nFailure Memory: NOT RUN — ⟦npm test⟧ needs a person's decision[^"]*this harness cannot put the question to the user/,
};

/**
 * A whole session in one harness, on an npm project set up only by setup-agents: the failing suite run
 * seven times runs five (the sixth and seventh refused, the model told why); a wrong fix with the
 * harness's own edit tool, then the suite (it runs, warned); the right fix, then the suite (it runs,
 * passes and clears the block); the next session is not told it is blocked. Then, in a second project
 * exhausted from the terminal with nothing changed since, the suite respelled and chained never runs,
 * and the session's first request carries the summary once, current although no hook recorded it.
 */
async function harnessSession(id, t) {
  const { root, home } = tempRoot(id);
  const ws = npmWorkspace(root);
  const mock = await startMockModel();
  const h = HARNESSES[id];
  let ok = false;
  try {
    const out = setupAgents(ws, home, [id]);
    assert.match(out, /launcher .*failure-memory: written/, 'setup-agents writes the launcher on a machine without one');
    h.configure({ home, ws, url: mock.url });
    const pad = path.join(ws, 'src', 'pad.js');
    const { script, after } = scriptOf(call => {
      SEVEN.forEach((c, i) => call(`run${i + 1}`, h.shell(c, i + 1)));
      call('wrongFix', ...(h.beforeEdit?.(pad) ?? []), h.edit(pad, ...WRONG_FIX));
      call('afterWrongFix', h.shell(TEST, 8));
      call('rightFix', h.edit(pad, ...RIGHT_FIX));
      call('afterRightFix', h.shell(TEST, 9));
      // after the pass: a new file written, and an edit whose old text is not there (it changes nothing)
      call('write', h.write(path.join(ws, 'NOTES.md'), 'left-pad is not a dependency'));
      call('failedEdit', h.edit(pad, 'no such line', 'x'));
    });
    const first = await session(id, { ws, home, mock, script, tag: 'session' });
    t.diagnostic(`${h.title} session 1: ${first.ms} ms, ${first.agentRequests.length} model requests`);
    assert.equal(first.code, 0, first.log);

    await t.test('seven runs of the failing suite run five times: the sixth and seventh are refused, and the model is told why', () => {
      assert.ok(runsLogged(ws) >= THRESHOLD, `the suite ran ${runsLogged(ws)} times\n${first.log}`);
      const a = approachOf(ws, TEST);
      assert.deepEqual(a?.ledger.slice(0, THRESHOLD).map(x => x.exitCode), Array(THRESHOLD).fill(1), `five failures: ${JSON.stringify(a?.ledger.map(x => x.exitCode))}`);
      assert.equal(a.ledger.length, runsLogged(ws), 'each run recorded exactly once');
      assert.ok(!/untrusted_context|^Output: |<shellId|\[Command exited/m.test(a.attempts[0].output ?? ''), `the harness's own wrapping is kept: ${JSON.stringify(a.attempts[0].output)}`);
      const refused = (memoryOf(ws).decisions ?? []).filter(d => d.decision === 'deny' && d.code === 'same-error-unchanged' && d.via === `hook:${id}`);
      assert.equal(refused.length, 2, `two refusals logged: ${JSON.stringify(memoryOf(ws).decisions)}`);
      for (const run of ['run6', 'run7']) assert.ok(newAt(first, after[run], /NOT RUN — ⟦npm test[^⟧]*⟧ is an exhausted approach/), `the model reads the refusal of ${run}\n${first.log}`);
    });
    await t.test('each edit by the harness\'s own tools is one edit event with its path; an edit that did not apply changes nothing', () => {
      const edits = memoryOf(ws).edits ?? [];
      t.diagnostic(`${h.title} (${h.tools}): ${JSON.stringify(edits.map(e => [e.path, e.ok, e.tool]))}`);
      assert.deepEqual(edits.filter(e => e.ok).map(e => [e.path, e.source]), [['src/pad.js', 'agent'], ['src/pad.js', 'agent'], ['NOTES.md', 'agent']], JSON.stringify(edits));
      assert.ok(edits.length <= 4 && edits.slice(3).every(e => !e.ok), `the edit that did not apply is kept as ok: false, or not reported\n${JSON.stringify(edits)}`);
      assert.equal(fs.readFileSync(path.join(ws, 'NOTES.md'), 'utf8').trim(), 'left-pad is not a dependency');
    });
    await t.test('a wrong fix with the harness\'s edit tool earns a run (warned), and a second fix another: it passes and clears the block', () => {
      assert.equal(runsLogged(ws), THRESHOLD + 2, `the suite ran after each fix (${runsLogged(ws)} runs)`);
      assert.deepEqual(approachOf(ws, TEST).ledger.slice(THRESHOLD).map(x => x.exitCode), [1, 0], 'the wrong fix failed, the right one passed');
      assert.notEqual(cliJson(ws, home, ['check', '--command', TEST]).status, 'exhausted', 'the pass cleared the block');
    });
    await t.test('a warning reaches the model, as this harness shows it: the same error again below the threshold, and the run after a fix', () => {
      assert.ok(newAt(first, after.run4, /Failure Memory \(warning\): ⟦npm test -- --bail⟧ failed 3 of 5 times in a row/), `the fourth run is warned\n${first.log}`);
      assert.match(requestAt(first, after.run4), WARNING_SHOWN[id]);
      t.diagnostic(`${h.title} shows a warning: …${snippetAt(first, after.run4, /Failure Memory \(warning\)/)}…`);
      assert.ok(newAt(first, after.afterWrongFix, /Failure Memory \(warning\): ⟦npm test⟧ is exhausted/), `the run after the wrong fix is warned\n${first.log}`);
    });

    const second = await session(id, { ws, home, mock, script: [], tag: 'next' });
    assert.equal(second.code, 0, second.log);
    await t.test('the next session is not told the suite is blocked', () => {
      assert.ok(second.agentRequests[0], `no model request\n${second.log}`);
      assert.doesNotMatch(JSON.stringify(second.agentRequests[0].body), /EXHAUSTED: `npm test/);
    });

    // a second project, exhausted from the user's terminal (no hook recorded it), nothing changed since
    const other = npmWorkspace(root, 'other');
    setupAgents(other, home, [id]);
    h.configure({ home, ws: other, url: mock.url });
    failInTerminal(other, home);
    // then fixes that change the file and not the error, each followed by the suite: the change budget
    // runs out, a person decides, and no one can be asked in a headless session
    const otherPad = path.join(other, 'src', 'pad.js');
    const { script: tries, after: triesAt } = scriptOf(call => {
      RESPELLED.forEach((c, i) => call(`form${i}`, h.shell(c, i + 1)));
      FUTILE_FIXES.forEach(([from, to], i) => {
        call(`fix${i + 1}`, ...(i === 0 ? (h.beforeEdit?.(otherPad) ?? []) : []), h.edit(otherPad, from, to));
        call(`run${i + 1}`, h.shell(TEST, 10 + i));
      });
      call('done', h.shell('echo done > done.marker', 20));
    });
    const forms = await session(id, { ws: other, home, mock, script: tries, tag: 'respelled' });
    assert.equal(forms.code, 0, forms.log);
    await t.test('a session starts with the summary once, current although no hook recorded the failures', () => {
      assert.equal(summariesInFirstRequest(forms), 1, `the summary, once\n${forms.log}`);
      assert.match(JSON.stringify(forms.agentRequests[0].body), /EXHAUSTED: ⟦npm test⟧[^\n]*Cannot find module 'left-pad'/);
    });
    // what ran, from what the model read back: the suite's own output (the refusal prints none of it)
    const ran = name => newAt(forms, triesAt[name], /Test suite failed to run/);
    await t.test('the suite respelled or chained does not run in a project exhausted with nothing changed', () => {
      assert.deepEqual(RESPELLED.filter((_, i) => ran(`form${i}`)), [], `none of them ran\n${forms.log}`);
      const told = RESPELLED.filter((_, i) => !newAt(forms, triesAt[`form${i}`], /NOT RUN/));
      assert.deepEqual(told, [], `the model is told why each one did not run\n${forms.log}`);
      // no run the model did not see: the suite's own count of its runs
      const seen = FUTILE_FIXES.filter((_, i) => ran(`run${i + 1}`)).length;
      assert.equal(runsLogged(other), THRESHOLD + seen, `the suite ran ${runsLogged(other) - THRESHOLD} times in this session, ${seen} of them after a fix`);
      assert.ok(fs.existsSync(path.join(other, 'done.marker')), 'the agent goes on');
    });
    await t.test('fixes that do not reach the error each earn a run, until the change budget is spent: then the ask, refused headless, tells the agent to stop and ask the user', () => {
      for (let i = 1; i < FUTILE_FIXES.length; i++) {
        assert.ok(ran(`run${i}`) && !newAt(forms, triesAt[`run${i}`], /NOT RUN/), `the run after fix ${i} ran (and failed the same way)\n${forms.log}`);
      }
      const d = (memoryOf(other).decisions ?? []).at(-1);
      assert.deepEqual([d?.policy, d?.decision, d?.via], ['ask', 'deny', `hook:${id}`], JSON.stringify(d));
      const after = triesAt[`run${FUTILE_FIXES.length}`];
      assert.ok(newAt(forms, after, /NOT RUN — ⟦npm test⟧ needs a person's decision/), `the refusal reaches the model\n${forms.log}`);
      assert.match(requestAt(forms, after), ASK_SHOWN[id]);
      assert.match(requestAt(forms, after), /Stop and ask the user whether it should run once more[^"]*allow --command 'npm test'/);
      t.diagnostic(`${h.title} shows the ask's refusal: …${snippetAt(forms, after, /NOT RUN — ⟦npm test⟧ needs a person's decision/)}…`);
    });
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/** Copilot CLI runs .claude/settings.json's hooks as well as its own (its edit tools as Write and Edit there): one call, one record. */
async function twoHarnessesOneCall(t) {
  const { root, home } = tempRoot('copilot-claude');
  const ws = workspace(root);
  const mock = await startMockModel();
  let ok = false;
  try {
    setupAgents(ws, home, ['claude', 'copilot']);
    const notes = path.join(ws, 'notes.txt');
    const script = [HARNESSES.copilot.shell(FAILING), HARNESSES.copilot.write(notes, 'alpha'), HARNESSES.copilot.edit(notes, 'alpha', 'beta')];
    const s = await session('copilot', { ws, home, mock, script, capture: false });
    assert.equal(s.code, 0, s.log);
    const a = approachOf(ws, FAILING);
    assert.ok(a, s.log);
    assert.deepEqual(a.attempts.map(x => x.exitCode), [1], 'one failing call: one failure, recorded once and not cleared by the second hook');
    assert.equal(a.failures, 1);
    assert.equal(runsLogged(ws), 1);
    assert.deepEqual((memoryOf(ws).edits ?? []).map(e => [e.path, e.tool]), [['notes.txt', 'create'], ['notes.txt', 'edit']], 'one edit call: one edit event');
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/**
 * A teammate without Failure Memory: the hooks let the agent go on and say so. `channel`: where this
 * harness shows it headless — its own output (Gemini CLI prints a hook's systemMessage), or only
 * the model's context (`codex exec` and `claude -p` print no hook message; their interactive UIs
 * show systemMessage), which the model is asked to pass on.
 */
async function launcherMissing(id, channel, t) {
  const { root, home } = tempRoot(`${id}-nolauncher`);
  const ws = workspace(root);
  const mock = await startMockModel();
  let ok = false;
  try {
    setupAgents(ws, home, [id]);
    fs.rmSync(path.join(home, '.failure-memory'), { recursive: true, force: true });
    HARNESSES[id].configure({ home, ws, url: mock.url });
    const s = await session(id, { ws, home, mock, script: [HARNESSES[id].shell(CLEAR)], prompt: 'Check the project.', capture: false });
    assert.equal(s.code, 0, s.log);
    assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), 'the agent goes on');
    const OFF = /the gate is OFF on this machine/;
    assert.match(JSON.stringify(s.agentRequests[0]?.body ?? {}), OFF, `the model is told the gate is off (and asked to tell the user)\n${s.log}`);
    if (channel === 'output') assert.match(s.stdout + s.stderr, OFF, `the user is told the gate is off\n${s.log}`);
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/**
 * Team memory through a real harness: two clones of one repository, one PostgreSQL (a throwaway
 * cluster on 127.0.0.1), Claude Code in each, nobody running `failure-memory sync`. The first agent's
 * failures are recorded by its hooks and pushed by the background sync; the second agent's next
 * session starts with them in its first model request, and with blockOnTeamFailures the failing
 * command never runs there. (Every harness's protocol for this is tested in test/integration/teamHooks.test.ts;
 * the waits are bounded polls for what the background sync delivers.)
 */
async function teamTwoClones(t) {
  const { tsImport } = await import('tsx/esm/api');
  const { startCluster, queryRows } = await tsImport('../support/pgCluster.ts', import.meta.url);
  const pg = await startCluster();
  const { root } = tempRoot('team');
  const mock = await startMockModel();
  const clone = name => {
    const home = path.join(root, `home-${name}`);
    const ws = workspace(path.join(root, name));
    spawnSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/agents-team.git'], { cwd: ws });
    fs.mkdirSync(home, { recursive: true });
    // the password where libpq (and Failure Memory) look for it; the URL in the workspace's settings has none
    fs.writeFileSync(path.join(home, '.pgpass'), `127.0.0.1:${pg.port}:postgres:${pg.user}:${pg.password}\n`, { mode: 0o600 });
    setupAgents(ws, home, ['claude']);
    const settings = team => fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'failureMemory.team.enabled': true, 'failureMemory.team.databaseUrl': pg.urlWithoutPassword, 'failureMemory.team.pullIntervalSeconds': 10, ...team }));
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    settings({});
    return { ws, home, settings };
  };
  const until = async (seconds, probe) => {
    for (const end = Date.now() + seconds * 1000; ;) {
      const v = await probe();
      if (v || Date.now() > end) return v;
      await new Promise(r => setTimeout(r, 500));
    }
  };
  let ok = false;
  try {
    const a = clone('a');
    const b = clone('b');
    const first = await session('claude', { ws: a.ws, home: a.home, mock, script: VARIANTS.slice(0, THRESHOLD).map((c, i) => HARNESSES.claude.shell(c, i + 1)), capture: false });
    assert.equal(first.code, 0, first.log);
    const pushed = await until(60, async () => Number((await queryRows(pg.url, "SELECT count(*) AS n FROM fm_attempts WHERE key = '.::bash build.sh'"))[0].n) === THRESHOLD);
    assert.ok(pushed, 'the background sync of the first clone pushed its five failures');
    // the second clone's agent works on something else; its hooks start the pull meanwhile
    const warmup = await session('claude', { ws: b.ws, home: b.home, mock, script: [HARNESSES.claude.shell(CLEAR)], capture: false });
    assert.equal(warmup.code, 0, warmup.log);
    const viewFile = path.join(b.ws, '.vscode', 'failure-memory', 'team-view.json');
    assert.ok(await until(60, () => fs.existsSync(viewFile) && fs.readFileSync(viewFile, 'utf8').includes('.::bash build.sh')), 'the second clone pulled the team view');
    b.settings({ 'failureMemory.team.blockOnTeamFailures': true });
    const second = await session('claude', { ws: b.ws, home: b.home, mock, script: [HARNESSES.claude.shell(FAILING)], capture: false });
    assert.equal(second.code, 0, second.log);
    await t.test('the next session of the second agent starts with the team\'s failure in its first model request', () => {
      assert.match(JSON.stringify(second.agentRequests[0]?.body ?? {}), /EXHAUSTED in the team: ⟦bash (\.\/)?build\.sh/);
    });
    await t.test('with blockOnTeamFailures the second agent\'s run of it is refused, and the model is told why', () => {
      assert.equal(runsLogged(b.ws), 0, 'build.sh never ran in the second clone');
      assert.ok(second.agentRequests.some(q => /NOT RUN — ⟦bash build\.sh⟧ is exhausted in your team/.test(JSON.stringify(q.body))), second.log);
    });
    ok = true;
  } finally {
    await mock.close();
    await pg.remove();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

export const scenarios = [
  ...Object.keys(HARNESSES).map(id => ({ name: `${HARNESSES[id].title}: a whole session (loop stopped, fix verified, respelled loop stopped)`, harnesses: [id], run: t => harnessSession(id, t) })),
  { name: 'Copilot CLI with Claude Code hooks in the same repository: one call, one record, one edit event', harnesses: ['copilot', 'claude'], run: t => twoHarnessesOneCall(t) },
  ...[['gemini', 'output'], ['codex', 'model'], ['claude', 'model'], ['copilot', 'model']].map(([id, channel]) => ({
    name: `${HARNESSES[id].title} without the launcher: the gate says it is off`,
    harnesses: [id],
    run: t => launcherMissing(id, channel, t),
  })),
  ...evidenceScenarios,
  ...causeScenarios,
  { name: 'Claude Code in two clones of one repository with team memory: the second agent sees and is refused what the first exhausted', harnesses: ['claude'], run: t => teamTwoClones(t) },
];
