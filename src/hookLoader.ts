// dist/hook.js: runs dist/hook-main.js with a V8 code cache (Node 20 has no module compile cache),
// so that a hook call costs about one Node start. The cache lives in the user's own folder
// (~/.failure-memory/cache, mode 0700), is keyed by the bundle's size, mtime and the Node version,
// and is written after the first run so it holds the functions that run actually compiled.
// Anything wrong with the cache: the bundle simply runs without it.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

const main = join(__dirname, 'hook-main.js');

function cacheFile(): string | undefined {
  try {
    const st = statSync(main);
    const dir = process.env.FAILURE_MEMORY_CACHE_DIR || join(homedir(), '.failure-memory', 'cache');
    return join(dir, `hook-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}.v8`);
  } catch {
    return undefined;
  }
}

function run(): void {
  const source = readFileSync(main, 'utf8').replace(/^#!.*/, '');
  const file = cacheFile();
  let cached: Buffer | undefined;
  try {
    if (file) cached = readFileSync(file);
  } catch {
    // no cache yet
  }
  const script = new Script(Module.wrap(source), { filename: main, cachedData: cached });
  const mod = { exports: {} as unknown };
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  if (file && (!cached || script.cachedDataRejected)) {
    process.once('beforeExit', () => {
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, file);
      } catch {
        // a read-only home: run without a cache
      }
    });
  }
  fn.call(mod.exports, mod.exports, Module.createRequire(main), mod, main, __dirname);
}

run();
