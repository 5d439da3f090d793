// The documented hook scripts (docs/hooks/**), run as Claude Code and the shells run them: tool-call
// JSON on stdin, `failure-memory` on PATH (a shim to the built dist/cli.js), exit codes checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
const HOOKS = join(REPO, 'docs/hooks');
const PRE = join(HOOKS, 'claude-code/pretooluse-check.sh');
const POST = join(HOOKS, 'claude-code/posttooluse-record.sh');
const BASH_SNIPPET = join(HOOKS, 'shell/failure-memory.bash');
const ZSH_SNIPPET = join(HOOKS, 'shell/failure-memory.zsh');
const PRISMA = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /home/dev/app/node_modules/.prisma/client/index.js";

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

let bin: string;
before(() => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  bin = mkdtempSync(join(tmpdir(), 'fm-hooks-bin-'));
  const shim = join(bin, 'failure-memory');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(shim, 0o755);
});

function env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  for (const k of ['CLAUDE_PROJECT_DIR', 'FAILURE_MEMORY_BIN', 'FAILURE_MEMORY_WORKSPACE', 'FAILURE_MEMORY_SHELL_HOOK', 'TERM_PROGRAM']) delete e[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  return e;
}

function hook(script: string, payload: unknown, extraEnv: Record<string, string | undefined> = {}) {
  const r = spawnSync('bash', [script], { input: typeof payload === 'string' ? payload : JSON.stringify(payload), encoding: 'utf8', env: env(extraEnv) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function project() {
  const ws = mkdtempSync(join(tmpdir(), 'fm-hooks-ws-'));
  mkdirSync(join(ws, 'api'), { recursive: true });
  return ws;
}

const memory = (ws: string) => JSON.parse(readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8'));
const pre = (command: string, cwd: string, tool = 'Bash') => ({ session_id: 's', transcript_path: '/tmp/t.jsonl', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { command, description: 'x' }, cwd });
const failure = (command: string, cwd: string, error: string, isInterrupt = false) => ({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1', cwd, error, is_interrupt: isInterrupt });
const success = (command: string, cwd: string, stdout: string, extra: Record<string, unknown> = {}) => ({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, cwd, tool_response: { stdout, stderr: '', interrupted: false, isImage: false, ...extra } });

describe('Claude Code hooks (docs/hooks/claude-code)', () => {
  test('PostToolUseFailure records; after five failures PreToolUse blocks with exit 2 and "NOT RUN"', () => {
    const ws = project();
    const cwd = join(ws, 'api');
    const proj = { CLAUDE_PROJECT_DIR: ws };
    assert.equal(hook(PRE, pre('npx prisma generate', cwd), proj).code, 0, 'clear before any failure');
    for (let i = 0; i < 5; i++) {
      const r = hook(POST, failure('npx prisma generate', cwd, `Exit code 1\n${PRISMA}`), proj);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
    }
    const a = memory(ws).approaches['api::prisma generate'];
    assert.ok(a, JSON.stringify(Object.keys(memory(ws).approaches)));
    assert.equal(a.failures, 5);
    assert.equal(a.status, 'exhausted');
    assert.match(a.lastErrorSignature, /@prisma\/client/);
    assert.ok(a.attempts.every((t: { source: string; exitCode: number }) => t.source === 'agent' && t.exitCode === 1));

    const blocked = hook(PRE, pre('npx prisma generate --schema prisma/schema.prisma', cwd), proj);
    assert.equal(blocked.code, 2);
    assert.match(blocked.stderr, /NOT RUN/);
    assert.match(blocked.stderr, /npx prisma generate --schema prisma\/schema\.prisma/);
    assert.match(blocked.stderr, /failed 5 times/);
    assert.match(blocked.stderr, /ask the user/);
    assert.doesNotMatch(blocked.stderr, /succe(ss|eded)\b(?! since)/i, 'never reads as success');
    assert.equal(blocked.stdout, '');

    // same command from the project root is another approach (another folder): clear
    assert.equal(hook(PRE, pre('npx prisma generate', ws), proj).code, 0);
    // other tools and other folders are not the gate's business
    assert.equal(hook(PRE, { ...pre('npx prisma generate', cwd, 'Edit'), tool_input: { file_path: 'x' } }, proj).code, 0);
    assert.equal(hook(PRE, pre('npx prisma generate', '/somewhere/else'), proj).code, 0);
    assert.equal(hook(PRE, 'not json', proj).code, 0);
  });

  test('PostToolUse of a success resolves the approach; the gate opens again', () => {
    const ws = project();
    for (let i = 0; i < 5; i++) hook(POST, failure('npm test', ws, 'Exit code 1\nTests:       2 failed, 3 passed, 5 total'), { CLAUDE_PROJECT_DIR: ws });
    assert.equal(hook(PRE, pre('npm test', ws), { CLAUDE_PROJECT_DIR: ws }).code, 2);
    assert.equal(hook(POST, success('npm test', ws, 'Tests:       5 passed, 5 total'), { CLAUDE_PROJECT_DIR: ws }).code, 0);
    const a = memory(ws).approaches['.::npm test'];
    assert.equal(a.status, 'resolved');
    assert.equal(a.failures, 0);
    assert.equal(hook(PRE, pre('npm test', ws), { CLAUDE_PROJECT_DIR: ws }).code, 0);
  });

  test('exit codes: explicit, "status code N", interrupts (never counted); no CLAUDE_PROJECT_DIR → cwd is the workspace', () => {
    const ws = project();
    hook(POST, failure('make build', ws, 'Command exited with non-zero status code 3\nmake: *** [build] Error 1'));
    hook(POST, failure('make build', ws, 'Interrupted by user', true));
    hook(POST, success('make build', ws, 'partial', { interrupted: true }));
    hook(POST, success('make build', ws, '', { exit_code: 4, stderr: 'make: *** [build] Error 2' }));
    const a = memory(ws).approaches['.::make build'];
    assert.deepEqual(
      a.attempts.map((t: { exitCode: number; outcome: string }) => [t.exitCode, t.outcome]),
      [[3, 'failure'], [130, 'interrupted'], [130, 'interrupted'], [4, 'failure']],
    );
    assert.equal(a.failures, 2);
  });

  test('an exhausted approach that is improving is let through (exit 0): progress is not a loop', () => {
    const ws = project();
    for (const passed of [1, 2, 3, 4, 5]) hook(POST, failure('npx jest', ws, `Exit code 1\nTests:       ${10 - passed} failed, ${passed} passed, 10 total`));
    assert.equal(memory(ws).approaches['.::jest'].status, 'exhausted');
    const r = hook(PRE, pre('npx jest', ws));
    assert.equal(r.code, 0, r.stderr);
  });

  test('secrets in the tool output never reach the memory file', () => {
    const ws = project();
    const key = 'AKIA' + 'IOSFODNN7EXAMPLE';
    hook(POST, failure('aws s3 ls', ws, `Exit code 255\naws_access_key_id=${key}\nAn error occurred (InvalidAccessKeyId)`));
    const file = readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8');
    assert.ok(!file.includes(key));
    assert.match(file, /REDACTED/);
  });

  test('without failure-memory on PATH: the gate says so and does not block (exit 1); the recorder stays quiet', () => {
    const ws = project();
    const noFm = { PATH: '/usr/bin:/bin', FAILURE_MEMORY_BIN: 'failure-memory-missing' };
    const nodeDir = resolve(process.execPath, '..');
    const r = hook(PRE, pre('npm test', ws), { ...noFm, PATH: `${nodeDir}:/usr/bin:/bin` });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not found/);
    assert.equal(hook(POST, failure('npm test', ws, 'Exit code 1'), { ...noFm, PATH: `${nodeDir}:/usr/bin:/bin` }).code, 0);
  });

  test('the documented settings.json is valid and wires the three events to the two scripts', () => {
    const s = JSON.parse(readFileSync(join(HOOKS, 'claude-code/settings.json'), 'utf8'));
    const cmd = (event: string) => s.hooks[event][0].hooks[0].command as string;
    assert.equal(s.hooks.PreToolUse[0].matcher, 'Bash');
    assert.match(cmd('PreToolUse'), /pretooluse-check\.sh"?$/);
    assert.match(cmd('PostToolUse'), /posttooluse-record\.sh"?$/);
    assert.match(cmd('PostToolUseFailure'), /posttooluse-record\.sh"?$/);
    const doc = readFileSync(join(REPO, 'docs/agents.md'), 'utf8');
    assert.ok(doc.includes('pretooluse-check.sh') && doc.includes('posttooluse-record.sh'), 'docs/agents.md documents both scripts');
  });
});

/** Runs an interactive shell on a pseudo-terminal (util-linux `script`), typing `lines`. */
function interactive(shell: 'bash' | 'zsh', cwd: string, lines: string[]) {
  const argv = shell === 'bash' ? 'bash --norc --noprofile -i' : 'zsh -f -i';
  const prompt = shell === 'bash' ? "PS1='P> '" : "PROMPT='P> '";
  const input = [prompt, `source ${shell === 'bash' ? BASH_SNIPPET : ZSH_SNIPPET}`, ...lines, 'exit', ''].join('\n');
  const r = spawnSync('script', ['-qec', argv, '/dev/null'], { cwd, input, encoding: 'utf8', env: env({ FAILURE_MEMORY_SYNC: '1', TERM: 'dumb' }), timeout: 60_000 });
  return { code: r.status, out: (r.stdout ?? '').replace(/\r/g, '') };
}

for (const shell of ['bash', 'zsh'] as const) {
  const snippet = shell === 'bash' ? BASH_SNIPPET : ZSH_SNIPPET;
  describe(`plain ${shell} (docs/hooks/shell/failure-memory.${shell})`, { skip: !has(shell) && `${shell} is not installed` }, () => {
    const sh = (ws: string, script: string, extra: Record<string, string> = {}) =>
      spawnSync(shell, shell === 'bash' ? ['--norc', '--noprofile', '-c', script] : ['-f', '-c', script], { cwd: ws, encoding: 'utf8', env: env({ FAILURE_MEMORY_SYNC: '1', ...extra }) });

    test('the gate function: clear → 0; exhausted → 1 with "NOT RUN"; the record function counts exit codes', () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const r = sh(
        join(ws, 'api'),
        `source ${snippet}
         __fm_gate "cargo build --release"; echo "clear=$?"
         for i in 1 2 3 4 5; do __fm_record "cargo build" 101 "$(__fm_workspace)" "$(__fm_rel "$(__fm_workspace)")"; done
         __fm_gate "cargo build --release"; echo "exhausted=$?"`,
      );
      assert.match(r.stdout, /clear=0/);
      assert.match(r.stdout, /exhausted=1/, r.stderr);
      const reason = shell === 'bash' ? r.stderr : r.stdout + r.stderr;
      if (shell === 'bash') assert.match(reason, /NOT RUN — `cargo build --release`/);
      assert.equal(memory(ws).approaches['api::cargo build'].failures, 5);
    });

    test('outside any project nothing is checked or kept', () => {
      const dir = mkdtempSync(join(tmpdir(), 'fm-hooks-none-'));
      const r = sh(dir, `source ${snippet}; __fm_gate "make"; echo "gate=$?"; w=$(__fm_workspace); echo "ws=[$w]"`, { GIT_CEILING_DIRECTORIES: tmpdir() });
      assert.match(r.stdout, /gate=0/);
      assert.match(r.stdout, /ws=\[\]/);
    });

    test('interactive, on a terminal: five failures, then the sixth line is NOT RUN and the shell goes on', { skip: !has('script') && 'util-linux script is not installed' }, () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const r = interactive(shell, ws, ['false 1', 'false 2', 'false 3', 'false 4', 'false 5', 'false 6 && echo SHOULD-NOT-PRINT', 'echo alive-$((40+2))']);
      assert.match(r.out, /Failure Memory: NOT RUN — `false 6 && echo SHOULD-NOT-PRINT`/);
      assert.doesNotMatch(r.out, /^SHOULD-NOT-PRINT/m);
      assert.match(r.out, /alive-42/);
      const a = memory(ws).approaches['.::false'];
      assert.equal(a.failures, 5, 'the blocked line is not recorded');
      assert.equal(a.attempts[0].source, 'terminal');
    });

    test("in VS Code's own terminal it stays off (the extension already gates and records)", { skip: !has('script') && 'util-linux script is not installed' }, () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const argv = shell === 'bash' ? 'bash --norc --noprofile -i' : 'zsh -f -i';
      const r = spawnSync('script', ['-qec', argv, '/dev/null'], { cwd: ws, input: `source ${snippet}\nfalse\nexit\n`, encoding: 'utf8', env: env({ FAILURE_MEMORY_SYNC: '1', TERM_PROGRAM: 'vscode' }) });
      assert.equal(r.status === null, false);
      assert.equal(existsSync(join(ws, '.vscode/failure-memory/memory.json')), false);
    });
  });
}
