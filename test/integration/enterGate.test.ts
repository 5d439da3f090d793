// The Enter gate's shell side (media/shell/enter.*) against its real server (EnterGateServer), in real
// interactive shells on a pseudo-terminal (util-linux `script`): a line the server blocks never runs
// (a whole multi-line command is dropped), an allowed line runs, the reason comes at the next prompt,
// and a missing, stuck or impostor server never keeps a line from running nor learns it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import type { EnterRequest } from '../../src/core/enterProtocol';
import { BASH_PROMPT_LOADER, EnterGateServer } from '../../src/host/enterGateServer';
import { tempFolders } from '../support/tempFolders';

const SHELL_DIR = resolve(__dirname, '../../media/shell');
const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const temp = tempFolders('fm-enter-');

/** A gate that blocks every line naming BLOCKME, and remembers what it was asked. */
async function gate(): Promise<{ file: string; asked: EnterRequest[]; server: EnterGateServer }> {
  const asked: EnterRequest[] = [];
  const server = new EnterGateServer(async r => {
    asked.push(r);
    return r.line.includes('BLOCKME') ? { verdict: 'block', line: `Failure Memory: NOT RUN — “${r.line}”` } : { verdict: 'run' };
  });
  const a = await server.listen();
  after(() => server.close());
  const file = join(temp(), 'enter-gate');
  writeFileSync(file, `FM1 ${a.port} ${a.clientToken} ${a.serverToken} 1.5\n`, { mode: 0o600 });
  return { file, asked, server };
}

/** Runs an interactive shell on a pseudo-terminal, typing `lines` (without blocking this process: the server answers meanwhile). */
function interactive(shell: 'bash' | 'zsh' | 'fish', cwd: string, lines: string[], env: Record<string, string>): Promise<string> {
  const home = temp();
  let argv: string;
  const base: Record<string, string> = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'dumb', FAILURE_MEMORY_SHELL_DIR: SHELL_DIR, ...env };
  if (shell === 'bash') {
    writeFileSync(join(home, '.bashrc'), "PS1='P> '\n");
    argv = 'bash -i';
    base.PROMPT_COMMAND = BASH_PROMPT_LOADER;
  } else if (shell === 'zsh') {
    // as the extension lays it out: a ZDOTDIR whose .zshenv puts the user's back and loads the gate
    const zdotdir = join(home, 'fm-zdotdir');
    mkdirSync(zdotdir);
    writeFileSync(join(zdotdir, '.zshenv'), readFileSync(join(SHELL_DIR, 'zdotdir.zsh')));
    writeFileSync(join(home, '.zshrc'), "PROMPT='P> '\n");
    argv = 'zsh -i';
    base.ZDOTDIR = zdotdir;
  } else {
    const xdg = join(home, 'fm-xdg');
    mkdirSync(join(xdg, 'fish', 'vendor_conf.d'), { recursive: true });
    writeFileSync(join(xdg, 'fish', 'vendor_conf.d', 'failure-memory.fish'), readFileSync(join(SHELL_DIR, 'vendor.fish')));
    argv = 'fish -i';
    Object.assign(base, { XDG_DATA_DIRS: `${xdg}:/usr/local/share:/usr/share`, FAILURE_MEMORY_XDG_DIR: xdg, XDG_CONFIG_HOME: join(home, '.config') });
    // there already: fish would otherwise generate completions in the background, into a folder being removed
    mkdirSync(join(home, '.local', 'share', 'fish', 'generated_completions'), { recursive: true });
  }
  return new Promise((done, fail) => {
    const child = spawn('script', ['-qec', argv, '/dev/null'], { cwd, env: base, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', d => (out += d));
    child.stderr.on('data', d => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(timer);
      done(out.replace(/\r/g, ''));
    });
    // one line at a time, each after the shell had time to read the one before (as a person types)
    let i = 0;
    const next = () => {
      if (i < lines.length) {
        child.stdin.write(`${lines[i++]}\n`);
        setTimeout(next, 400);
      } else child.stdin.end('exit\n');
    };
    setTimeout(next, 800);
  });
}

const trace = (ws: string) => (existsSync(join(ws, 'trace')) ? readFileSync(join(ws, 'trace'), 'utf8').split('\n').filter(Boolean) : []);

for (const shell of ['bash', 'zsh', 'fish'] as const) {
  describe(`the Enter gate in ${shell}`, { skip: (!has(shell) || !has('script')) && `${shell} or script is not installed` }, () => {
    test('a blocked line never runs, an allowed one does; the reason comes at the next prompt; the shell said who and where it is', async () => {
      const { file, asked } = await gate();
      const ws = temp();
      const out = await interactive(shell, ws, ['echo one >> trace', 'echo BLOCKME >> trace', 'echo two >> trace'], { FAILURE_MEMORY_ENTER: file });
      assert.deepEqual(trace(ws), ['one', 'two'], out);
      assert.match(out, /Failure Memory: NOT RUN — “echo BLOCKME >> trace”/);
      const blocked = asked.find(r => r.line.includes('BLOCKME'));
      assert.ok(blocked, JSON.stringify(asked));
      assert.equal(blocked.shell, shell);
      assert.equal(blocked.cwd, ws);
      assert.ok(blocked.pid && blocked.pid > 1);
    });

    test('a blocked line inside a multi-line command drops the whole command', { skip: shell === 'fish' && 'fish checks the whole buffer once it is complete' }, async () => {
      const { file } = await gate();
      const ws = temp();
      const out = await interactive(shell, ws, ['for i in 1 2; do', 'echo in-loop >> trace', 'echo BLOCKME >> trace', 'done', 'echo after >> trace'], { FAILURE_MEMORY_ENTER: file });
      assert.ok(!trace(ws).includes('in-loop'), out);
      assert.ok(trace(ws).includes('after'), out);
    });

    test('no window (no file, or nobody on the port): every line runs at once', async () => {
      const ws = temp();
      const dead = await new Promise<number>(r => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
          const port = (s.address() as { port: number }).port;
          s.close(() => r(port));
        });
      });
      const file = join(temp(), 'enter-gate');
      writeFileSync(file, `FM1 ${dead} ${'a'.repeat(32)} ${'b'.repeat(32)} 1.5\n`);
      const t0 = Date.now();
      await interactive(shell, ws, ['echo BLOCKME >> trace'], { FAILURE_MEMORY_ENTER: file });
      await interactive(shell, ws, ['echo BLOCKME >> trace'], { FAILURE_MEMORY_ENTER: join(ws, 'no-such-file') });
      assert.deepEqual(trace(ws), ['BLOCKME', 'BLOCKME']);
      assert.ok(Date.now() - t0 < 20_000);
    });

    test('a server that does not prove itself learns no line; one that never answers lets the line run', async () => {
      const received: string[] = [];
      const impostor: Server = createServer(s => {
        s.write('FM1 not-the-token\n');
        s.on('data', d => received.push(String(d)));
      });
      const stuck: Server = createServer(s => {
        s.on('data', () => undefined);
      });
      const listen = (srv: Server) => new Promise<number>(r => srv.listen(0, '127.0.0.1', () => r((srv.address() as { port: number }).port)));
      const [p1, p2] = [await listen(impostor), await listen(stuck)];
      after(() => {
        impostor.close();
        stuck.close();
      });
      const ws = temp();
      const f1 = join(temp(), 'enter-gate');
      writeFileSync(f1, `FM1 ${p1} ${'a'.repeat(32)} ${'b'.repeat(32)} 1.5\n`);
      await interactive(shell, ws, ['echo secret-BLOCKME >> trace'], { FAILURE_MEMORY_ENTER: f1 });
      assert.deepEqual(received, [], 'the impostor got nothing');
      // the stuck server: it greets correctly but never answers
      const stuckProper: Server = createServer(s => s.write(`FM1 ${'b'.repeat(32)}\n`));
      const p3 = await listen(stuckProper);
      after(() => stuckProper.close());
      const f2 = join(temp(), 'enter-gate');
      writeFileSync(f2, `FM1 ${p3} ${'a'.repeat(32)} ${'b'.repeat(32)} 0.5\n`);
      await interactive(shell, ws, ['echo slow-BLOCKME >> trace'], { FAILURE_MEMORY_ENTER: f2 });
      void p2;
      assert.deepEqual(trace(ws), ['secret-BLOCKME', 'slow-BLOCKME']);
    });
  });
}
