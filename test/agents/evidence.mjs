// Edits as evidence and the graded answer, in the real harness programs (run by ./run.mjs):
// - an edit made by each harness's own edit tool (every tool it offers, per model family) becomes one
//   edit event in memory with the file's path; an edit that did not apply never counts as a change;
// - the gate's ask (the same error through the whole budget although files changed): where the harness
//   can ask and runs headless (`claude -p` with bypass permissions, `copilot -p`), what the harness
//   does with it; where it cannot ask, a warning the agent or the user reads while the call goes on,
//   and a deny in a session known to be headless (`codex exec`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EDIT_VARIANTS, HARNESSES } from './harnesses.mjs';
import { startMockModel } from './mockModel.mjs';
import { approachOf, cleanup, CLEAR, FAILING, memoryOf, runsLogged, session, setupAgents, tempRoot, THRESHOLD, VARIANTS, workspace } from './session.mjs';

/** A scenario's temp folders and mock, kept for inspection when it fails. */
async function inWorkspace(name, t, body) {
  const { root, home } = tempRoot(name);
  const ws = workspace(root);
  const mock = await startMockModel();
  let ok = false;
  try {
    await body({ ws, home, mock });
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

/** The harness's tools for this variant (its defaults unless the variant names others). */
const toolsOf = v => ({ ...HARNESSES[v.id], ...(v.edit ? { edit: v.edit, write: v.write } : {}) });

/** A write, an edit, and an edit whose old text is not there: two edit events, the third changes nothing. */
async function editLands(v, t) {
  await inWorkspace(`${v.id}-edit`, t, async ({ ws, home, mock }) => {
    const h = toolsOf(v);
    setupAgents(ws, home, [v.id]);
    HARNESSES[v.id].configure({ home, ws, url: mock.url, model: v.model });
    const file = path.join(ws, 'notes.txt');
    const script = [h.write(file, 'alpha'), h.edit(file, 'alpha', 'beta'), h.edit(file, 'gamma', 'delta')];
    const s = await session(v.id, { ws, home, mock, script, prompt: 'Write the notes.', model: v.model, tag: `edit-${v.tools.replace(/\W+/g, '-')}` });
    assert.equal(s.code, 0, s.log);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), 'beta', `the write then the edit reached the file\n${s.log}`);
    const edits = memoryOf(ws).edits ?? [];
    t.diagnostic(`${HARNESSES[v.id].title} (${v.tools}): ${JSON.stringify(edits.map(e => [e.path, e.ok, e.tool]))}`);
    assert.deepEqual(edits.filter(e => e.ok).map(e => [e.path, e.source]), [['notes.txt', 'agent'], ['notes.txt', 'agent']], `each applied edit lands once, with its path\n${JSON.stringify(edits)}\n${s.log}`);
    assert.ok(edits.length <= 3 && edits.slice(2).every(e => !e.ok), `the edit that did not apply changes nothing (kept as ok: false, or not reported)\n${JSON.stringify(edits)}`);
  });
}

/**
 * What each harness gets in the ask case, and what it does with it (observed with the real programs;
 * docs/agents.md says the same). `decision`: what the decision log says the harness was given.
 */
const ASK_OUTCOMES = {
  // Claude Code -p, bypass permissions: the ask is a permission denial, the reason the tool's error
  claude: { decision: 'ask', runs: false, model: /Allow it to run once more, or deny it/ },
  // Copilot CLI -p: "Denied by preToolUse hook (unable to ask user for confirmation): <reason>"
  copilot: { decision: 'ask', runs: false, model: /Denied by preToolUse hook \(unable to ask user for confirmation\)[^"]*same-error-after-change/ },
  // codex exec: no ask in Codex; its transcript says the session is headless: denied, the agent told why
  codex: { decision: 'deny', runs: false, model: /no one can be asked in this headless session/ },
  // Gemini CLI -p: its BeforeTool "ask" would wait for an answer forever; the user reads the warning
  gemini: { decision: 'warn', runs: true, output: /Failure Memory \(warning\): `bash build\.sh` failed 5 times in a row/ },
  // Cline CLI: no ask; the warning reaches the model through contextModification
  cline: { decision: 'warn', runs: true, model: /Failure Memory \(warning\): `bash build\.sh` failed 5 times in a row/ },
};

/**
 * Five failures with the same error and an edit before the last two, then the run after another edit:
 * the loop shape outlasted the whole budget although files changed, so a person decides (ask).
 */
async function askAfterEdits(id, t) {
  await inWorkspace(`${id}-ask`, t, async ({ ws, home, mock }) => {
    const h = HARNESSES[id];
    setupAgents(ws, home, [id]);
    h.configure({ home, ws, url: mock.url });
    const fix = n => h.write(path.join(ws, `fix${n}.txt`), `attempt ${n}`);
    const fails = VARIANTS.slice(0, THRESHOLD).map((c, i) => h.shell(c, i + 1));
    const script = [...fails.slice(0, THRESHOLD - 1), fix(1), fails[THRESHOLD - 1], fix(2), h.shell(FAILING, THRESHOLD + 1), h.shell(CLEAR, THRESHOLD + 2)];
    const s = await session(id, { ws, home, mock, script, tag: 'ask' });
    assert.equal(s.code, 0, s.log);
    const want = ASK_OUTCOMES[id];
    const memory = memoryOf(ws);
    await t.test('the edits between the failures are edit events, once each', () => {
      assert.deepEqual((memory.edits ?? []).map(e => [e.path, e.ok]), [['fix1.txt', true], ['fix2.txt', true]]);
    });
    await t.test(`the gate's ask: ${want.runs ? 'the call goes on with a warning' : 'the command does not run'}, and the decision log says so`, () => {
      const d = (memory.decisions ?? []).at(-1);
      assert.ok(d, `no decision logged\n${s.log}`);
      assert.deepEqual([d.policy, d.code, d.decision, d.via], ['ask', 'same-error-after-change', want.decision, `hook:${id}`]);
      assert.equal(runsLogged(ws), want.runs ? THRESHOLD + 1 : THRESHOLD, `build.sh ran ${runsLogged(ws)} times`);
      if (want.runs) assert.equal(approachOf(ws, FAILING).failures, THRESHOLD + 1, 'the run that went on is recorded');
      assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), 'the agent goes on');
    });
    await t.test(`the reason reaches ${want.model ? 'the model' : 'the user'}`, () => {
      if (want.model) {
        const after = s.agentRequests.find(q => q.step === THRESHOLD + 3);
        assert.ok(after, `no model request after the sixth run\n${s.log}`);
        assert.match(JSON.stringify(after.body), want.model);
      }
      if (want.output) assert.match(s.stdout + s.stderr, want.output, s.log);
    });
  });
}

export const evidenceScenarios = [
  ...EDIT_VARIANTS.map(v => ({ name: `${HARNESSES[v.id].title}: an edit by ${v.tools} is one edit event with its path`, harnesses: [v.id], run: t => editLands(v, t) })),
  ...Object.keys(ASK_OUTCOMES).map(id => ({ name: `${HARNESSES[id].title}: the gate's ask after edits between failures`, harnesses: [id], run: t => askAfterEdits(id, t) })),
];
