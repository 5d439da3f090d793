// A throwaway PostgreSQL cluster for tests and benchmarks: initdb + pg_ctl in a temp folder, on a free
// port of 127.0.0.1 only, its socket in the temp folder, password (scram) authentication. As root
// (CI, this machine) the server runs as the `postgres` user through runuser, since initdb refuses root.
// stop() is idempotent; remove() stops and deletes the folder. Register remove() in an `after` hook.

import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

export interface PgCluster {
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgres://user:password@127.0.0.1:port/db */
  url: string;
  /** The same URL without the password. */
  urlWithoutPassword: string;
  dir: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/** The binaries of the newest installed PostgreSQL, or undefined when none is installed. */
export function findPostgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).filter(v => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(base, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  return undefined;
}

/** One query on a fresh connection (closed afterwards): the rows, for assertions on what the database holds. */
export async function queryRows<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function startCluster(opts: { user?: string; password?: string } = {}): Promise<PgCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql); .ci/run installs it');
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'fm-pg-'));
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  mkdirSync(sock);
  const user = opts.user ?? 'fm_test';
  const password = opts.password ?? `pw-${Math.random().toString(36).slice(2)}`;
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    for (const p of [dir, sock, pwfile]) chownSync(p, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (cmd: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { cwd: dir }) : run(join(bin, cmd), args, { cwd: dir }));
  await as('initdb', ['-D', data, '-U', user, '-A', 'scram-sha-256', `--pwfile=${pwfile}`, '--no-sync', '-E', 'UTF8', '--locale=C']);
  rmSync(pwfile, { force: true });
  const port = await freePort();
  const options = `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  let running = false;
  const cluster: PgCluster = {
    port,
    user,
    password,
    database: 'postgres',
    url: `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    urlWithoutPassword: `postgres://${user}@127.0.0.1:${port}/postgres`,
    dir,
    async start() {
      await as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
      running = true;
    },
    async stop() {
      if (!running) return;
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']).catch(() => undefined);
      running = false;
    },
    async remove() {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return cluster;
}
