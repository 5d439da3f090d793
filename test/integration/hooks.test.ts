// The bash and zsh snippets (docs/hooks/shell), run as the shells run them, with `failure-memory`
// on PATH (a shim to the built dist/cli.js). Agent harness hooks: agentHooks.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { tempFolders } from '../support/tempFolders';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
const HOOKS = join(REPO, 'docs/hooks');
const BASH_SNIPPET = join(HOOKS, 'shell/failure-memory.bash');
const ZSH_SNIPPET = join(HOOKS, 'shell/failure-memory.zsh');

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

const temp = tempFolders('fm-hooks-');
let bin: string;
before(() => {
  assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
  bin = temp();
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

function project() {
  const ws = temp();
  mkdirSync(join(ws, 'api'), { recursive: true });
  return ws;
}

const memory = (ws: string) => JSON.parse(readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8'));

/** Runs an interactive shell on a pseudo-terminal (util-linux `script`), typing `lines`. */
function interactive(shell: 'bash' | 'zsh', cwd: string, lines: string[], extraEnv: Record<string, string | undefined> = { FAILURE_MEMORY_SYNC: '1' }) {
  const argv = shell === 'bash' ? 'bash --norc --noprofile -i' : 'zsh -f -i';
  const prompt = shell === 'bash' ? "PS1='P> '" : "PROMPT='P> '";
  const input = [prompt, `source ${shell === 'bash' ? BASH_SNIPPET : ZSH_SNIPPET}`, ...lines, 'exit', ''].join('\n');
  const r = spawnSync('script', ['-qec', argv, '/dev/null'], { cwd, input, encoding: 'utf8', env: env({ TERM: 'dumb', ...extraEnv }), timeout: 60_000 });
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
      if (shell === 'bash') assert.match(reason, /NOT RUN — ⟦cargo build --release⟧/);
      assert.equal(memory(ws).approaches['api::cargo build'].failures, 5);
    });

    test('outside any project nothing is checked or kept', () => {
      const dir = temp();
      const r = sh(dir, `source ${snippet}; __fm_gate "make"; echo "gate=$?"; w=$(__fm_workspace); echo "ws=[$w]"`, { GIT_CEILING_DIRECTORIES: tmpdir() });
      assert.match(r.stdout, /gate=0/);
      assert.match(r.stdout, /ws=\[\]/);
    });

    test('interactive, on a terminal: five failures, then the sixth line is NOT RUN and the shell goes on', { skip: !has('script') && 'util-linux script is not installed' }, () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const r = interactive(shell, ws, ['false 1', 'false 2', 'false 3', 'false 4', 'false 5', 'false 6 && echo SHOULD-NOT-PRINT', 'echo alive-$((40+2))']);
      assert.match(r.out, /Failure Memory: NOT RUN — ⟦false 6 && echo SHOULD-NOT-PRINT⟧/);
      assert.doesNotMatch(r.out, /^SHOULD-NOT-PRINT/m);
      assert.match(r.out, /alive-42/);
      const a = memory(ws).approaches['.::false'];
      assert.equal(a.failures, 5, 'the blocked line is not recorded');
      assert.equal(a.attempts[0].source, 'terminal');
    });

    test('the sixth quick run is stopped even though successes record in the background (failures are recorded before the next prompt)', { skip: !has('script') && 'util-linux script is not installed' }, () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const r = interactive(shell, ws, ['false 1', 'false 2', 'false 3', 'false 4', 'false 5', 'false 6; echo SIXTH-$((1+1))'], { FAILURE_MEMORY_SYNC: undefined });
      assert.match(r.out, /Failure Memory: NOT RUN/);
      assert.doesNotMatch(r.out, /^SIXTH-2/m);
      assert.equal(memory(ws).approaches['.::false'].failures, 5);
    });

    test('a blocked line inside a multi-line for … done drops the whole command; the message is on its own line', { skip: !has('script') && 'util-linux script is not installed' }, () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const r = interactive(shell, ws, ['false 1', 'false 2', 'false 3', 'false 4', 'false 5', 'for i in 1 2; do', 'echo BEFORE-$((i*10))', 'false 7', 'echo AFTER-$((i*10))', 'done', 'echo alive-$((40+2))']);
      assert.match(r.out, /Failure Memory: NOT RUN — ⟦false 7⟧/);
      assert.doesNotMatch(r.out, /^(BEFORE|AFTER)-(10|20)/m, 'nothing of the loop ran');
      assert.match(r.out, /alive-42/);
      assert.match(r.out, /^Failure Memory: NOT RUN/m, 'the message starts a line of its own');
    });

    test('a symlinked project folder is the same workspace as its target', () => {
      const ws = realpathSync(project());
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const link = join(realpathSync(temp()), 'proj');
      symlinkSync(ws, link);
      const r = sh(
        join(link, 'api'),
        `source ${snippet}
         echo "ws=[$(__fm_workspace)] rel=[$(__fm_rel "$(__fm_workspace)")]"
         for i in 1 2 3 4 5; do __fm_record "cargo build" 101 "$(__fm_workspace)" "$(__fm_rel "$(__fm_workspace)")"; done`,
      );
      assert.match(r.stdout, new RegExp(`ws=\\[${ws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\] rel=\\[api\\]`));
      const g = sh(join(ws, 'api'), `source ${snippet}; __fm_gate "cargo build"; echo "gate=$?"`);
      assert.match(g.stdout, /gate=1/, 'blocked from the real path too');
    });

    test('without failure-memory the gate says so once and lets commands run', () => {
      const ws = project();
      mkdirSync(join(ws, '.vscode/failure-memory'), { recursive: true });
      const r = sh(ws, `source ${snippet}; __fm_gate "make"; echo "a=$?"; __fm_gate "make"; echo "b=$?"`, { FAILURE_MEMORY_BIN: 'failure-memory-not-installed' });
      assert.match(r.stdout, /a=0[\s\S]*b=0/);
      assert.equal((r.stderr.match(/Failure Memory: failure-memory-not-installed not found; commands are not checked in this shell\./g) ?? []).length, 1);
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
