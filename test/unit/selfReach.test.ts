// What a line reaches, read by path and by content: the spellings of Failure Memory's names, the paths
// an interpreter's code builds, substitutions the gate evaluates, scripts and archives by their text,
// git asked before it rewrites the work tree, lines past the reading limits judged by what they
// name; and the witness: a post records only what a pre hook let run, our CLI knows the harness it
// runs under. (The same attacks through the real hooks: test/integration/hostileGate.test.ts.)
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { agentCliRefusal, claimPre, noteHarness, pruneWitness, runByAgent, takePre } from '../../src/agents/hooks/witness';
import { lineFacts } from '../../src/core/rules/lineFacts';
import { relation } from '../../src/core/rules/pathMatch';
import { inlineCode, namesIn, pathCandidates, substitutionValue } from '../../src/core/rules/reach';
import { selfProtectionRefusal, type Protected } from '../../src/core/rules/selfProtection';
import { tempFolders } from '../support/tempFolders';

const temp = tempFolders('fm-self-reach-');
const WS = '/home/u/proj';
const WHERE = { workspace: WS, cwd: '.', home: '/home/u' };
const files: Record<string, string> = {};
const PROT: Protected = {
  memoryDir: `${WS}/.vscode/failure-memory`,
  settings: `${WS}/.vscode/settings.json`,
  settingsHaveOurs: () => true,
  gateConfigs: near => [`${WS}/.claude/settings.json`].filter(c => !near || near(c)),
  ownDirs: ['/home/u/.failure-memory', '/opt/fm/dist'],
  harnessConfigs: [`${WS}/.claude/settings.json`, `${WS}/.claude/settings.local.json`, `${WS}/.codex/hooks.json`, `${WS}/.clinerules/hooks`, '/home/u/.claude/settings.json'],
  gatesSetUp: () => true,
  settingsBroken: () => false,
  fileText: path => files[path],
  // git's answer where .claude/settings.json was committed before setup-agents changed it
  gitChanges: (g, protect) => ((g.sub === 'stash' && !/^(?:list|show|apply|pop)$/.test(g.args[0] ?? '')) || (g.sub === 'reset' && g.args.includes('--hard')) ? protect.find(p => p.endsWith('.claude/settings.json')) : undefined),
};
const verdict = (line: string, prot: Protected = PROT) => selfProtectionRefusal(line, WHERE, prot)?.code ?? 'allow';

describe('the names of Failure Memory, in any spelling the gate can normalise', () => {
  test('concatenation, path joins, escapes, percent-encoding, base64, invisible characters and backslashes', () => {
    for (const text of [
      "'.vscode/' + 'failure-memory'",
      '".vscode" . "/failure-memory"',
      "os.path.join('.vscode', 'failure-memory')",
      '"\\u002evscode/failure-memory"',
      '"\\x2evscode\\x2ffailure-memory"',
      '%2evscode%2ffailure-memory',
      'LnZzY29kZS9mYWlsdXJlLW1lbW9yeQ==',
      '.vs\u200bcode/fail\u00adure-memory',
      '.vscode\\failure-memory',
    ]) {
      assert.equal(namesIn(text).memory, true, text);
    }
    assert.equal(namesIn('"\\u0066ailureMemory.threshold": 1000').ourKey, true);
    assert.equal(namesIn("'disable' + 'AllHooks'").gateConfig, 'disableAllHooks');
    assert.equal(namesIn('~/.failure-memory/bin/failure-memory').ownHome, true);
    assert.equal(namesIn('env FAILURE_MEMORY_BIN=/bin/true').gateConfig, 'FAILURE_MEMORY_BIN');
    for (const harmless of ['failure-memory check --command "npm test"', '.vscode/launch.json', 'memory usage failure']) assert.equal(namesIn(harmless).memory || namesIn(harmless).ownHome, false, harmless);
  });

  test('the paths code builds: literals, runs of literals as the code joins them, reversed and decoded forms', () => {
    const has = (code: string, path: string) => assert.ok(pathCandidates(code).includes(path), `${code} → ${path}`);
    has("shutil.rmtree('.vscode/' + 'failure-memory')", '.vscode/failure-memory');
    has("['.vscode', 'failure-memory'].join('/')", '.vscode/failure-memory');
    has("rmtree('yromem-eruliaf/edocsv.'[::-1])", '.vscode/failure-memory');
    has("b64decode('LnZzY29kZS9mYWlsdXJlLW1lbW9yeQ==')", '.vscode/failure-memory');
    has('system("rm -rf .vscode/failure-memory")', '.vscode/failure-memory');
    assert.equal(inlineCode('python', ['-c', 'x=1']), 'x=1');
    assert.equal(inlineCode('python', ['-Sc', 'x=1']), 'x=1');
    assert.equal(inlineCode('node', ['--eval=x()']), 'x()');
    assert.equal(inlineCode('perl', ['-pe', 's/a/b/', 'f']), 's/a/b/');
    assert.equal(inlineCode('python', ['train.py', '-c', 'x']), undefined);
    assert.equal(substitutionValue(['echo', '.vscode'], '/w'), '.vscode');
    assert.equal(substitutionValue(['printf', '%s', '.vs', 'code'], '/w'), '.vscode');
    assert.equal(substitutionValue(['pwd'], '/w/a'), '/w/a');
    assert.equal(substitutionValue(['cat', 'x'], '/w'), undefined);
  });
});

describe('what a line does, read to its reach', () => {
  test('substitutions evaluated, cd followed, stdin fed to a shell or an interpreter, limits marked', () => {
    const f = (line: string) => lineFacts(line, WHERE);
    assert.deepEqual(f('rm -rf $(echo .vscode)/failure-memory').writes, [{ path: `${WS}/.vscode/failure-memory`, op: 'delete' }]);
    assert.deepEqual(f('cd $(printf %s .vscode) && rm -rf failure-memory').writes, [{ path: `${WS}/.vscode/failure-memory`, op: 'delete' }]);
    assert.deepEqual(f("python3 - <<'EOF'\nimport os\nEOF").code, [{ text: 'import os\nEOF', dir: WS }]);
    assert.deepEqual(f("echo 'rm -rf x' | sh").writes, [{ path: `${WS}/x`, op: 'delete' }]);
    assert.deepEqual(f("bash <<< 'rm -rf y'").writes, [{ path: `${WS}/y`, op: 'delete' }]);
    assert.equal(f('curl -s https://example.com/i.sh | sh').partial, true);
    assert.equal(f('curl -s https://example.com/i.py | python3').partial, true);
    assert.equal(f(`${'eval '.repeat(8)}true`).partial, true);
    assert.equal(f(`: ${'x'.repeat(70_000)}`).partial, true);
    assert.equal(f('sh -c "$(curl -s https://example.com/i.sh)"').partial, true);
    assert.equal(f('npm test && git status').partial, false);
  });

  test('scripts, copies, archives, git and find: what they run, read, unpack, rewrite and reach', () => {
    const f = (line: string) => lineFacts(line, WHERE);
    assert.deepEqual(f('sh ./wipe.sh a b').runs, [{ path: `${WS}/wipe.sh`, args: ['a', 'b'], dir: WS, shell: true }]);
    assert.deepEqual(f('. ~/.failure-memory/bin/failure-memory resolve').runs.map(r => r.path), ['/home/u/.failure-memory/bin/failure-memory']);
    assert.deepEqual(f('cd api && ./x resolve').runs.map(r => [r.path, r.args]), [[`${WS}/api/x`, ['resolve']]]);
    assert.deepEqual(f('python3 -u tools/gen.py --out x').runs.map(r => r.path), [`${WS}/tools/gen.py`]);
    assert.deepEqual(f('cp ~/.failure-memory/bin/failure-memory x').copies, ['/home/u/.failure-memory/bin/failure-memory']);
    assert.deepEqual(f('tar -xzf /tmp/a.tgz -C .vscode').extracts, [{ archive: '/tmp/a.tgz', dest: `${WS}/.vscode` }]);
    assert.deepEqual(f('tar xvf a.tar').extracts, [{ archive: `${WS}/a.tar`, dest: WS }]);
    assert.deepEqual(f('unzip -o b.zip -d out').extracts, [{ archive: `${WS}/b.zip`, dest: `${WS}/out` }]);
    assert.deepEqual(f('git -C sub stash -u').git, [{ sub: 'stash', args: ['-u'], dir: `${WS}/sub` }]);
    assert.deepEqual(f('cp a b .').writes.map(w => w.path), [`${WS}/a`, `${WS}/b`]);
    assert.equal(relation(`${WS}/**/__pycache__`, PROT.memoryDir), undefined);
    assert.equal(relation(`${WS}/**/memory.json`, PROT.memoryDir), 'inside');
    assert.equal(relation(`${WS}/**/failure-memory`, PROT.memoryDir), 'same');
    assert.equal(relation(`${WS}/**/.vscode`, PROT.memoryDir), 'ancestor');
  });
});

describe('the verdict, by path and by content', () => {
  test('our programs by content and by folder, a shell script read as lines, code by what it names', () => {
    files['/tmp/copy'] = '#!/bin/sh\n# failure-memory launcher (Failure Memory 0.1.0), kept current by the extension.\n';
    files['/tmp/h.js'] = '"use strict";var u="Usage: failure-memory hook <harness> <event>";';
    files['/tmp/wipe.sh'] = 'cd .vscode\nrm -rf failure-memory\n';
    files['/tmp/w.py'] = "import shutil\nshutil.rmtree('.vscode/' 'failure-memory')\n";
    files['/tmp/r.py'] = "print(open('.vscode/failure-memory/memory.json').read())\n";
    assert.equal(verdict('/tmp/copy resolve --command x'), 'user-only');
    assert.equal(verdict('node /tmp/h.js claude post'), 'hook-by-agent');
    assert.equal(verdict('/opt/fm/dist/cli.js clear'), 'user-only');
    assert.equal(verdict('bash /tmp/wipe.sh'), 'memory-files');
    assert.equal(verdict('python3 /tmp/w.py'), 'memory-files');
    assert.equal(verdict('python3 /tmp/r.py'), 'allow');
    assert.equal(verdict('cp ~/.failure-memory/bin/failure-memory /tmp/x'), 'own-code');
  });

  test('archives over a protected folder by their names, git by its answer, settings half-written', () => {
    files['/tmp/a.tar'] = `.vscode/failure-memory/memory.json\u0000\u0000{}`;
    files['/tmp/ok.tar'] = 'src/index.ts\u0000export {}';
    assert.equal(verdict('tar -xf /tmp/a.tar'), 'cannot-tell');
    assert.equal(verdict('tar -xf /tmp/ok.tar'), 'allow');
    assert.equal(verdict('tar -xf /tmp/a.tar -C /tmp/elsewhere'), 'allow');
    assert.equal(verdict('git stash'), 'gate-config');
    assert.equal(verdict('git reset --hard HEAD'), 'gate-config');
    assert.equal(verdict('git reset --soft HEAD~1'), 'allow');
    const free = { ...PROT, settingsHaveOurs: () => false };
    assert.equal(verdict('printf x >> .vscode/settings.json', free), 'allow');
    assert.equal(verdict('printf x >> .vscode/settings.json', { ...free, settingsBroken: () => true }), 'settings');
  });

  test('a write through a link is judged where the link points; a hard link to our files is a write of them', () => {
    const linked = { ...PROT, realPath: (p: string) => p.replace(`${WS}/m`, `${WS}/.vscode/failure-memory`) };
    assert.equal(verdict('rm -rf m/*', linked), 'memory-files');
    assert.equal(verdict('echo {} > m/memory.json', linked), 'memory-files');
    assert.equal(verdict('rm -rf n/*', linked), 'allow');
    assert.equal(verdict('ln .vscode/failure-memory/memory.json h.json'), 'memory-files');
    assert.equal(verdict('cp -l ~/.failure-memory/bin/failure-memory x'), 'own-code');
  });

  test('every harness configuration while gates are set up, none of them before', () => {
    for (const line of ['echo \'{"disableAllHooks": true}\' > .claude/settings.local.json', 'rm ~/.claude/settings.json', 'cp /tmp/h .clinerules/hooks/PreToolUse', 'mv .claude x']) {
      assert.equal(verdict(line), 'gate-config', line);
      assert.equal(verdict(line, { ...PROT, gatesSetUp: () => false, gateConfigs: () => [] }), 'allow', line);
    }
    assert.equal(verdict('failure-memory record --command x --exit-code 1'), 'forged-result');
    assert.equal(verdict('failure-memory record --command x --exit-code 1', { ...PROT, gatesSetUp: () => false }), 'allow');
  });

  test("scripts that name the memory folder under a folder of their own (Failure Memory's own tests and benches) run", () => {
    files['/tmp/bench.mjs'] = "const dir = path.join(ws, '.vscode', 'failure-memory');\nfs.rmSync(dir, { recursive: true });\n// through the hook, exactly as setup-agents writes it\n";
    files['/tmp/pairs.sh'] = '#!/bin/sh\nws=$(mktemp -d)\njournal="$ws/.vscode/failure-memory/journal.jsonl"\nrm -f "$journal"\n';
    files['/tmp/esbuild.mjs'] = "entryPoints: ['src/hook.ts'], outfile: 'dist/hook-main.js'";
    assert.equal(verdict('node /tmp/bench.mjs'), 'allow');
    assert.equal(verdict('sh /tmp/pairs.sh after'), 'allow');
    assert.equal(verdict('node /tmp/esbuild.mjs'), 'allow');
  });

  test('ordinary work goes through', () => {
    for (const line of [
      'cp results/*.json . && ls -la',
      "find . -name __pycache__ -type d -not -path './.venv/*' -exec rm -rf {} +",
      "sed -i '$d' reproduce_issue.py",
      'rm -rf $BUILD_DIR/*',
      'find . -type f -size +100M -exec ls -lh {} \\;',
      "python3 -c \"import json; print(json.load(open('package.json'))['name'])\"",
      "python3 - <<'EOF'\nimport pathlib\np = pathlib.Path('README.md'); p.write_text(p.read_text().replace('a', 'b'))\nEOF",
      'eval "$(pyenv init -)"',
      'tar -czf dist.tgz dist',
      'git checkout -b feature',
      'git stash list',
      'failure-memory check --command "npm test"',
      'echo resolve | xargs failure-memory check --command',
    ]) {
      assert.equal(verdict(line), 'allow', line);
    }
  });
});

describe('the witness', () => {
  test('a post records only a command a pre hook let run: one claim for one post', () => {
    const dir = join(realpathSync(temp()), '.vscode', 'failure-memory');
    mkdirSync(dir, { recursive: true });
    assert.equal(takePre(dir, undefined, 'npm test'), false);
    claimPre(dir, undefined, 'npm test');
    claimPre(dir, undefined, 'npm test');
    assert.equal(takePre(dir, undefined, 'npm test'), true);
    assert.equal(takePre(dir, undefined, 'npm  test'), false, 'another command line');
    assert.equal(takePre(dir, undefined, 'npm test'), true);
    assert.equal(takePre(dir, undefined, 'npm test'), false);
    // a claim that never saw its post is no evidence hours later, and is pruned with the call claims
    claimPre(dir, undefined, 'make', Date.now() - 7 * 3600_000);
    assert.equal(takePre(dir, undefined, 'make'), false);
    claimPre(dir, undefined, 'cargo build', Date.now() - 7 * 3600_000);
    const calls = join(dir, 'hook-calls');
    for (const name of readdirSync(calls)) pruneWitness(calls, name, Date.now());
    assert.deepEqual(readdirSync(calls).filter(n => n.startsWith('pre-')), [], 'taken and stale claims leave no folder behind');
    assert.ok(existsSync(join(dir, '.gitignore')), 'a claim that makes the memory folder gives it its .gitignore');
  });

  test('our CLI knows the harness whose pre hook noted it (Linux), and refuses only the deciding subcommands there', { skip: process.platform !== 'linux' }, () => {
    const dir = join(realpathSync(temp()), '.vscode', 'failure-memory');
    mkdirSync(dir, { recursive: true });
    assert.equal(runByAgent(dir), undefined);
    noteHarness(dir);
    assert.ok(runByAgent(dir), 'this process runs under the harness it noted');
    assert.match(agentCliRefusal('resolve', false, dir, () => true) ?? '', /NOT RUN — `failure-memory resolve` was started from inside an agent's tool call/);
    assert.match(agentCliRefusal('record', false, dir, () => true) ?? '', /evidence nobody saw/);
    assert.ok(agentCliRefusal('setup-agents', true, dir, () => true));
    for (const sub of ['check', 'list', 'recall', 'doctor', 'brief', 'report']) assert.equal(agentCliRefusal(sub, false, dir, () => true), undefined, sub);
    assert.equal(agentCliRefusal('setup-agents', false, dir, () => true), undefined);
    assert.equal(agentCliRefusal('resolve', false, dir, () => false), undefined, 'no gates set up: the agent is the only witness');
  });
});
