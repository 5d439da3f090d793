// Try Failure Memory in a real VS Code on this machine: installs what is missing, packages the
// VSIX, installs it into a local code-server (127.0.0.1 only) with a sample workspace, prints
// the URL and keeps running until Ctrl+C.
//
// The first run downloads and builds: `npm ci` (about 4 minutes on a busy 2-core machine) and
// code-server with its native modules (about 5 minutes). The two run side by side, each step says
// how long it has been going, and code-server goes to a cache shared by every clone
// (${XDG_CACHE_HOME:-~/.cache}/failure-memory/e2e, unless this clone's .e2e/ has it already), so a
// second clone or a second run starts in seconds.
// usage: npm run try            (PORT=8080 by default)
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const port = Number(process.env.PORT || 8080);
const tryDir = join(root, '.try');
const started = Date.now();

const minutes = ms => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/** The code-server install to use: this clone's when it has one, else the cache every clone shares. */
function e2eDir() {
  if (process.env.E2E_DIR) return resolve(process.env.E2E_DIR);
  const own = join(root, '.e2e');
  if (existsSync(join(own, 'code-server', '.installed'))) return own;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'failure-memory', 'e2e');
}

/**
 * Runs a step as a child process (its own output shown as it comes), saying every 20 s that it is
 * still going and how long it has taken; resolves with the time it took, rejects when it fails.
 */
function step(name, cmd, args, env = process.env) {
  const t0 = Date.now();
  const ticker = setInterval(() => console.log(`   … ${name}: still going after ${minutes(Date.now() - t0)}`), 20_000);
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env });
    child.on('error', e => (clearInterval(ticker), fail(new Error(`${name}: ${e.message}`))));
    child.on('exit', code => {
      clearInterval(ticker);
      if (code === 0) {
        console.log(`   ✓ ${name} (${minutes(Date.now() - t0)})`);
        done(Date.now() - t0);
      } else fail(new Error(`${name} failed (exit ${code})`));
    });
  });
}

const e2e = e2eDir();
const codeServerReady = existsSync(join(e2e, 'code-server', '.installed'));
const depsReady = existsSync(join(root, 'node_modules', '.package-lock.json'));
if (codeServerReady && depsReady) console.log('== Everything is installed: this takes a few seconds.');
else {
  console.log(`== First run on this machine: about 10 minutes measured on a busy 2-core machine from a fresh clone
   (npm ci about 4 min, code-server about 5 min; both run at once here, so about 5 to 6 min),
   then seconds. ${codeServerReady ? 'code-server is installed already.' : `code-server goes to ${e2e} (shared by every clone).`}`);
}

try {
  // npm's packages and code-server (VS Code 1.100.3, the oldest the extension supports) at once:
  // they install into different folders and npm's cache takes both
  await Promise.all([
    step('npm ci (the project\'s packages)', process.execPath, ['scripts/ensure-deps.mjs', '--npm-only']),
    step('code-server (VS Code 1.100.3)', 'bash', ['test/e2e/setup.sh'], { ...process.env, E2E_DIR: e2e, E2E_VSCODE: '1.100', E2E_SKIP_PLAYWRIGHT: '1' }),
  ]);
  await step('packaging the extension', process.execPath, ['scripts/package.mjs', '--target', `${process.platform}-${process.arch}`, '--out', join(tryDir, 'vsix')]);
} catch (e) {
  console.error(`\n== ${e.message} after ${minutes(Date.now() - started)}`);
  process.exit(1);
}
const vsix = join(tryDir, 'vsix', readdirSync(join(tryDir, 'vsix')).filter(f => f.endsWith('.vsix')).sort().pop());

const ws = join(tryDir, 'workspace');
const udd = join(tryDir, 'user-data');
const exts = join(tryDir, 'extensions');
rmSync(exts, { recursive: true, force: true });
if (!existsSync(ws)) cpSync(join(root, 'samples', 'demo'), ws, { recursive: true });
mkdirSync(join(udd, 'User'), { recursive: true });
writeFileSync(join(udd, 'User', 'settings.json'), JSON.stringify({
  'terminal.integrated.shellIntegration.enabled': true,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
}, null, 2));
const cs = join(e2e, 'code-server', 'node_modules', '.bin', 'code-server');
const env = { ...process.env, XDG_CONFIG_HOME: join(tryDir, 'xdg', 'config'), XDG_DATA_HOME: join(tryDir, 'xdg', 'data') };
await step('installing the VSIX into code-server', cs, ['--user-data-dir', udd, '--extensions-dir', exts, '--install-extension', vsix, '--force'], env);
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
console.log(`\n== Failure Memory ${version} is installed from ${vsix} (ready in ${minutes(Date.now() - started)})`);
console.log(`   Open http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
console.log('   Then run `bash check.sh` five times in the terminal, and once more. Ctrl+C here stops the server.\n');
const child = spawn(cs, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
  '--user-data-dir', udd, '--extensions-dir', exts, ws], { env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', code => process.exit(code ?? 0));
