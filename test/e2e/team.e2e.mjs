// Team memory in a real VS Code: a throwaway PostgreSQL cluster holds what a CI run and a teammate's
// laptop recorded (through the CLI, from their own clones of the same repository); this workspace is a
// third clone with team memory on (password from PGPASSWORD). The panel shows the team's failures; a
// local failure recorded while the database is down waits ("team memory offline, N records waiting") and
// arrives once it is back; every door of the extension (terminal, task, language-model tool) feeds the
// outbox as the CLI does. Screenshot: test-artifacts/e2e/team-panel.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { findPanelFrame, REPO_ROOT, widenSidebar } from './harness.mjs';

export const timeout = 240_000;

const CLI = path.join(REPO_ROOT, 'dist/cli.js');
const ORIGIN = 'git@github.com:acme/shop.git';
const MIGRATE_ERROR = 'Error: P3009: migrate found failed migrations in the target database\nThe `20261124_add_orders` migration started at 2026-11-24 09:12:03 UTC failed\n';
const PASSWORD = `e2e-${Math.random().toString(36).slice(2)}`;

let pg;
const clones = [];
const gitConfig = `[remote "origin"]\n\turl = ${ORIGIN}\n`;

function clone(name, settings = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fm-e2e-${name}-`));
  clones.push(dir);
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'config'), gitConfig);
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(settings));
  return dir;
}

function cli(ws, args, env, input = '') {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PG|CI$|GITHUB|RUNNER|FAILURE_MEMORY)/.test(k)));
  return execFileSync(process.execPath, [CLI, ...args, '--workspace', ws], { input, env: { ...clean, ...env }, encoding: 'utf8' });
}

/** Starts the cluster and seeds it from two other clones before VS Code starts. */
export async function prepare() {
  const { startCluster } = await tsImport('../support/pgCluster.ts', import.meta.url);
  pg = await startCluster({ password: PASSWORD });
  process.on('exit', () => void pg?.stop());
  const ci = clone('ci');
  const ciEnv = { FAILURE_MEMORY_DATABASE_URL: pg.url, CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_NAME: 'runner-3' };
  for (let i = 0; i < 4; i++) cli(ci, ['record', '--command', 'npx prisma migrate deploy', '--exit-code', '1'], ciEnv, MIGRATE_ERROR);
  cli(ci, ['sync'], ciEnv);
  const laptop = clone('laptop', { 'failureMemory.team.machineName': 'alex-laptop' });
  const devEnv = { FAILURE_MEMORY_DATABASE_URL: pg.url };
  for (let i = 0; i < 3; i++) cli(laptop, ['record', '--command', 'npx prisma migrate deploy --schema prisma/schema.prisma', '--exit-code', '1'], devEnv, MIGRATE_ERROR);
  cli(laptop, ['record', '--command', 'npm run e2e', '--exit-code', '1'], devEnv, 'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/\n');
  cli(laptop, ['sync'], devEnv);
  return {
    // the CLI reads the machine name from here; VS Code from the user settings (a machine-scoped setting)
    workspaceFiles: {
      '.git/config': gitConfig,
      '.vscode/settings.json': JSON.stringify({ 'failureMemory.team.machineName': 'sam-desktop' }),
      'build.sh': 'echo "error: linker failed" >&2; exit 3\n',
      '.vscode/tasks.json': JSON.stringify({ version: '2.0.0', tasks: [{ label: 'build', type: 'shell', command: 'sh build.sh', problemMatcher: [], presentation: { reveal: 'always', panel: 'shared' } }] }),
    },
    settings: {
      'workbench.colorTheme': 'Default Dark Modern',
      'workbench.activityBar.location': 'default',
      'failureMemory.team.enabled': true,
      'failureMemory.team.databaseUrl': pg.urlWithoutPassword,
      'failureMemory.team.machineName': 'sam-desktop',
    },
    env: { PGPASSWORD: PASSWORD },
    viewport: { width: 1400, height: 900 },
  };
}

export async function run(h) {
  try {
    await scenario(h);
  } finally {
    await pg?.remove();
    for (const d of clones) fs.rmSync(d, { recursive: true, force: true });
  }
}

async function scenario(h) {
  const t0 = Date.now();
  const step = what => h.log(`[team] ${what} (+${Date.now() - t0} ms)`);
  await h.waitForActivation();
  await h.waitForEvent(e => e.event === 'teamPulled', { what: 'teamPulled', timeout: 60000 });
  step('team view pulled');

  await h.runCommand('Failure Memory: Show Memory');
  const frame = await h.waitFor(() => findPanelFrame(h.page), 20000, 'the memory panel webview frame');
  const card = frame.locator('#section-team .card', { hasText: 'prisma migrate deploy' });
  await card.waitFor({ state: 'visible', timeout: 20000 });
  const text = await card.innerText();
  assert.match(text, /failed 7 times this week on 2 machines, including CI, last error: Error: P3009/);
  assert.doesNotMatch(text, /failing here too/);
  // one local failure of the same approach (an agent's hook through the CLI): the card says it fails here too
  const local = { FAILURE_MEMORY_DATABASE_URL: pg.urlWithoutPassword };
  cli(h.workspace, ['record', '--command', 'npx prisma migrate deploy', '--exit-code', '1'], local, MIGRATE_ERROR);
  await h.waitFor(async () => /failing here too/.test(await card.innerText()), 15000, 'the team card marked as failing here too');
  await frame.locator('#section-team .card', { hasText: 'e2e' }).waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await frame.locator('#section-team .team-status').innerText(), /Team github\.com\/acme\/shop/);
  assert.equal(await frame.locator('#app script, #app img, #app iframe').count(), 0);
  await widenSidebar(h.page, 440);
  await h.clearNotifications();
  await h.page.mouse.move(700, 890);
  await h.page.waitForTimeout(500);
  await h.screenshot('team-panel');
  step('panel shows the team failures');

  // the database goes away: a local failure waits in the outbox, the panel says so
  await pg.stop();
  cli(h.workspace, ['record', '--command', 'npm run lint', '--exit-code', '1'], local, 'src/a.ts\n  1:1  error  no-unused-vars\n');
  await everyDoorFeedsTheOutbox(h);
  step('terminal, task and language-model tool records wait in the outbox');
  await h.runCommand('Failure Memory: Sync Team Memory Now');
  const status = frame.locator('#section-team .team-status');
  await h.waitFor(async () => /Team memory offline, \d+ records? waiting/.test(await status.innerText()), 30000, 'the offline state in the panel');
  step('offline: records wait');

  // back: everything arrives exactly once
  await pg.start();
  await h.runCommand('Failure Memory: Sync Team Memory Now');
  await h.waitFor(async () => /Team github\.com\/acme\/shop/.test(await status.innerText()), 30000, 'online again');
  const rows = cli(h.workspace, ['sync', '--json'], { FAILURE_MEMORY_DATABASE_URL: pg.url });
  assert.equal(JSON.parse(rows).waiting, 0);
  const { default: pgmod } = await import('pg');
  const c = new pgmod.Client({ connectionString: pg.url });
  await c.connect();
  try {
    // this machine's rows: not CI's, not the laptop's (the extension may name itself by the host name: in
    // code-server a machine-scoped setting comes from the remote machine's settings, not the user's)
    const r = await c.query("SELECT count(*) AS n, count(DISTINCT id) AS d, array_agg(DISTINCT source ORDER BY source) AS sources FROM fm_attempts WHERE machine NOT IN ('ci:github-actions/runner-3', 'alex-laptop')");
    assert.equal(Number(r.rows[0].n), 5, 'the local prisma failure, the lint failure and the three from the extension\'s doors, once each');
    assert.equal(Number(r.rows[0].d), 5);
    assert.deepEqual(r.rows[0].sources, ['cli', 'reported', 'task', 'terminal']);
  } finally {
    await c.end();
  }
  step('back online: records arrived once');
}

/** A failing terminal command, a failing task and an agent's record through the language-model tool each wait in the outbox. */
async function everyDoorFeedsTheOutbox(h) {
  const outbox = () =>
    fs.existsSync(path.join(h.workspace, '.vscode/failure-memory/team-outbox.jsonl'))
      ? fs.readFileSync(path.join(h.workspace, '.vscode/failure-memory/team-outbox.jsonl'), 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l))
      : [];
  const queued = source => outbox().filter(e => e.kind === 'attempt' && e.attempt.source === source && e.attempt.outcome === 'failure');
  await h.openTerminal();
  const r = await h.typeInTerminal('ls /no-such-folder-here');
  assert.equal(r.exitCode, 2);
  await h.waitFor(() => queued('terminal').length === 1, 15000, 'the terminal failure in the outbox');
  await h.runTask('build');
  await h.waitFor(() => queued('task').length === 1, 30000, 'the task failure in the outbox');
  // a tool that writes asks the person first
  const invoked = h.invokeTool('failure_memory_record', { command: 'cargo build', exitCode: 101, output: 'error[E0425]: cannot find value `x` in this scope' });
  const dialog = h.page.locator('.monaco-dialog-box', { hasText: 'Record a command result in Failure Memory?' });
  await dialog.waitFor({ timeout: 20000 });
  await dialog.locator('.monaco-button', { hasText: 'Yes' }).click();
  const rec = await invoked;
  assert.equal(rec.error, undefined, rec.error);
  // what an agent reports itself through the tool is `reported` (nobody witnessed it), and still shared
  await h.waitFor(() => queued('reported').some(e => e.attempt.key === '.::cargo build'), 15000, 'the tool\'s record in the outbox');
  await h.clearNotifications();
}
