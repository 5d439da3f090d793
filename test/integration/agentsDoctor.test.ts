// `failure-memory doctor`: each harness set up here, whether its gate is active, and the exact step
// where it is not — read from each harness's own files in a HOME made for the test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { configuredHarnesses, describeDiagnosis, diagnose, type DoctorLine } from '../../src/agents/doctor';
import { installLauncher, launcherDir } from '../../src/agents/launcher';
import { applySetup, planSetup } from '../../src/agents/setupFiles';
import type { HarnessId } from '../../src/agents/hooks/types';
import { tempDir } from '../support/tempFolders';

const DIST = resolve(__dirname, '../../dist');
const tmp = (p: string) => realpathSync(tempDir(p));
const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

function setUp(harnesses: HarnessId[]): { ws: string; home: string } {
  const ws = tmp('fm-doctor-ws-');
  const home = tmp('fm-doctor-home-');
  applySetup(ws, planSetup(ws, { harnesses }));
  return { ws, home };
}

const line = (lines: DoctorLine[], id: DoctorLine['id']) => lines.find(l => l.id === id)!;

describe('doctor: the launcher', () => {
  test('missing: every gate is off, and the step is setup-agents', () => {
    const { ws, home } = setUp(['claude']);
    const lines = diagnose(ws, { home, env: {}, probe: false });
    assert.equal(line(lines, 'launcher').status, 'off');
    assert.equal(line(lines, 'claude').status, 'off');
    assert.match(line(lines, 'claude').steps[0], /failure-memory setup-agents/);
  });

  test('pointing at a removed install: off; a working one answers a real hook call', { skip: !existsSync(join(DIST, 'hook.js')) && 'dist/ is not built' }, () => {
    const { ws, home } = setUp(['claude']);
    installLauncher({ dist: '/nonexistent/dist', node: process.execPath, version: 'x' }, launcherDir(home), 'linux');
    assert.match(line(diagnose(ws, { home, env: {}, probe: false }), 'launcher').detail, /\/nonexistent\/dist, which is gone/);
    installLauncher({ dist: DIST, node: process.execPath, version: 'x' }, launcherDir(home), 'linux');
    const lines = diagnose(ws, { home, env: { PATH: process.env.PATH } });
    assert.equal(line(lines, 'launcher').status, 'active', line(lines, 'launcher').detail);
    assert.equal(line(lines, 'claude').status, 'active');
  });
});

describe('doctor: each harness', () => {
  const withLauncher = (harnesses: HarnessId[]) => {
    const s = setUp(harnesses);
    installLauncher({ dist: DIST, node: process.execPath, version: 'x' }, launcherDir(s.home), 'linux');
    return s;
  };

  test('only the harnesses set up here are listed', () => {
    const { ws } = withLauncher(['gemini', 'cline']);
    assert.deepEqual(configuredHarnesses(ws), ['gemini', 'cline']);
  });

  test('Codex: an untrusted project is off; trusted, the hooks still need one review with /hooks', () => {
    const { ws, home } = withLauncher(['codex']);
    const off = line(diagnose(ws, { home, env: {}, probe: false }), 'codex');
    assert.equal(off.status, 'off');
    assert.match(off.steps.join('\n'), /trust the project/);
    assert.match(off.steps.join('\n'), /\/hooks/);
    write(join(home, '.codex', 'config.toml'), `model = "x"\n\n[projects."${ws}"]\ntrust_level = "trusted"\n`);
    const check = line(diagnose(ws, { home, env: {}, probe: false }), 'codex');
    assert.equal(check.status, 'check');
    assert.deepEqual(check.steps.length, 1);
    assert.match(check.steps[0], /run `\/hooks` in codex/);
    // CODEX_HOME moves the file; a trusted parent folder trusts the project
    const codexHome = tmp('fm-doctor-codex-');
    write(join(codexHome, 'config.toml'), `[projects."${dirname(ws)}"]\ntrust_level = "trusted"\n`);
    assert.equal(line(diagnose(ws, { home, env: { CODEX_HOME: codexHome }, probe: false }), 'codex').status, 'check');
    write(join(codexHome, 'config.toml'), `[features]\nhooks = false\n`);
    assert.match(line(diagnose(ws, { home, env: { CODEX_HOME: codexHome }, probe: false }), 'codex').detail, /hooks are turned off/);
  });

  test('Gemini CLI: off until the folder is trusted (trustedFolders.json, or GEMINI_CLI_TRUST_WORKSPACE=true headless)', () => {
    const { ws, home } = withLauncher(['gemini']);
    const off = line(diagnose(ws, { home, env: {}, probe: false }), 'gemini');
    assert.equal(off.status, 'off');
    assert.match(off.steps[0], /Trust folder.*GEMINI_CLI_TRUST_WORKSPACE=true/);
    assert.equal(line(diagnose(ws, { home, env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, probe: false }), 'gemini').status, 'active');
    write(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [join(ws, 'sub')]: 'TRUST_PARENT' }));
    assert.equal(line(diagnose(ws, { home, env: {}, probe: false }), 'gemini').status, 'active', 'a trusted parent');
    write(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'DO_NOT_TRUST' }));
    assert.match(line(diagnose(ws, { home, env: {}, probe: false }), 'gemini').detail, /don't trust/);
  });

  test('Copilot CLI: a trusted folder for interactive sessions, GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true for -p; either one turns the gate on where it loads the hooks', () => {
    const { ws, home } = withLauncher(['copilot']);
    const off = line(diagnose(ws, { home, env: {}, probe: false }), 'copilot');
    assert.equal(off.status, 'off');
    assert.equal(off.steps.length, 2);
    // prompt mode set, the folder not trusted: on for `copilot -p`, and the step for interactive sessions
    const promptOnly = line(diagnose(ws, { home, env: { GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' }, probe: false }), 'copilot');
    assert.equal(promptOnly.status, 'active');
    assert.match(promptOnly.detail, /^on for `copilot -p`/);
    assert.deepEqual(promptOnly.steps.map(s => /trust the folder/.test(s)), [true]);
    write(join(home, '.copilot', 'config.json'), `// managed\n${JSON.stringify({ trustedFolders: [ws] })}\n`);
    const trusted = line(diagnose(ws, { home, env: {}, probe: false }), 'copilot');
    assert.equal(trusted.status, 'active');
    assert.match(trusted.detail, /^on for interactive sessions \(not `copilot -p`\)/);
    assert.match(trusted.steps[0], /GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true/);
    const both = line(diagnose(ws, { home, env: { GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' }, probe: false }), 'copilot');
    assert.deepEqual([both.status, both.steps], ['active', []]);
  });

  test('Claude Code: active unless disableAllHooks', () => {
    const { ws, home } = withLauncher(['claude']);
    assert.equal(line(diagnose(ws, { home, env: {}, probe: false }), 'claude').status, 'active');
    write(join(ws, '.claude', 'settings.local.json'), '{ "disableAllHooks": true }');
    const off = line(diagnose(ws, { home, env: {}, probe: false }), 'claude');
    assert.equal(off.status, 'off');
    assert.match(off.steps[0], /disableAllHooks/);
  });

  test('a harness asked for but not set up: the step is setup-agents for it', () => {
    const { ws, home } = withLauncher(['claude']);
    const l = line(diagnose(ws, { home, env: {}, probe: false, harnesses: ['cursor'] }), 'cursor');
    assert.equal(l.status, 'off');
    assert.match(l.steps[0], /setup-agents --harness cursor/);
  });

  test('one line per harness for a person, each step under it', () => {
    const { ws, home } = withLauncher(['gemini']);
    const text = describeDiagnosis(diagnose(ws, { home, env: {}, probe: false }));
    assert.match(text[0], /^✓ failure-memory launcher: works/);
    assert.match(text[1], /^✗ Gemini CLI: gate OFF — the folder is not trusted/);
    assert.match(text[2], /^ {4}step: trust the folder/);
  });
});

describe('failure-memory doctor (the CLI)', { skip: !existsSync(join(DIST, 'cli.js')) && 'dist/ is not built' }, () => {
  test('exit 1 while a gate is off, 0 once every gate is active', () => {
    const ws = tmp('fm-doctor-cli-');
    const home = tmp('fm-doctor-cli-home-');
    const env = { PATH: process.env.PATH, HOME: home };
    const setup = spawnSync(process.execPath, [join(DIST, 'cli.js'), 'setup-agents', '--workspace', ws, '--harness', 'gemini'], { encoding: 'utf8', env });
    assert.equal(setup.status, 0, setup.stderr);
    assert.match(setup.stdout, /Still to do[\s\S]*Gemini CLI: gate OFF/);
    const off = spawnSync(process.execPath, [join(DIST, 'cli.js'), 'doctor', '--workspace', ws], { encoding: 'utf8', env });
    assert.equal(off.status, 1);
    assert.match(off.stdout, /✗ Gemini CLI: gate OFF/);
    const on = spawnSync(process.execPath, [join(DIST, 'cli.js'), 'doctor', '--workspace', ws, '--json'], { encoding: 'utf8', env: { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' } });
    assert.equal(on.status, 0, on.stdout);
    assert.deepEqual((JSON.parse(on.stdout) as { gates: DoctorLine[] }).gates.map(g => [g.id, g.status]), [['launcher', 'active'], ['gemini', 'active']]);
  });
});
