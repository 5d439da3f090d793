// Try Failure Memory in a real VS Code on this machine: installs what is missing, packages the
// VSIX, installs it into a local code-server (127.0.0.1 only) with a sample workspace, prints
// the URL and keeps running until Ctrl+C.
// usage: npm run try            (PORT=8080 by default)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', ...opts });
const port = Number(process.env.PORT || 8080);
const tryDir = join(root, '.try');

run(process.execPath, ['scripts/ensure-deps.mjs', '--npm-only']); // npm ci when node_modules is missing or stale
console.log('== code-server (VS Code 1.100.3) — first time about a minute');
// only the VS Code `try` starts (the tests also install the current one, 1.139)
run('bash', ['test/e2e/setup.sh'], { env: { ...process.env, E2E_VSCODE: '1.100' } });
console.log('== packaging the extension');
run(process.execPath, ['scripts/package.mjs', '--target', `${process.platform}-${process.arch}`, '--out', join(tryDir, 'vsix')]);
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
const cs = join(root, '.e2e', 'code-server', 'node_modules', '.bin', 'code-server');
const env = { ...process.env, XDG_CONFIG_HOME: join(tryDir, 'xdg', 'config'), XDG_DATA_HOME: join(tryDir, 'xdg', 'data') };
run(cs, ['--user-data-dir', udd, '--extensions-dir', exts, '--install-extension', vsix, '--force'], { env });
console.log(`\n== Failure Memory is installed from ${vsix}`);
console.log(`   Open http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
console.log('   Then run `bash check.sh` five times in the terminal, and once more. Ctrl+C here stops the server.\n');
const child = spawn(cs, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
  '--user-data-dir', udd, '--extensions-dir', exts, ws], { env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', code => process.exit(code ?? 0));
