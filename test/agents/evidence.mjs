// Edits as evidence, in the real harness programs (run by ./run.mjs): an edit made by the tools a
// harness offers other model families (Codex's apply_patch tool for models in its catalog, Cline's
// editor for models other than GPT) becomes one edit event in memory with the file's path; an edit
// that did not apply never counts as a change. (Each harness's default tools edit in its whole
// session, ./scenarios.mjs, with the gate's ask after fixes that did not reach the error.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EDIT_VARIANTS, HARNESSES } from './harnesses.mjs';
import { startMockModel } from './mockModel.mjs';
import { cleanup, memoryOf, session, setupAgents, tempRoot, workspace } from './session.mjs';

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

export const evidenceScenarios = [
  // the tools a harness offers other model families (its default tools edit in its whole session)
  ...EDIT_VARIANTS.filter(v => v.edit).map(v => ({ name: `${HARNESSES[v.id].title}: an edit by ${v.tools} is one edit event with its path`, harnesses: [v.id], run: t => editLands(v, t) })),
];
