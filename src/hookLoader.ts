// dist/hook.js: runs dist/hook-main.js (a post call: dist/hook-post.js; and, when a call needs the
// store, dist/hook-record.js) with a V8 code cache (Node 20 has no module compile cache), so that a
// hook call costs about one Node start. The cache lives in the user's own folder
// (~/.failure-memory/cache, mode 0700), named by the bundle and Node's version, and signed with the
// SHA-256 of the bundle it was made from (store/codeCache.ts): V8 runs any cache made for a source
// of the same length, so a file Failure Memory did not write is never given to it. It is written after the first run so
// it holds the functions that run compiled, and those of the bundle's `warmUp` (its hot paths run
// once on made-up data). Anything wrong with the cache: the bundle simply runs without it, and the
// next hook writes a good one.
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheKey, readCache, writeCache, type CacheKey } from './store/codeCache';

/** The bundles that run with a code cache, by file name. */
const CACHED = new Set(['hook-main.js', 'hook-post.js', 'hook-record.js']);

/** A post call records (it needs the engine's output parsers): it runs hook-post.js; the others decide: hook-main.js. */
function isPost(argv: string[]): boolean {
  const args = argv[0] === 'hook' ? argv.slice(1) : argv;
  return args[1] === 'post';
}

/** The cache key of a bundle, or undefined when it cannot be made. */
function keyOf(bundle: string): CacheKey | undefined {
  try {
    return cacheKey(bundle, basename(bundle, '.js'));
  } catch {
    return undefined;
  }
}

/** A require for the bundles: the cached ones go through runCached, everything else through Node. */
function requireFor(bundle: string): NodeJS.Require {
  const plain = Module.createRequire(bundle);
  const require = ((id: string) => {
    const file = plain.resolve(id);
    return CACHED.has(basename(file)) && dirname(file) === __dirname ? runCached(file) : plain(id);
  }) as NodeJS.Require;
  return Object.assign(require, { resolve: plain.resolve, cache: plain.cache, main: plain.main, extensions: plain.extensions });
}

const loaded = new Map<string, unknown>();

/** Runs a bundle once (like require) with its code cache; writes the cache at exit when it had none. */
function runCached(bundle: string): unknown {
  if (loaded.has(bundle)) return loaded.get(bundle);
  const source = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  const key = keyOf(bundle);
  const cached = key ? readCache(key, () => source) : undefined;
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData: cached });
  const mod = { exports: {} as unknown };
  loaded.set(bundle, mod.exports);
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  if (key && (!cached || script.cachedDataRejected)) {
    process.once('beforeExit', () => {
      try {
        // the bundle's own paths run once more first, so the cache holds them whatever this call did
        (loaded.get(bundle) as { warmUp?: () => void } | undefined)?.warmUp?.();
        writeCache(key, source, script.createCachedData());
      } catch {
        // a read-only home: run without a cache
      }
    });
  }
  fn.call(mod.exports, mod.exports, requireFor(bundle), mod, bundle, dirname(bundle));
  loaded.set(bundle, mod.exports);
  return mod.exports;
}

runCached(join(__dirname, isPost(process.argv.slice(2)) ? 'hook-post.js' : 'hook-main.js'));
