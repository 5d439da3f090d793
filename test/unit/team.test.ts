// The pure part of team memory: project identity, what is shared, the outbox bound, and what the
// team's failures mean for a local check.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkCommand } from '../../src/core/rules/check';
import { buildSnapshot } from '../../src/views/panelModel';
import { isHostMessage } from '../../src/shared/protocol';
import {
  boundOutbox,
  clearedByTeam,
  describeTeamFailures,
  emptyTeamView,
  isStaleView,
  machineIdentity,
  mergeTeamCheck,
  normalizeRemote,
  originFromGitConfig,
  sharedAttempt,
  shouldShare,
  teamProjectId,
  type TeamApproach,
} from '../../src/core/rules/team';
import { DEFAULT_SETTINGS, emptyMemory } from '../../src/core/types';
import { describeDatabase, lookupPgpass, pgpassPassword, sanitizeTeamSettings } from '../../src/store/team/config';
import { loadWorkspaceSettings } from '../../src/app/settings';
import { findRepo, projectFor } from '../../src/store/team/identity';
import { Outbox } from '../../src/store/team/outbox';
import { makeRecorder } from '../support/reflection';
import { tempDir } from '../support/tempFolders';

describe('project identity', () => {
  test('every way of cloning one repository gives one id', () => {
    const forms = [
      'git@github.com:Acme/Shop.git',
      'https://github.com/acme/shop',
      'https://x-access-token:ghp_secret@github.com/Acme/Shop.git/',
      'ssh://git@github.com:22/acme/shop.git',
      'git+ssh://git@github.com/acme/shop',
      'https://www.github.com/acme/shop.git',
    ];
    for (const f of forms) assert.equal(normalizeRemote(f), 'github.com/acme/shop', f);
    assert.equal(normalizeRemote('git@gitlab.example.com:group/sub/proj.git'), 'gitlab.example.com/group/sub/proj');
    assert.equal(normalizeRemote('/srv/git/shop.git'), 'file/srv/git/shop');
    assert.equal(normalizeRemote(''), '');
    assert.ok(!normalizeRemote('https://user:hunter2@host/x').includes('hunter2'));
  });

  test('the folder\'s path inside the repository is part of the id; the override wins', () => {
    assert.equal(teamProjectId({ remote: 'git@github.com:acme/mono.git', pathInRepo: 'packages/api' }), 'github.com/acme/mono#packages/api');
    assert.equal(teamProjectId({ remote: 'git@github.com:acme/mono.git', pathInRepo: '' }), 'github.com/acme/mono');
    assert.equal(teamProjectId({ override: ' team-x ', remote: 'git@github.com:acme/mono.git' }), 'team-x');
    assert.equal(teamProjectId({}), undefined);
  });

  test('origin is read from .git/config, also from a worktree, walking up from a sub-folder', () => {
    assert.equal(originFromGitConfig('[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://a/b\n[remote "origin"]\n\turl = git@github.com:o/r.git\n'), 'git@github.com:o/r.git');
    assert.equal(originFromGitConfig('[core]\n'), '');
    const repo = tempDir('fm-id-');
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/o/r.git\n');
    mkdirSync(join(repo, 'packages', 'api'), { recursive: true });
    assert.deepEqual(findRepo(join(repo, 'packages', 'api')), { root: repo, origin: 'https://github.com/o/r.git', pathInRepo: 'packages/api' });
    assert.equal(projectFor(join(repo, 'packages', 'api'), '').project, 'github.com/o/r#packages/api');
    // a worktree: .git is a file pointing into the main repository's worktrees/, config in its commondir
    const wt = tempDir('fm-wt-');
    mkdirSync(join(repo, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(repo, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    writeFileSync(join(wt, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'wt')}\n`);
    assert.equal(projectFor(wt, '').project, 'github.com/o/r');
    const lone = tempDir('fm-lone-');
    assert.equal(projectFor(lone, '').project, undefined);
    assert.match(projectFor(lone, '').reason, /set failureMemory.team.project/);
    assert.equal(projectFor(lone, 'acme-shop').project, 'acme-shop');
  });

  test('machines are named by host, CI runs by provider and runner', () => {
    assert.deepEqual(machineIdentity({}, 'dev-laptop'), { machine: 'dev-laptop', ci: false });
    assert.deepEqual(machineIdentity({ CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_NAME: 'GitHub Actions 7' }, 'fv-az1'), { machine: 'ci:github-actions/GitHub Actions 7', ci: true });
    assert.deepEqual(machineIdentity({ CI: 'false' }, 'h', 'my-box'), { machine: 'my-box', ci: false });
  });
});

describe('what is shared', () => {
  const rec = makeRecorder();
  test('output only when allowed; commands, signatures and test counts always; bounded', () => {
    const data = emptyMemory();
    const r = rec.run(data, 'npx jest', 1, `${'x'.repeat(20000)}\nTests: 1 failed, 2 passed, 3 total\n`);
    const off = sharedAttempt(r.attempt, r.approach.label, false);
    assert.equal(off.output, '');
    assert.equal(off.command, 'npx jest');
    const on = sharedAttempt(r.attempt, r.approach.label, true);
    assert.ok(on.output.length > 0 && on.output.length <= 8 * 1024);
  });

  test('failures always travel; a success only when it clears something; interrupts never', () => {
    const data = emptyMemory();
    const fail = rec.run(data, 'make', 2, 'error').attempt;
    const ok = rec.run(data, 'ls', 0, '').attempt;
    const stopped = rec.run(data, 'make', 130, '').attempt;
    assert.equal(shouldShare(fail, true, false), true);
    assert.equal(shouldShare(ok, false, false), false);
    assert.equal(shouldShare(ok, false, true), true, 'the team knows it failing: this success clears it for everyone');
    assert.equal(shouldShare(ok, true, false), true);
    assert.equal(shouldShare(stopped, true, true), false);
    // no team view yet: the machine cannot tell, so a success that runs something is shared
    assert.equal(shouldShare(ok, false, undefined), true);
    const nothing = rec.run(data, 'FOO=bar', 0, '').attempt;
    assert.equal(shouldShare(nothing, false, undefined), false, 'a line that runs nothing never travels');
    assert.equal(shouldShare(stopped, false, undefined), false);
  });
});

describe('outbox bound', () => {
  test('the oldest entries go first, order of the rest kept', () => {
    const e = (id: string, at: string) => ({ id, queuedAt: at });
    const { kept, evicted } = boundOutbox([e('c', '03'), e('a', '01'), e('d', '04'), e('b', '02')], 2);
    assert.deepEqual(kept.map(x => x.id), ['c', 'd']);
    assert.deepEqual(evicted.map(x => x.id), ['a', 'b']);
    assert.equal(boundOutbox([e('a', '1')], 5).evicted.length, 0);
  });

  test('the file outbox evicts and says so; removal keeps what came meanwhile; a torn line is skipped', async () => {
    const dir = tempDir('fm-outbox-');
    const warnings: string[] = [];
    const box = new Outbox(dir, 3, m => warnings.push(m));
    const entry = (id: string, t: number) => ({ kind: 'resolve' as const, id, queuedAt: new Date(t).toISOString(), machine: 'm', ci: false, resolve: { id, key: 'k', label: 'l', cwd: '.', at: '' } });
    await box.append([entry('1', 1), entry('2', 2)]);
    await box.append([entry('3', 3), entry('4', 4)]);
    assert.deepEqual((await box.readAll()).map(e => e.id), ['2', '3', '4']);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /outbox is full \(3 records waiting for the database\); the 1 oldest were dropped/);
    await box.remove(new Set(['2', '3']));
    await box.append([entry('5', 5)]);
    assert.deepEqual((await box.readAll()).map(e => e.id), ['4', '5']);
    writeFileSync(box.file, `${JSON.stringify(entry('6', 6))}\n{"kind":"res`, { flag: 'a' });
    assert.deepEqual((await box.readAll()).map(e => e.id), ['4', '5', '6']);
  });
});

describe('the team in a check', () => {
  const rec = makeRecorder();
  const team = (over: Partial<TeamApproach>): TeamApproach => ({ key: '.::prisma generate', label: 'prisma generate', cwd: '.', command: 'npx prisma generate', failures: 7, failuresThisWeek: 7, machines: 3, ci: true, lastError: "Cannot find module '@prisma/client'", ...over });
  const opts = { threshold: 5, canBlock: false, sync: { state: 'online' as const, waiting: 0, pulledAt: new Date().toISOString() } };

  test('says it like a person would', () => {
    assert.equal(describeTeamFailures(team({})), "failed 7 times this week on 3 machines, including CI, last error: Cannot find module '@prisma/client'");
    assert.equal(describeTeamFailures(team({ failures: 9, failuresThisWeek: 2, ci: false, machines: 1, lastError: '' })), 'failed 9 times on 1 machine');
    assert.equal(describeTeamFailures(team({ failures: 9, failuresThisWeek: 2, ci: false, machines: 1, lastError: '' }), 30), 'failed 9 times in the last 30 days on 1 machine');
    assert.equal(describeTeamFailures(team({ failures: 0 })), 'no failure in the team since the last success');
  });

  test('team failures over the threshold warn a command clear here; block only when allowed', () => {
    const data = emptyMemory();
    const local = checkCommand(data, 'npx prisma generate', '.', DEFAULT_SETTINGS);
    const warned = mergeTeamCheck(local, team({}), undefined, opts);
    assert.equal(warned.status, 'clear');
    assert.equal(warned.verdict, 'warn');
    assert.equal(warned.team.status, 'exhausted');
    assert.match(warned.reason, /in the team it failed 7 times this week on 3 machines, including CI/);
    const blocked = mergeTeamCheck(local, team({}), undefined, { ...opts, canBlock: true });
    assert.equal(blocked.verdict, 'block');
    const few = mergeTeamCheck(local, team({ failures: 2, failuresThisWeek: 2 }), undefined, { ...opts, canBlock: true });
    assert.equal(few.verdict, 'allow');
    assert.equal(few.team.status, 'failing');
    const none = mergeTeamCheck(local, undefined, undefined, opts);
    assert.equal(none.team.status, 'clear');
    assert.equal(none.verdict, 'allow');
  });

  test('without a view it can trust, the team is unknown, never clear; a stale view still tells its failures', () => {
    const local = checkCommand(emptyMemory(), 'npx prisma generate', '.', DEFAULT_SETTINGS);
    const never = mergeTeamCheck(local, undefined, undefined, { ...opts, sync: { state: 'never', waiting: 2 } });
    assert.equal(never.team.status, 'unknown');
    assert.equal(never.verdict, 'allow');
    assert.match(never.team.summary, /not known yet: this machine has not pulled the team's failures/);
    const old = new Date(Date.now() - 3 * 3600_000).toISOString();
    assert.equal(isStaleView(old, 60), true);
    assert.equal(isStaleView(new Date().toISOString(), 60), false);
    assert.equal(isStaleView(new Date(Date.now() - 20 * 60_000).toISOString(), 180), false, 'ten pull intervals of 3 minutes');
    const offline = { state: 'offline' as const, waiting: 0, pulledAt: old, stale: true, error: 'team memory database postgres://x is unreachable (ECONNREFUSED)' };
    const stale = mergeTeamCheck(local, undefined, undefined, { ...opts, sync: offline });
    assert.equal(stale.team.status, 'unknown');
    assert.match(stale.team.summary, /not known: the team view was last pulled at .* \(the last sync failed: team memory database postgres:\/\/x is unreachable/);
    const failing = mergeTeamCheck(local, team({}), undefined, { ...opts, sync: offline });
    assert.equal(failing.team.status, 'exhausted', 'failures seen before are still worth a warning');
    assert.equal(failing.verdict, 'warn');
  });

  test('a success elsewhere after the last local failure clears the approach here', () => {
    const data = emptyMemory();
    for (let i = 0; i < 5; i++) rec.run(data, 'npx prisma generate', 1, "Error: Cannot find module '@prisma/client'");
    const a = data.approaches['.::prisma generate'];
    const local = checkCommand(data, 'npx prisma generate', '.', DEFAULT_SETTINGS);
    assert.equal(local.verdict, 'block');
    const later = new Date(Date.parse(a.lastFailure!) + 60_000).toISOString();
    const earlier = new Date(Date.parse(a.lastFailure!) - 60_000).toISOString();
    const cleared = mergeTeamCheck(local, team({ failures: 0, failuresThisWeek: 0, machines: 0, lastCleared: later, lastClearedBy: 'ci:github-actions/r1' }), a, opts);
    assert.equal(cleared.status, 'clear');
    assert.equal(cleared.verdict, 'allow');
    assert.match(cleared.reason, /succeeded in the team since the last failure here \(on ci:github-actions\/r1\)/);
    const stale = mergeTeamCheck(local, team({ lastCleared: earlier }), a, opts);
    assert.equal(stale.verdict, 'block', 'a success before our failures clears nothing');
    const view = emptyTeamView('p');
    view.approaches[a.key] = team({ lastCleared: later });
    assert.deepEqual(clearedByTeam(data, view), [a.key]);
    view.approaches[a.key] = team({ lastCleared: earlier });
    assert.deepEqual(clearedByTeam(data, view), []);
  });
});

describe('team settings and secrets', () => {
  test('a password in the settings URL is dropped, with a message', () => {
    const { settings, problems } = sanitizeTeamSettings(k => ({ 'team.enabled': true, 'team.databaseUrl': 'postgres://fm:hunter2@db.example.com:5432/fm?sslmode=require' } as Record<string, unknown>)[k]);
    assert.equal(settings.databaseUrl, 'postgres://fm@db.example.com:5432/fm?sslmode=require');
    assert.ok(!JSON.stringify(settings).includes('hunter2'));
    assert.match(problems[0], /contains a password: it was ignored/);
    assert.ok(!problems[0].includes('hunter2'));
    assert.match(sanitizeTeamSettings(k => ({ 'team.databaseUrl': 'mysql://x' } as Record<string, unknown>)[k]).problems[0], /not a postgres/);
  });

  test('described without the password', () => {
    assert.equal(describeDatabase('postgresql://fm:hunter2@db:6432/team?sslmode=verify-full'), 'postgresql://fm@db:6432/team');
    assert.match(describeDatabase('', { PGHOST: 'db', PGUSER: 'ci' }), /postgres:\/\/ci@db:5432\/ci \(from PG\* variables\)/);
  });

  test('the CLI reads FAILURE_MEMORY_DATABASE_URL (turning team memory on) or settings.json', () => {
    const ws = tempDir('fm-cfg-');
    const cliTeamConfig = (w: string, env: Record<string, string>) => loadWorkspaceSettings(w, env);
    assert.equal(cliTeamConfig(ws, {}).team.enabled, false);
    const c = cliTeamConfig(ws, { FAILURE_MEMORY_DATABASE_URL: 'postgres://ci:s3cret@db/fm' });
    assert.equal(c.team.enabled, true);
    assert.ok(!c.connection?.describe.includes('s3cret'));
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{ // team\n "failureMemory.team.enabled": true, "failureMemory.team.databaseUrl": "postgres://dev@db/fm", "failureMemory.team.shareOutput": true, }');
    const s = cliTeamConfig(ws, {});
    assert.equal(s.team.enabled, true);
    assert.equal(s.team.shareOutput, true);
    assert.equal(cliTeamConfig(ws, { FAILURE_MEMORY_TEAM: 'off' }).team.enabled, false);
  });

  test('~/.pgpass lines match like libpq (wildcards, escaped colons); PGPASSWORD first', async () => {
    const text = '# comment\ndb.example.com:5432:fm:dev:pa\\:ss\n*:*:*:ci:ci-pass\n';
    assert.equal(lookupPgpass(text, { host: 'db.example.com', port: '5432', database: 'fm', user: 'dev' }), 'pa:ss');
    assert.equal(lookupPgpass(text, { host: 'other', port: '1', database: 'x', user: 'ci' }), 'ci-pass');
    assert.equal(lookupPgpass(text, { host: 'other', port: '1', database: 'x', user: 'dev' }), undefined);
    const home = tempDir('fm-home-');
    writeFileSync(join(home, '.pgpass'), text);
    assert.equal(await pgpassPassword('postgres://dev@db.example.com/fm', { HOME: home })(), 'pa:ss');
    assert.equal(await pgpassPassword('postgres://dev@db.example.com/fm', { HOME: home, PGPASSWORD: 'env' })(), 'env');
  });
});

describe('the panel shows team failures', () => {
  test('failing approaches of the team view, newest first, marked when failing here too; the snapshot validates', () => {
    const rec = makeRecorder();
    const data = emptyMemory();
    rec.run(data, 'npx prisma generate', 1, "Error: Cannot find module '@prisma/client'");
    const view = emptyTeamView('github.com/acme/shop', '2026-11-24T10:00:00.000Z');
    const t = (key: string, label: string, failures: number, lastFailure: string): TeamApproach => ({ key, label, cwd: '.', command: `npx ${label}`, failures, failuresThisWeek: failures, machines: 3, ci: true, lastError: `<b>${label}</b> failed`, lastFailure });
    view.approaches['.::prisma generate'] = t('.::prisma generate', 'prisma generate', 7, '2026-11-24T09:00:00.000Z');
    view.approaches['.::jest'] = t('.::jest', 'jest', 2, '2026-11-24T09:30:00.000Z');
    view.approaches['.::tsc'] = { ...t('.::tsc', 'tsc', 0, '2026-11-24T08:00:00.000Z'), lastCleared: '2026-11-24T08:30:00.000Z' };
    const snapshot = buildSnapshot(
      [{ uri: 'file:///ws', name: 'ws', private: false, data, threshold: 5, team: { project: view.project, state: 'online', waiting: 2, view } }],
      { terminal: true, tasks: true, terminalsWithIntegration: 1, terminals: 1 },
    );
    assert.equal(snapshot.team?.length, 1);
    const team = snapshot.team![0];
    assert.deepEqual(team.failures.map(f => [f.label, f.failures, f.local]), [['jest', 2, false], ['prisma generate', 7, true]]);
    assert.equal(team.failures[1].summary, 'failed 7 times this week on 3 machines, including CI, last error: <b>prisma generate</b> failed');
    assert.equal(team.waiting, 2);
    assert.ok(isHostMessage({ type: 'snapshot', snapshot }));
    assert.ok(!isHostMessage({ type: 'snapshot', snapshot: { ...snapshot, team: [{ ...team, state: 'sideways' }] } }));
    const off = buildSnapshot([{ uri: 'file:///ws', name: 'ws', private: false, data, threshold: 5 }], snapshot.capture);
    assert.equal(off.team, undefined);
  });
});
