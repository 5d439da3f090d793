// The scenarios of the agents suite (run by ./run.mjs): one per harness on a workspace set up only
// by `failure-memory setup-agents`, one for a repository set up for two harnesses whose hooks both
// fire for one call, one for a machine without the launcher (the gate says it is off), edits and the
// gate's ask per harness (./evidence.mjs), and team memory through two clones.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HARNESSES } from './harnesses.mjs';
import { evidenceScenarios } from './evidence.mjs';
import { startMockModel } from './mockModel.mjs';
import { approachOf, cleanup, CLEAR, cliJson, FAILING, memoryOf, runsLogged, session, setupAgents, tempRoot, THRESHOLD, VARIANTS, workspace } from './session.mjs';

/** The whole loop in one harness: record, exhaust, refuse, a clear command, the next session's context. */
async function harnessLoop(id, t) {
  const { root, home } = tempRoot(id);
  const ws = workspace(root);
  const mock = await startMockModel();
  const h = HARNESSES[id];
  let ok = false;
  try {
    const out = setupAgents(ws, home, [id]);
    assert.match(out, /launcher .*failure-memory: written/, 'setup-agents writes the launcher on a machine without one');
    h.configure({ home, ws, url: mock.url });

    const failing = VARIANTS.map((command, i) => h.shell(command, i + 1));
    const first = await session(id, { ws, home, mock, script: [...failing, h.shell(CLEAR)] });
    t.diagnostic(`${h.title} session 1: ${first.ms} ms, ${first.agentRequests.length} model requests`);
    assert.equal(first.code, 0, first.log);

    await t.test('each real failure is recorded exactly once, never cleared', () => {
      const a = approachOf(ws, FAILING);
      assert.ok(a, `no approach for ${FAILING} in memory.json\n${first.log}`);
      assert.deepEqual(a.attempts.map(x => x.exitCode), Array(THRESHOLD).fill(1), `attempts: ${JSON.stringify(a.attempts.map(x => ({ exit: x.exitCode, source: x.source })))}`);
      assert.equal(a.failures, THRESHOLD);
      assert.match(a.lastErrorSignature, /Cannot find module 'left-pad'/);
      assert.ok(!/untrusted_context|^Output: |<shellId|\[Command exited/m.test(a.attempts[0].output ?? ''), `the harness's own wrapping is kept: ${JSON.stringify(a.attempts[0].output)}`);
    });
    await t.test('the exhausted command never runs again, and the model is told why', () => {
      assert.equal(runsLogged(ws), THRESHOLD, `build.sh ran ${runsLogged(ws)} times (the gate must stop the ${THRESHOLD + 1}th)`);
      // the same error again with nothing changed since the last failure: the surest loop, denied by the hook
      // (read before the check below, which logs its own decision: by then ok.sh has changed the folder)
      const d = (memoryOf(ws).decisions ?? []).at(-1);
      assert.deepEqual([d?.decision, d?.policy, d?.code, d?.via], ['deny', 'deny', 'same-error-unchanged', `hook:${id}`]);
      const check = cliJson(ws, home, ['check', '--command', FAILING]);
      assert.equal(check.status, 'exhausted');
      const afterDeny = first.agentRequests.find(q => q.step === THRESHOLD + 1);
      assert.ok(afterDeny, `no model request after the refused call\n${first.log}`);
      assert.match(JSON.stringify(afterDeny.body), /NOT RUN/, 'the deny reason reaches the model');
    });
    await t.test('a clear command runs', () => {
      assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), `ok.sh did not run\n${first.log}`);
    });

    const second = await session(id, { ws, home, mock, script: [] });
    t.diagnostic(`${h.title} session 2: ${second.ms} ms`);
    assert.equal(second.code, 0, second.log);
    await t.test('the next session\'s first model request already carries the failure summary', () => {
      const firstRequest = second.agentRequests[0];
      assert.ok(firstRequest, `no model request\n${second.log}`);
      const seen = JSON.stringify(firstRequest.body);
      assert.ok(seen.includes(FAILING), 'the summary names the exhausted command');
      assert.ok(seen.includes("Cannot find module 'left-pad'"), 'the summary carries its last error');
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
      assert.match(JSON.stringify(second.agentRequests[0]?.body ?? {}), /EXHAUSTED in the team: `bash (\.\/)?build\.sh/);
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
  ...Object.keys(HARNESSES).map(id => ({ name: `${HARNESSES[id].title}: the gate in the real harness`, harnesses: [id], run: t => harnessLoop(id, t) })),
  { name: 'Copilot CLI with Claude Code hooks in the same repository: one call, one record, one edit event', harnesses: ['copilot', 'claude'], run: t => twoHarnessesOneCall(t) },
  ...[['gemini', 'output'], ['codex', 'model'], ['claude', 'model'], ['copilot', 'model']].map(([id, channel]) => ({
    name: `${HARNESSES[id].title} without the launcher: the gate says it is off`,
    harnesses: [id],
    run: t => launcherMissing(id, channel, t),
  })),
  ...evidenceScenarios,
  { name: 'Claude Code in two clones of one repository with team memory: the second agent sees and is refused what the first exhausted', harnesses: ['claude'], run: t => teamTwoClones(t) },
];
