// The judgement replay in process: each trajectory in a fresh in-memory memory, through the very
// code of `check` and `record` (the CLI's answers are compared command for command in
// test/integration/replay.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCorpus } from '../../src/replay/corpus';
import { relativeCwd, replayTrajectory } from '../../src/replay/replay';
import { InMemoryStore } from '../../src/store/inMemoryStore';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';

describe('replay', () => {
  test('unknown exit codes are recorded but never counted as failures', async () => {
    const { trajectories } = parseCorpus(
      JSON.stringify({ source: 's', commands: Array.from({ length: 8 }, () => ({ command: './maze_game.sh', exitCode: null, cwd: '/app', output: 'timed out' })) }),
    );
    const steps = await replayTrajectory(trajectories[0], { threshold: 3 });
    assert.ok(steps.every(s => !s.blocked && s.status !== 'exhausted'));
  });

  test('each trajectory gets its own memory; cwd is taken relative to the trajectory folder', async () => {
    const failing = { command: 'make build', exitCode: 2, cwd: '/app', output: 'make: *** [build] Error 2' };
    const { trajectories } = parseCorpus([
      JSON.stringify({ source: 'a', commands: [failing, failing, failing, failing] }),
      JSON.stringify({ source: 'b', commands: [failing] }),
    ].join('\n'));
    const a = await replayTrajectory(trajectories[0], { threshold: 3 });
    const b = await replayTrajectory(trajectories[1], { threshold: 3 });
    assert.equal(a[3].blocked, true);
    assert.equal(b[0].status, 'clear');
    assert.equal(relativeCwd('/app', '/app'), undefined);
    assert.equal(relativeCwd('/testbed', '/testbed/sub/dir'), 'sub/dir');
    assert.equal(relativeCwd('/testbed', '/tmp'), '/tmp');
  });

  test('the in-memory store hands out frozen copies, as the file store does: a write into one throws and changes nothing', async () => {
    const store = new InMemoryStore();
    const m = new WorkspaceMemory('/w', { store });
    await m.record({ command: 'npm test', exitCode: 1, output: 'Error: boom', source: 'agent' });
    const first = await store.read();
    assert.throws(() => {
      first.approaches = {};
    }, TypeError);
    assert.throws(() => Object.values(first.approaches)[0].attempts.push(Object.values(first.approaches)[0].attempts[0]), TypeError);
    const again = await store.read();
    assert.equal(Object.keys(again.approaches).length, 1);
    assert.equal(Object.values(again.approaches)[0].attempts.length, 1);
    await m.record({ command: 'npm test', exitCode: 1, output: 'Error: boom', source: 'agent' });
    assert.equal(Object.values((await store.read()).approaches)[0].attempts.length, 2, 'a write gives readers the new memory');
  });
});
