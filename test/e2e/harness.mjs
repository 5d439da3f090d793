// End-to-end harness: a real VS Code (code-server from npm, installed by test/e2e/setup.sh into
// <repo>/.e2e: VS Code 1.100.3 on Node 20 and 1.139.1 on Node 24, see vscode-versions.json)
// driven in headless Debian Chromium through playwright-core.
//
//   const h = await startVSCode({ name: 'smoke', vscode: '1.139' });
//   try { await h.runCommand('Failure Memory: Open Log'); ... } finally { await h.stop(); }
//
// Every start gets its own run dir (.e2e/runs/<name>-<time>/) holding HOME, XDG dirs, the
// user-data-dir, the extensions dir, the Chromium profile, the workspace (unless one is given),
// code-server.log, browser-console.log and events.jsonl ($FAILURE_MEMORY_E2E_LOG).
import { spawn, execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { codeServerOf, DEFAULT_VSCODE } from './vscodeVersions.mjs';

export { codeServerOf, DEFAULT_VSCODE, VSCODE_VERSIONS } from './vscodeVersions.mjs';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const E2E_DIR = path.resolve(process.env.E2E_DIR || path.join(REPO_ROOT, '.e2e'));
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts', 'e2e');
export const CODE_SERVER_BIN = process.env.E2E_CODE_SERVER || codeServerOf(DEFAULT_VSCODE).bin;
export const CHROMIUM_BIN = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

const sleep = ms => new Promise(r => setTimeout(r, ms));
const ACTIVE_TERMINAL = '.terminal-wrapper.active';
// the prompt the run's ~/.bashrc sets: e2e:<dir> [<command number>:<exit code of the last command>]$
const PROMPT_RE = /^e2e:.*? \[(\d+):(\d+)\]\$ ?(.*)$/;
function lastPrompt(text) {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = PROMPT_RE.exec(lines[i]);
    if (m) return { line: i, n: Number(m[1]), status: Number(m[2]), typed: m[3] };
  }
  return null;
}
const escapeRe = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Settings every run starts from; `settings` passed to startVSCode() override them. */
export const BASE_SETTINGS = {
  // no network here: never offer the embedding model download in tests
  'failureMemory.embeddings.allowDownload': false,
  'terminal.integrated.shellIntegration.enabled': true,
  'terminal.integrated.shellIntegration.decorationsEnabled': 'both',
  'terminal.integrated.defaultProfile.linux': 'bash',
  'terminal.integrated.enablePersistentSessions': false,
  'terminal.integrated.persistentSessionReviveProcess': 'never',
  // DOM renderer: the terminal text is in the DOM, so tests can read it
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.stickyScroll.enabled': false,
  'terminal.integrated.initialHint': false,
  'terminal.integrated.suggest.enabled': false,
  'terminal.integrated.showExitAlert': false,
  'terminal.integrated.enableMultiLinePasteWarning': 'never',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'security.workspace.trust.startupPrompt': 'never',
  // the run dirs live inside the project's git repository: no "repository found in parent folders" toast
  'git.openRepositoryInParentFolders': 'never',
  'editor.accessibilitySupport': 'off',
};

/** What is running, so that a crashing or cancelled runner still stops what it started. */
const live = new Set(); // { pid, h? }
let runCount = 0;
process.once('exit', () => {
  for (const inst of live) {
    killGroup(inst.pid, 'SIGKILL');
    try { fs.rmSync(inst.tmp, { recursive: true, force: true }); } catch { /* best effort */ }
  }
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    for (const inst of live) killGroup(inst.pid, 'SIGTERM');
    process.exit(128 + (os.constants.signals[sig] || 1)); // Playwright closes Chromium on exit
  });
}

/** Stops every VS Code this process started and has not stopped yet. */
export async function stopAll() {
  for (const inst of [...live]) {
    if (inst.h) await inst.h.stop();
    else { killGroup(inst.pid, 'SIGKILL'); live.delete(inst); }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Polls `pred` (sync or async) every 50 ms until it returns a truthy value, which is returned. */
export async function waitFor(pred, ms = 20000, what = 'condition', { abortIf } = {}) {
  const start = Date.now();
  let lastError;
  for (;;) {
    if (abortIf && abortIf()) throw new Error(`stopped while waiting for ${what}`);
    try {
      const v = await pred();
      if (v) return v;
    } catch (e) { lastError = e; }
    if (Date.now() - start > ms) {
      throw new Error(`timeout after ${ms} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`);
    }
    await sleep(50);
  }
}

function loadPlaywright() {
  const req = createRequire(path.join(E2E_DIR, 'tools', 'package.json'));
  try {
    return req('playwright-core');
  } catch (e) {
    throw new Error(`playwright-core not found under ${E2E_DIR}/tools: run bash test/e2e/setup.sh (${e.message})`);
  }
}

/** `<publisher>.<name>-<version>`, the folder name VS Code expects in an extensions dir. */
function extensionFolderName(extDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8'));
  return `${pkg.publisher}.${pkg.name}-${pkg.version}`.toLowerCase();
}

/** Reads a JSON-lines file; a partly written last line is skipped. */
export function readJsonl(file) {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch { return []; }
  const out = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try { out.push(JSON.parse(line)); } catch { /* partial or foreign line */ }
  }
  return out;
}

/**
 * Starts code-server + Chromium and waits until the workbench is ready.
 * @param {object} [o]
 * @param {string} [o.name]              run name: run dir prefix and failure artifact names
 * @param {string} [o.workspace]         folder to open; default: a fresh <runDir>/ws
 * @param {Record<string,string>} [o.workspaceFiles]  files to create in the workspace (relative path → text)
 * @param {boolean} [o.untrusted]       open the workspace in restricted mode (workspace trust on, folder not trusted)
 * @param {string} [o.workspaceFile]     a .code-workspace file (relative to the workspace dir) to open instead of the folder (multi-root)
 * @param {object} [o.settings]          user settings merged over BASE_SETTINGS
 * @param {Record<string,string|undefined>} [o.env]  extra env for code-server (and so the extension host, terminals)
 * @param {string} [o.extensionDevPath]  extension folder to symlink (needs package.json + dist/); default: repo root
 * @param {string} [o.vsix]              install this VSIX instead of symlinking
 * @param {string|null} [o.readyCommand] palette label that must be listed before "ready" (null: don't wait)
 * @param {{width:number,height:number}} [o.viewport]
 * @param {number} [o.timeout]           ms for the workbench to become ready (default 90000)
 * @param {string} [o.vscode]            VS Code version of vscode-versions.json (default: the oldest, 1.100)
 */
export async function startVSCode(o = {}) {
  const name = (o.name || 'run').replace(/[^\w.-]+/g, '_');
  const t0 = Date.now();
  const log = (...a) => { if (process.env.E2E_QUIET !== '1') console.log(`[e2e ${name} ${String(Date.now() - t0).padStart(6)} ms]`, ...a); };
  const cs = o.vscode || !process.env.E2E_CODE_SERVER ? codeServerOf(o.vscode || DEFAULT_VSCODE) : { vscode: DEFAULT_VSCODE, bin: CODE_SERVER_BIN, node: undefined };
  if (!fs.existsSync(cs.bin)) throw new Error(`${cs.bin} missing: run bash test/e2e/setup.sh (VS Code ${cs.vscode})`);
  if (cs.node && !fs.existsSync(cs.node)) throw new Error(`${cs.node} missing: run bash test/e2e/setup.sh (VS Code ${cs.vscode} runs on it)`);
  // argv of a code-server call: its own Node in front when it needs one
  const csCommand = args => (cs.node ? [cs.node, [cs.bin, ...args]] : [cs.bin, args]);
  const { chromium } = loadPlaywright();

  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const runDir = path.join(E2E_DIR, 'runs', `${name}-${stamp}-${process.pid}-${++runCount}`);
  // Unix sockets (Chromium's SingletonSocket, VS Code's IPC hooks) fail beyond ~107 characters:
  // TMPDIR and XDG_RUNTIME_DIR get a short path in /tmp, whatever the clone's path is.
  const shortDir = fs.mkdtempSync('/tmp/e2e-');
  const d = sub => path.join(runDir, sub);
  for (const sub of ['home', 'xdg/config', 'xdg/data', 'xdg/cache', 'udd/User', 'exts', 'chromium-profile']) {
    fs.mkdirSync(d(sub), { recursive: true, mode: 0o700 });
  }
  // a short, recognisable prompt; VS Code's bash shell integration sources this file
  fs.writeFileSync(d('home/.bashrc'), "PS1='e2e:\\W [\\#:$?]$ '\n");
  // the same prompt in zsh (%h: the history event number, which counts commands as \# does)
  fs.writeFileSync(d('home/.zshrc'), "PROMPT='e2e:%1~ [%h:%?]$ '\n");
  fs.writeFileSync(d('udd/User/settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...(o.settings || {}) }, null, 2));

  const workspace = path.resolve(o.workspace || d('ws'));
  fs.mkdirSync(workspace, { recursive: true });
  for (const [rel, text] of Object.entries(o.workspaceFiles || {})) {
    const f = path.join(workspace, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  }

  const eventsFile = d('events.jsonl');
  // the tests' own CLI calls (dist/cli.js run by this process) are the user of the VS Code they drive: the gate's
  // copy of memory and the hooks' code cache in this run's HOME, as the extension's (never the real home's)
  process.env.FAILURE_MEMORY_STATE_DIR = d('home/.failure-memory/state');
  process.env.FAILURE_MEMORY_CACHE_DIR = d('home/.failure-memory/cache');
  const env = { ...process.env };
  // VS Code finds the same folders from its HOME; set in its environment they would be overrides that doctor reports
  delete env.FAILURE_MEMORY_STATE_DIR;
  delete env.FAILURE_MEMORY_CACHE_DIR;
  // don't leak the environment of a VS Code / code-server the tests may be started from
  for (const k of Object.keys(env)) if (/^(VSCODE_|ELECTRON_RUN_AS_NODE$|CODE_SERVER_|TERM_PROGRAM)/.test(k)) delete env[k];
  Object.assign(env, {
    HOME: d('home'),
    XDG_CONFIG_HOME: d('xdg/config'),
    XDG_DATA_HOME: d('xdg/data'),
    XDG_CACHE_HOME: d('xdg/cache'),
    XDG_RUNTIME_DIR: shortDir,
    TMPDIR: shortDir,
    SHELL: '/bin/bash',
    FAILURE_MEMORY_E2E_LOG: eventsFile,
  });
  fs.chmodSync(shortDir, 0o700);
  // VS Code (1.100) gives the first zsh terminal no shell integration when its ZDOTDIR folder in TMPDIR
  // does not exist yet ("Failed to set sticky bit"): it is there from the start, as after a first zsh terminal
  const zdotdir = path.join(shortDir, `${os.userInfo().username}-code-server-zsh`);
  fs.mkdirSync(zdotdir);
  fs.chmodSync(zdotdir, 0o1700);
  fs.writeFileSync(d('tmpdir.txt'), shortDir + '\n');
  for (const [k, v] of Object.entries(o.env || {})) { if (v === undefined) delete env[k]; else env[k] = v; }

  // the extension under test
  const udd = d('udd');
  const exts = d('exts');
  if (o.vsix) {
    await promisify(execFile)(...csCommand(['--user-data-dir', udd, '--extensions-dir', exts, '--install-extension', path.resolve(o.vsix), '--force']), { env });
  } else {
    const extDir = path.resolve(o.extensionDevPath || REPO_ROOT);
    const pkg = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8'));
    const main = path.join(extDir, pkg.main || 'dist/extension.js');
    if (!fs.existsSync(main)) throw new Error(`${main} missing: run npm run build`);
    fs.symlinkSync(extDir, path.join(exts, extensionFolderName(extDir)), 'dir');
  }
  log('extension installed:', fs.readdirSync(exts).filter(f => !f.endsWith('.json')).join(', '));

  // code-server in its own process group, so stop() ends exactly what was started here
  let server; let port; let csLogText = () => '';
  const csLog = d('code-server.log');
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const fd = fs.openSync(csLog, 'a');
    server = spawn(...csCommand([
      '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
      '--disable-telemetry', '--disable-update-check', ...(o.untrusted ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override', '--ignore-last-opened',
      '--user-data-dir', udd, '--extensions-dir', exts, workspace,
    ]), { env, cwd: workspace, stdio: ['ignore', fd, fd], detached: true });
    fs.closeSync(fd);
    const inst = { pid: server.pid, tmp: shortDir };
    live.add(inst);
    server.inst = inst;
    let exited = null;
    server.once('exit', (code, sig) => { exited = { code, sig }; });
    const start = fs.statSync(csLog).size;
    csLogText = () => fs.readFileSync(csLog, 'utf8').slice(start);
    try {
      await waitFor(() => {
        if (exited) throw new Error(`code-server exited (${JSON.stringify(exited)})`);
        return csLogText().includes('HTTP server listening');
      }, 30000, 'code-server "HTTP server listening"');
      break;
    } catch (e) {
      killGroup(server.pid, 'SIGKILL'); live.delete(inst);
      // a port taken between freePort() and bind: try another one
      if (attempt < 3 && /EADDRINUSE/.test(csLogText())) { log('port in use, retrying'); continue; }
      throw new Error(`${e.message}\n--- code-server.log ---\n${csLogText().slice(-3000)}`);
    }
  }
  log(`code-server pid ${server.pid} listening on ${port}`);

  let browser; let page;
  const inst = server.inst;
  const consoleFd = fs.openSync(d('browser-console.log'), 'a');
  let stopped = false;
  const h = {
    name, runDir, workspace, port, eventsFile, env,
    /** The VS Code version this run is (a key of vscode-versions.json). */
    vscode: cs.vscode,
    url: o.workspaceFile
      ? `http://127.0.0.1:${port}/?workspace=${encodeURIComponent(path.join(workspace, o.workspaceFile))}`
      : `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
    get page() { return page; },
    get browser() { return browser; },
    log,
    /** h.waitFor(pred, ms, what): polls every 50 ms; gives up when this VS Code is stopped. */
    waitFor: (pred, ms, what) => waitFor(pred, ms, what, { abortIf: () => stopped }),

    /** JSON lines the extension appended to $FAILURE_MEMORY_E2E_LOG (all of them, in order). */
    readEvents: () => readJsonl(eventsFile),

    /** Waits for an event matching `pred` among the events from index `since` on; returns it. */
    async waitForEvent(pred, { timeout = 20000, since = 0, what = 'event' } = {}) {
      return h.waitFor(() => h.readEvents().slice(since).find(pred), timeout, `${what} in ${eventsFile}`);
    },

    /** Saves a PNG of the whole window under test-artifacts/e2e/ and returns its path. */
    async screenshot(shotName) {
      fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const file = path.join(ARTIFACTS_DIR, `${shotName.replace(/\.png$/, '')}.png`);
      await page.screenshot({ path: file });
      log('screenshot', path.relative(REPO_ROOT, file));
      return file;
    },

    /**
     * A screenshot for the documentation: saved like screenshot(), and copied to docs/images/<name>.png
     * when E2E_UPDATE_DOCS_IMAGES=1 (the committed images are refreshed on purpose, never by a plain test run).
     */
    async docsScreenshot(shotName) {
      const file = await h.screenshot(shotName);
      if (process.env.E2E_UPDATE_DOCS_IMAGES === '1') {
        const docs = path.join(REPO_ROOT, 'docs', 'images', `${shotName}.png`);
        fs.copyFileSync(file, docs);
        log('docs image', path.relative(REPO_ROOT, docs));
      }
      return file;
    },

    /**
     * Runs a command through the command palette. Clicks the row whose label is exactly `label`:
     * pressing Enter on the first fuzzy match can run a different command.
     * Pass { waitHidden: false } for commands that open another quick pick. It returns when the
     * palette has closed: the command runs asynchronously, so wait for its effect.
     */
    async runCommand(label, { waitHidden = true, timeout = 15000 } = {}) {
      const row = await openPaletteRow(label, timeout);
      if (!row) throw new Error(`command "${label}" not found in the command palette`);
      await row.click();
      if (waitHidden) await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    },

    /** True when the palette lists a command labelled exactly `label` (closes the palette again). */
    async hasCommand(label, { timeout = 3000 } = {}) {
      const row = await openPaletteRow(label, timeout);
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
      return !!row;
    },

    /**
     * Opens a new integrated terminal and waits for its prompt and (unless { shellIntegration: false })
     * for VS Code's shell integration: the gutter decoration it puts on the prompt being edited.
     */
    /**
     * Opens a terminal and waits for its prompt; `folder` picks the folder in a multi-root workspace,
     * `profile` a terminal profile other than the default (bash): 'zsh', 'fish'.
     */
    async openTerminal({ shellIntegration = true, timeout = 30000, folder, profile } = {}) {
      const before = await page.locator('.terminal-wrapper').count();
      let restore = () => {};
      if (profile) {
        // the default profile for this one terminal, chosen as a user chooses it, then put back
        const pickDefault = async name => {
          await h.runCommand('Terminal: Select Default Profile', { waitHidden: false });
          const input = page.locator('.quick-input-widget input.input');
          await input.waitFor({ state: 'visible', timeout });
          await input.fill(name);
          await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name }).first().waitFor({ timeout });
          await page.keyboard.press('Enter');
          await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
          await h.waitFor(() => JSON.parse(fs.readFileSync(d('udd/User/settings.json'), 'utf8'))['terminal.integrated.defaultProfile.linux'] === name, timeout, `the default profile ${name}`);
        };
        await pickDefault(profile);
        // the terminal service takes the new default a moment after the setting is written (1.139)
        await sleep(1500);
        await h.runCommand('Terminal: Create New Terminal');
        restore = () => pickDefault('bash');
      } else {
        await h.runCommand('Terminal: Create New Terminal', { waitHidden: !folder });
      }
      if (folder) {
        // multi-root: VS Code asks which folder the terminal starts in
        const picker = page.locator('.quick-input-widget input.input[placeholder*="working directory"]');
        await picker.waitFor({ state: 'visible', timeout });
        await page.locator('.quick-input-widget .monaco-list-row')
          .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(folder)}$`) }) }).first().click();
      }
      await h.waitFor(async () => (await page.locator('.terminal-wrapper').count()) > before, timeout, 'a new terminal');
      await restore();
      if (shellIntegration) {
        await page.locator(`${ACTIVE_TERMINAL} .codicon-terminal-decoration-incomplete`).first()
          .waitFor({ state: 'attached', timeout })
          .catch(() => { throw new Error(`no shell integration in the new terminal after ${timeout} ms`); });
      }
      await h.waitFor(async () => lastPrompt(await h.terminalText()), timeout, 'the terminal prompt');
      await focusTerminal();
      log('terminal open');
    },

    /** Text currently on screen in the visible terminal (lines joined by \n, trailing spaces dropped). */
    async terminalText() {
      const rows = page.locator(`${ACTIVE_TERMINAL} .xterm-rows`).first();
      if (!(await rows.count())) return '';
      const lines = await rows.locator(':scope > div').allInnerTexts();
      return lines.map(l => l.replace(/\u00a0/g, ' ').trimEnd()).join('\n');
    },

    /**
     * Types `cmd` + Enter ({ enter: false }: without Enter) into the visible terminal. With { wait: true } (default) it waits for
     * the next prompt and returns { exitCode, output }: the exit code comes from the prompt
     * (`e2e:<dir> [<command number>:<$?>]$ `, set in the run's ~/.bashrc), the output is the
     * text between the command line and the next prompt as far as it is still on screen.
     */
    async typeInTerminal(cmd, { wait = true, timeout = 30000, enter = true } = {}) {
      await focusTerminal();
      const before = lastPrompt(await h.terminalText());
      await page.keyboard.type(cmd);
      if (!enter) return {};
      await page.keyboard.press('Enter');
      if (!wait || !cmd.trim()) return {};
      if (!before) throw new Error(`no e2e prompt on screen before \`${cmd}\`:\n${await h.terminalText()}`);
      let text = '';
      const next = await h.waitFor(async () => {
        text = await h.terminalText();
        const p = lastPrompt(text);
        // a later command number: a row drawn halfway can show an older prompt for a moment
        return p && p.n > before.n ? p : null;
      }, timeout, `the prompt after \`${cmd}\``).catch(e => {
        throw new Error(`${e.message}; terminal shows:\n${text.trimEnd().split('\n').slice(-15).join('\n')}`);
      });
      const lines = text.split('\n');
      // the command line: the last prompt line before the new prompt (may have scrolled away)
      let start = -1;
      for (let i = next.line - 1; i >= 0; i--) if (PROMPT_RE.test(lines[i])) { start = i; break; }
      let out = [];
      if (start >= 0) {
        out = lines.slice(start + 1, next.line);
        // a long command wraps over several lines
        let typed = lines[start].match(PROMPT_RE)[3];
        while (out.length && typed.length < cmd.length) {
          // terminalText() drops trailing spaces, so a line may have wrapped at a lost space
          const joined = [typed + out[0], `${typed} ${out[0]}`].find(j => cmd.startsWith(j));
          if (!joined) break;
          typed = joined;
          out.shift();
        }
      } else {
        out = lines.slice(0, next.line);
      }
      return { exitCode: next.status, output: out.join('\n').replace(/\n+$/, '') };
    },

    /**
     * Shell-integration gutter decorations on screen in the visible terminal, top to bottom:
     * 'success' | 'error' | 'incomplete' (the prompt being edited). A command whose start line had
     * scrolled out of view when it ended gets none.
     */
    async commandDecorations() {
      const found = await page.locator(`${ACTIVE_TERMINAL} .terminal-command-decoration`)
        .evaluateAll(els => els.filter(e => e.style.display !== 'none').map(e => [parseFloat(e.style.top) || 0, e.className]));
      return found.sort((a, b) => a[0] - b[0]).map(([, c]) => (/decoration-error/.test(c) ? 'error'
        : /decoration-success/.test(c) ? 'success' : /decoration-incomplete/.test(c) ? 'incomplete' : c));
    },

    /**
     * Waits until the extension has activated: the {"event":"activated"} line in the events file.
     * If no events file shows up within 15 s (an extension without FAILURE_MEMORY_E2E_LOG support),
     * runs "Failure Memory: Open Log" and waits for "[activate] Failure Memory activated" in the
     * Output panel instead. Returns where it was seen: 'events' | 'log'.
     */
    async waitForActivation({ timeout = 30000 } = {}) {
      try {
        await h.waitForEvent(e => e.event === 'activated', { timeout: Math.min(timeout, 15000), what: 'the activated event' });
        return 'events';
      } catch (e) {
        if (stopped || fs.existsSync(eventsFile)) throw e;
      }
      await h.showLogLine('[activate] Failure Memory activated', { timeout });
      return 'log';
    },

    /**
     * Runs "Failure Memory: Open Log" and waits until the Output panel shows a line containing
     * `text`. (runCommand returns when the palette closes; the command itself runs later.)
     */
    async showLogLine(text, { timeout = 15000 } = {}) {
      await h.runCommand('Failure Memory: Open Log');
      return h.waitFor(async () => (await h.outputPanelText()).split('\n').find(l => l.includes(text)),
        timeout, `"${text}" in the Output panel`);
    },

    /** Text of the editor in the Output panel (the channel shown last), \u00a0 turned into spaces. */
    async outputPanelText() {
      const lines = page.locator('.part.panel .output-view .view-lines .view-line');
      return (await lines.allInnerTexts()).map(l => l.replace(/\u00a0/g, ' ')).join('\n');
    },

    /** Starts a task of the workspace by its label (Tasks: Run Task). */
    async runTask(label) {
      await h.runCommand('Tasks: Run Task', { waitHidden: false });
      const input = page.locator('.quick-input-widget input.input[placeholder*="task to run"]');
      await input.waitFor({ state: 'visible', timeout: 15000 });
      await input.fill(label);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().click();
    },

    /** Runs the hidden test command, which calls vscode.lm.invokeTool and logs an lmToolResult event. */
    async invokeTool(tool, input, { timeout = 30000 } = {}) {
      const since = h.readEvents().length;
      await h.runCommand('Failure Memory: Invoke Language Model Tool (Test)', { waitHidden: false });
      const box = page.locator('.quick-input-widget input.input');
      await box.waitFor({ state: 'visible', timeout: 10000 });
      await box.fill(`${tool} ${JSON.stringify(input)}`);
      await page.keyboard.press('Enter');
      return h.waitForEvent(e => e.event === 'lmToolResult' && e.tool === tool, { since, timeout, what: `the lmToolResult of ${tool}` });
    },

    async clearNotifications() {
      await h.runCommand('Notifications: Clear All Notifications');
    },

    /** Closes the browser and ends code-server's process group. Idempotent. */
    async stop() {
      if (stopped) return;
      stopped = true;
      if (browser) await browser.close().catch(() => {});
      fs.closeSync(consoleFd);
      const ts = Date.now();
      killGroup(server.pid, 'SIGTERM');
      while (groupAlive(server.pid) && Date.now() - ts < 10000) await sleep(100);
      if (groupAlive(server.pid)) { log('code-server group still alive after 10 s: SIGKILL'); killGroup(server.pid, 'SIGKILL'); }
      live.delete(inst);
      fs.rmSync(shortDir, { recursive: true, force: true });
      log(`stopped (${Date.now() - ts} ms)`);
    },

    /** Copies the logs of this run next to the screenshots (for CI artifacts). */
    saveLogs(prefix = name) {
      const dir = path.join(ARTIFACTS_DIR, prefix);
      fs.mkdirSync(dir, { recursive: true });
      for (const f of ['code-server.log', 'browser-console.log', 'events.jsonl', 'udd/User/settings.json']) {
        if (fs.existsSync(d(f))) fs.copyFileSync(d(f), path.join(dir, path.basename(f)));
      }
      // extension host / server logs VS Code writes under the user-data-dir
      const logs = d('udd/logs');
      if (fs.existsSync(logs)) fs.cpSync(logs, path.join(dir, 'vscode-logs'), { recursive: true });
      return dir;
    },

    /** Deletes the run dir (after a passing run). */
    removeRunDir() { fs.rmSync(runDir, { recursive: true, force: true }); },
  };

  inst.h = h;

  async function focusTerminal() {
    const ta = page.locator(`${ACTIVE_TERMINAL} .xterm-helper-textarea`).first();
    await ta.waitFor({ state: 'attached', timeout: 10000 });
    await ta.focus();
  }

  /** Opens the palette, types the label, returns the exact row (or null after `timeout`). */
  async function openPaletteRow(label, timeout) {
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    const row = widget.locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRe(label)}\\s*$`) }) }).first();
    const deadline = Date.now() + timeout;
    for (;;) {
      if (await widget.isVisible()) { await page.keyboard.press('Escape'); await widget.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => {}); }
      await page.keyboard.press('F1');
      const opened = await input.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false);
      if (opened) {
        await input.fill('>' + label);
        // a palette opened before the extension's contributions arrived doesn't refresh: reopen it
        const left = Math.max(300, Math.min(1000, deadline - Date.now()));
        if (await row.waitFor({ state: 'visible', timeout: left }).then(() => true, () => false)) return row;
      }
      if (Date.now() > deadline) {
        if (await widget.isVisible()) await page.keyboard.press('Escape');
        return null;
      }
    }
  }

  try {
    const tb = Date.now();
    browser = await chromium.launchPersistentContext(d('chromium-profile'), {
      executablePath: CHROMIUM_BIN,
      headless: true,
      env,
      viewport: o.viewport || { width: 1400, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    page = browser.pages()[0] || await browser.newPage();
    page.on('console', m => fs.writeSync(consoleFd, `[${m.type()}] ${m.text()}\n`));
    page.on('pageerror', e => fs.writeSync(consoleFd, `[pageerror] ${e && e.stack || e}\n`));
    log(`chromium up (${Date.now() - tb} ms)`);
    await page.goto(h.url);
    const timeout = o.timeout || 90000;
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
    log('workbench DOM');
    const readyCommand = o.readyCommand === undefined ? 'Failure Memory: Open Log' : o.readyCommand;
    if (readyCommand) {
      if (!(await h.hasCommand(readyCommand, { timeout: Math.max(1000, timeout - (Date.now() - t0)) }))) {
        throw new Error(`"${readyCommand}" never showed up in the command palette: is the extension installed? (see ${csLog})`);
      }
      log(`"${readyCommand}" is in the palette: ready`);
    }
    return h;
  } catch (e) {
    if (page) await h.screenshot(`${name}-startup-failure`).catch(() => {});
    h.saveLogs();
    await h.stop();
    throw e;
  }
}

function killGroup(pid, sig) { try { process.kill(-pid, sig); } catch { /* already gone */ } }
function groupAlive(pid) { try { process.kill(-pid, 0); return true; } catch { return false; } }

// the webview frame helpers live in frames.mjs; scenarios import them from here
export { findFrame, findPanelFrame, isFrameOnScreen, widenSidebar } from './frames.mjs';
