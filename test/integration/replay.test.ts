// `failure-memory replay` goes through the same code path as `check` and `record`: proved here by
// running the plain CLI (dist/cli.js, a real workspace on disk) command for command on three real
// trajectories of the development corpus (test/fixtures/trajectories.sample.jsonl.gz, copied
// unchanged from ../shared/trajectories: django__django-12273 (SWE-bench, gemini-3-pro),
// download-youtube and new-encrypt-command (Terminal-Bench, claude-sonnet-4)).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import { readCorpusFile } from '../../src/replay/corpus';
import { replayLine, replayTrajectory } from '../../src/replay/replay';
import { tempFolders } from '../support/tempFolders';

const CLI = resolve(__dirname, '../../dist/cli.js');
const FIXTURE = resolve(__dirname, '../fixtures/trajectories.sample.jsonl.gz');
const tempDir = tempFolders('fm-replay-');

function cli(ws: string, args: string[], input = '') {
  const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
});

describe('replay', () => {
  test('the plain CLI (check, then record) answers the same as replay, command for command', async () => {
    const { trajectories, problems } = readCorpusFile(FIXTURE);
    assert.deepEqual(problems, []);
    assert.equal(trajectories.length, 3);
    let said = 0;
    // two processes per command are slow on a busy machine: the first 18 commands of each
    for (const t of trajectories.map(x => ({ ...x, commands: x.commands.slice(0, 18) }))) {
      const replayed = (await replayTrajectory(t, { threshold: 3 })).map(replayLine);
      const ws = tempDir();
      const viaCli = t.commands.map((c, index) => {
        const check = cli(ws, ['check', '--command', c.command, '--threshold', '3', '--json']);
        assert.ok(check.code === 0 || check.code === 2, check.stderr);
        const { status, decision } = JSON.parse(check.stdout);
        const rec = cli(ws, ['record', '--command', c.command, '--exit-code', c.exitCode === null ? 'unknown' : String(c.exitCode), '--threshold', '3', '--source', 'agent'], c.output);
        assert.equal(rec.code, 0, rec.stderr);
        return { source: t.source, index, status, decision, blocked: check.code === 2 };
      });
      assert.deepEqual(viaCli, replayed, t.source);
      said += replayed.filter(l => l.decision !== 'allow').length;
    }
    // the sample was chosen because the gate has something to say on it (warnings after edits, at threshold 3)
    assert.ok(said > 0);
  });

  test('replay --json prints one line per command, the same lines as the in-process replay', async () => {
    const r = spawnSync(process.execPath, [CLI, 'replay', '--input', FIXTURE, '--threshold', '5', '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map(l => JSON.parse(l));
    const { trajectories } = readCorpusFile(FIXTURE);
    const expected = [];
    for (const t of trajectories) expected.push(...(await replayTrajectory(t, { threshold: 5 })).map(replayLine));
    assert.equal(lines.length, trajectories.reduce((n, t) => n + t.commands.length, 0));
    assert.deepEqual(lines, expected);
    for (const l of lines) assert.deepEqual(Object.keys(l), ['source', 'index', 'status', 'decision', 'blocked']);
    for (const l of lines) assert.equal(l.blocked, l.decision === 'ask' || l.decision === 'deny', 'blocked stays true for ask and deny');
  });

  test('plain .jsonl is read like .jsonl.gz; a bad line is reported with its number and the rest is replayed', () => {
    const dir = tempDir();
    const plain = gunzipSync(readFileSync(FIXTURE)).toString('utf8').trim().split('\n');
    const file = join(dir, 'c.jsonl');
    writeFileSync(file, [plain[0], '{not json', '{"commands": 3}', plain[1]].join('\n'));
    const r = spawnSync(process.execPath, [CLI, 'replay', '--input', file, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /line 2 skipped: not JSON/);
    assert.match(r.stderr, /line 3 skipped: no "commands" array/);
    const sources = new Set(r.stdout.trim().split('\n').map(l => JSON.parse(l).source));
    assert.equal(sources.size, 2);
    const missing = spawnSync(process.execPath, [CLI, 'replay', '--json'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /replay needs --input/);
  });

});
