// Loaded first into the process that runs the pure unit tests (scripts/run-tests.mjs unit). A pure
// test runs inside this one thread: it starts no process and no worker thread and opens no socket,
// so `npm run check` stays fast and needs nothing but Node. Each way out throws with the rule and
// where such a test belongs; the static half of the rule (no such import in test/unit) is lint's.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process');
const net = require('node:net');
const dgram = require('node:dgram');
const workerThreads = require('node:worker_threads');

export class ImpureTestError extends Error {
  constructor(what) {
    super(`${what} in a pure unit test: test/unit runs in one thread without processes or sockets. Move the test to test/integration (npm run test:integration), or give the code under test a seam it can be faked through.`);
    this.name = 'ImpureTestError';
  }
}

// tsx compiles the test files through esbuild, which runs its own service (a worker thread and a
// process): the loader's tooling, not the code under test
const TOOLING = /[\\/]node_modules[\\/](?:esbuild|tsx)[\\/]/;
/** True when the function that called a guarded one (the frame above it) belongs to the tooling. */
function fromTooling() {
  // frames: this function, the guarded function, its caller
  const caller = (new Error().stack ?? '').split('\n')[3] ?? '';
  return TOOLING.test(caller);
}

/** `original`, refused unless the loader's tooling calls it. */
const refuse = (what, original) => function refused(...args) {
  if (!fromTooling()) throw new ImpureTestError(what);
  return new.target ? Reflect.construct(original, args, new.target) : original.apply(this, args);
};

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = refuse(`child_process.${name}()`, childProcess[name]);
}
for (const [proto, name, what] of [
  [net.Socket.prototype, 'connect', 'a socket connection'],
  [net.Server.prototype, 'listen', 'a listening socket'],
  [dgram.Socket.prototype, 'bind', 'a UDP socket'],
  [dgram.Socket.prototype, 'send', 'a UDP socket'],
]) {
  proto[name] = refuse(what, proto[name]);
}
const { Worker } = workerThreads;
workerThreads.Worker = class GuardedWorker extends Worker {
  constructor(...args) {
    if (!fromTooling()) throw new ImpureTestError('a worker thread');
    super(...args);
  }
};
// `import { spawn } from 'node:child_process'` in an ES module reads the patched functions too
syncBuiltinESMExports();
