// One cause across commands, in a real harness (run by ./run.mjs): three scripts refused by the same
// database on :5432, five runs in all (each script only failing once or twice on its own). The sixth
// call, of a script that failed once, is refused by the pre hook for the cause, and the reason that
// names the cause and the commands it broke reaches the model.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HARNESSES } from './harnesses.mjs';
import { startMockModel } from './mockModel.mjs';
import { cleanup, CLEAR, cliJson, memoryOf, runsLogged, session, setupAgents, tempRoot, THRESHOLD, workspace } from './session.mjs';

const REFUSED = 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused';
const SCRIPTS = ['db-test.sh', 'migrate.sh', 'seed.sh'];

async function causeAcrossCommands(id, t) {
  const { root, home } = tempRoot(`${id}-cause`);
  const ws = workspace(root);
  for (const s of SCRIPTS) fs.writeFileSync(path.join(ws, s), `echo run >> runs.log\necho '${REFUSED}' >&2\nexit 2\n`);
  const mock = await startMockModel();
  const h = HARNESSES[id];
  let ok = false;
  try {
    setupAgents(ws, home, [id]);
    h.configure({ home, ws, url: mock.url });
    const order = ['db-test.sh', 'migrate.sh', 'seed.sh', 'db-test.sh', 'migrate.sh', 'seed.sh'];
    const script = [...order.map((s, i) => h.shell(`bash ${s}`, i + 1)), h.shell(CLEAR, order.length + 1)];
    const s = await session(id, { ws, home, mock, script, prompt: 'Migrate and test the database.', tag: 'cause' });
    assert.equal(s.code, 0, s.log);
    const memory = memoryOf(ws);

    await t.test('five runs of three scripts are one cause: a systemic pattern', () => {
      const p = (memory.patterns ?? []).find(x => x.cause === 'conn_refused|localhost:5432');
      assert.ok(p, `no pattern record\n${JSON.stringify(memory.patterns)}\n${s.log}`);
      assert.deepEqual([p.failures, p.systemic, p.approaches.map(a => a.label)], [THRESHOLD, true, ['bash seed.sh', 'bash db-test.sh', 'bash migrate.sh']]);
    });
    await t.test('the sixth call, of a script that failed once, does not run: the cause stops it', () => {
      assert.equal(runsLogged(ws), THRESHOLD, `the scripts ran ${runsLogged(ws)} times (the gate must stop the ${THRESHOLD + 1}th)`);
      const d = (memory.decisions ?? []).at(-1);
      assert.deepEqual([d?.decision, d?.policy, d?.code, d?.via, d?.label], ['deny', 'deny', 'systemic-cause', `hook:${id}`, 'bash seed.sh']);
      assert.equal(cliJson(ws, home, ['check', '--command', 'bash migrate.sh']).code, 'systemic-cause');
    });
    await t.test('the model is told the cause and the commands it broke', () => {
      const after = s.agentRequests.find(q => q.step === order.length);
      assert.ok(after, `no model request after the refused call\n${s.log}`);
      const body = JSON.stringify(after.body);
      assert.match(body, /NOT RUN — ⟦bash seed\.sh⟧ in the workspace root fails on a cause that keeps failing other commands too/);
      assert.match(body, /the database at localhost:5432 refused 5 runs of 3 commands since/);
      assert.match(body, /it already broke 3 command\(s\)/);
    });
    await t.test('the agent goes on with another command', () => {
      assert.ok(fs.existsSync(path.join(ws, 'ok.marker')), `ok.sh did not run\n${s.log}`);
    });
    ok = true;
  } finally {
    await mock.close();
    if (ok) cleanup(root, t);
    else t.diagnostic(`left for inspection: ${root}`);
  }
}

export const causeScenarios = [{ name: `${HARNESSES.claude.title}: one cause across commands stops the next of them, and the model reads why`, harnesses: ['claude'], run: t => causeAcrossCommands('claude', t) }];
