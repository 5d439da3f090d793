// End to end, two workspaces of one project and one PostgreSQL, driven through the built hook
// (dist/hook.js) with the payloads Claude Code sends, and nobody running `failure-memory sync`:
// the owner runs `team init --grant` once, the hooks connect as a role that may only read and write;
// failures recorded by the first workspace's post hook reach the second workspace's agent (its
// session-start context and its pre-hook warning) through the background sync, within the pull
// interval; with blockOnTeamFailures the second workspace's pre hook refuses; the sync's retention
// removed the project's rows older than the limit. The waits below are bounded polls for what the
// background sync delivers, not timings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { queryRows, startCluster, type PgCluster } from '../support/pgCluster';
import { cloneWorkspace } from '../support/teamWorkspace';
import { tempFolders } from '../support/tempFolders';

const HOOK = resolve(__dirname, '../../dist/hook.js');
const CLI = resolve(__dirname, '../../dist/cli.js');
const ORIGIN = 'git@github.com:acme/agents-team.git';
const PROJECT = 'github.com/acme/agents-team';
/** The documented interval, at its smallest: a view older than this is pulled again. */
const PULL_SECONDS = 10;
const APP_PASSWORD = `app-${Math.random().toString(36).slice(2)}`;
const ECONNREFUSED = 'Exit code 1\n> test\n> node --test\n\nError: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n';

let pg: PgCluster;
const temp = tempFolders('fm-team-agents-');
const CLEAN = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG') && !k.startsWith('FAILURE_MEMORY') && k !== 'CI' && !k.startsWith('GITHUB')));
const appUrl = () => `postgres://fm_app@127.0.0.1:${pg.port}/postgres`;

function workspace(name: string): string {
  const ws = cloneWorkspace(ORIGIN, `fm-team-agents-${name}-`);
  mkdirSync(join(ws, '.vscode'));
  settings(ws);
  return ws;
}
function settings(ws: string, extra: Record<string, unknown> = {}): void {
  const name = ws.includes('laptop-a') ? 'laptop-a' : 'laptop-b';
  writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'failureMemory.team.enabled': true, 'failureMemory.team.databaseUrl': appUrl(), 'failureMemory.team.pullIntervalSeconds': PULL_SECONDS, 'failureMemory.team.machineName': name, ...extra }));
}

/** One hook call as Claude Code makes it: the payload on stdin, CLAUDE_PROJECT_DIR set; the password from PGPASSWORD. */
function hook(ws: string, event: string, payload: Record<string, unknown>) {
  const r = spawnSync(process.execPath, [HOOK, 'hook', 'claude', event], {
    input: JSON.stringify({ session_id: `s-${ws.slice(-6)}`, transcript_path: join(ws, 't.jsonl'), cwd: ws, ...payload }),
    encoding: 'utf8',
    env: { ...CLEAN, CLAUDE_PROJECT_DIR: ws, PGPASSWORD: APP_PASSWORD, FAILURE_MEMORY_CACHE_DIR: temp() },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout ? (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext?: string; permissionDecision?: string; permissionDecisionReason?: string } }) : undefined;
}
const failed = (command: string, id: string) => ({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command, description: 'Run the tests' }, tool_use_id: id, error: ECONNREFUSED, is_interrupt: false });
const preBash = (command: string, id: string) => ({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'Run the tests' }, tool_use_id: id, permission_mode: 'default' });
/** A new session's start (each its own session id: a session is given the summary once). */
let sessions = 0;
const sessionStart = () => ({ hook_event_name: 'SessionStart', source: 'startup', session_id: `s-new-${++sessions}` });

/** Polls `probe` until it returns something, at most `seconds`; the last value otherwise. */
async function until<T>(seconds: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
  for (const end = Date.now() + seconds * 1000; ;) {
    const v = await probe();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise(r => setTimeout(r, 500));
  }
}

before(async () => {
  assert.ok(existsSync(HOOK) && existsSync(CLI), 'dist/ is built (npm run build)');
  pg = await startCluster();
  await queryRows(pg.url, `CREATE ROLE fm_app LOGIN PASSWORD '${APP_PASSWORD}'`);
  await queryRows(pg.url, 'REVOKE CREATE ON SCHEMA public FROM PUBLIC');
});
after(async () => {
  await pg?.remove();
});

describe('two workspaces of one project, their agents and one PostgreSQL, no `sync` run by anyone', () => {
  test('the owner inits; the first agent\'s failures reach the second agent; blockOnTeamFailures refuses; retention removed old rows', async () => {
    // the owner, once: the schema, and the grants of the role every teammate's hooks use
    const owner = cloneWorkspace(ORIGIN, 'fm-team-agents-owner-');
    const init = spawnSync(process.execPath, [CLI, 'team', 'init', '--grant', 'fm_app', '--workspace', owner], { encoding: 'utf8', env: { ...CLEAN, FAILURE_MEMORY_DATABASE_URL: pg.url } });
    assert.equal(init.status, 0, init.stderr);
    // rows of the project older than the default retention (90 days): the next sync removes them
    await queryRows(pg.url, `INSERT INTO fm_attempts (id, project, key, label, command, cwd, exit_code, outcome, source, machine, ended_at)
      SELECT 'ancient-' || g, $1, '.::make old', 'make old', 'make old', '.', 2, 'failure', 'cli', 'gone-box', now() - interval '120 days' FROM generate_series(1, 25) g`, [PROJECT]);

    const first = workspace('laptop-a');
    const second = workspace('laptop-b');
    // the second agent starts before anything is known: its view is pulled in the background meanwhile
    const early = hook(second, 'session-start', sessionStart());
    assert.doesNotMatch(early?.hookSpecificOutput.additionalContext ?? '', /your team/);

    // the first agent runs `npm test` five times; each failure is recorded by its post hook
    for (let i = 0; i < 5; i++) assert.equal(hook(first, 'post', failed('npm test', `toolu_first_${i}`)), undefined);
    const pushed = await until(60, async () => {
      const [r] = await queryRows<{ n: string }>(pg.url, "SELECT count(*) AS n FROM fm_attempts WHERE project = $1 AND key = '.::npm test'", [PROJECT]);
      return Number(r.n) === 5 ? true : undefined;
    });
    assert.ok(pushed, 'the background push sent the five failures');

    // the second agent: a later session start carries the team's failure, within the pull interval
    const seen = await until(3 * PULL_SECONDS, () => {
      const text = hook(second, 'session-start', sessionStart())?.hookSpecificOutput.additionalContext ?? '';
      return /EXHAUSTED in the team: ⟦npm test⟧/.test(text) ? text : undefined;
    });
    assert.ok(seen, 'session start tells the team\'s exhausted approach');
    assert.match(seen, /^Failure Memory — your team's failures in this project \(other machines, their agents and CI; pulled just now; threshold 5\):\n- EXHAUSTED in the team: ⟦npm test⟧ in the workspace root, failed 5 times this week on 1 machine, last error ⟦Error: connect ECONNREFUSED/);

    // its pre hook warns before the same approach (the call goes on) …
    const warned = hook(second, 'pre', preBash('npm test', 'toolu_second_1'));
    assert.equal(warned?.hookSpecificOutput.permissionDecision, undefined);
    assert.match(warned?.hookSpecificOutput.additionalContext ?? '', /^Failure Memory \(team\): ⟦npm test⟧ has not failed in this workspace, but in your team \(other machines of this project\) it failed 5 times this week on 1 machine/);
    // … and refuses it once the user turns on blockOnTeamFailures
    settings(second, { 'failureMemory.team.blockOnTeamFailures': true });
    const refused = hook(second, 'pre', preBash('npm test -- --watch=false', 'toolu_second_2'));
    assert.equal(refused?.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(refused?.hookSpecificOutput.permissionDecisionReason ?? '', /^Failure Memory: NOT RUN — ⟦npm test -- --watch=false⟧ is exhausted in your team/);

    // the restricted role did all of it, and its syncs applied retention to the project
    const [old] = await queryRows<{ n: string }>(pg.url, "SELECT count(*) AS n FROM fm_attempts WHERE project = $1 AND key = '.::make old'", [PROJECT]);
    assert.equal(Number(old.n), 0, 'the rows older than 90 days are gone');
    const owners = await queryRows<{ tableowner: string }>(pg.url, "SELECT DISTINCT tableowner FROM pg_tables WHERE tablename LIKE 'fm\\_%'");
    assert.deepEqual(owners.map(o => o.tableowner), [pg.user]);
  });
});
