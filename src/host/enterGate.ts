// The Enter gate in VS Code's own terminal: the terminals this window starts get, through the
// environment the extension contributes, a check that runs when Enter is pressed and asks this
// extension host (EnterGateServer) before the line runs. So an exhausted approach with nothing
// changed is never started, and the help dialog comes at once. How each shell loads it, next to
// VS Code's own shell integration:
//   bash  PROMPT_COMMAND (prepended) sources media/shell/enter.bash at the first prompt, after ~/.bashrc
//   zsh   ZDOTDIR points at <global storage>/shell/zdotdir, whose .zshenv puts the user's ZDOTDIR back
//         and sources enter.zsh (VS Code's own ZDOTDIR injection reads the user's back from there)
//   fish  XDG_DATA_DIRS gets <global storage>/shell/xdg in front: fish sources its vendor_conf.d file
//   pwsh  no environment hook exists: one line in the user's profile sources $env:FAILURE_MEMORY_ENTER_PS1
// The shells find this window through a file ($FAILURE_MEMORY_ENTER, in the workspace's storage,
// readable by the user only) holding the port and the two tokens, read at every Enter: a terminal
// that outlives a window reload finds the new one, and no file means no gate. A shell without the
// gate (or a line the extension could not answer in time) is left to the start event's interrupt.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { Settings } from '../core/config';
import type { EnterRequest } from '../core/enterProtocol';
import { Disposable } from './disposable';
import { BASH_PROMPT_LOADER, EnterGateServer, type EnterAnswer } from './enterGateServer';
import type { Guard } from './guard';
import type { Logger } from './logger';
import type { MemoryRegistry } from './registry';

/** How long a shell waits for the answer (seconds, written for the shells). Past it the line runs. */
const SHELL_WAIT_S = 1.5;
/** An answer the guard reaches later than this after the request would come too late for the shell. */
const ANSWER_DEADLINE_MS = SHELL_WAIT_S * 1000 - 200;
/** A run that starts this long after its line was let through at Enter is not that line's run. */
const CHECKED_START_MS = 3000;

export class EnterGate extends Disposable {
  private server: EnterGateServer | undefined;
  private starting: Promise<void> | undefined;
  private readonly byPid = new Map<number, vscode.Terminal>();
  /** Terminals whose last line the gate let through, and when: its start event needs no second decision. */
  private readonly checked = new WeakMap<vscode.Terminal, number>();
  private readonly addressFile: string | undefined;
  private readonly shellDir: string;
  private readonly stubs: string;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly registry: MemoryRegistry,
    private readonly guard: Guard,
    private readonly log: Logger,
    private readonly config: () => Settings,
  ) {
    super();
    // a window without a workspace has no memory to ask
    this.addressFile = context.storageUri ? join(context.storageUri.fsPath, 'enter-gate') : undefined;
    this.shellDir = join(context.extensionPath, 'media', 'shell');
    this.stubs = join(context.globalStorageUri.fsPath, 'shell');
    context.environmentVariableCollection.description = vscode.l10n.t('Failure Memory checks each command line when Enter is pressed (failureMemory.terminal.gateAtEnter).');
    this.track(vscode.window.onDidOpenTerminal(t => this.learnPid(t)));
    this.track(vscode.window.onDidCloseTerminal(t => this.forgetPid(t)));
    for (const t of vscode.window.terminals) this.learnPid(t);
    this.apply();
  }

  /** Turns the gate on or off for the current settings (new terminals follow; a running shell finds no file when off). */
  apply(): void {
    const on = this.config()['terminal.gateAtEnter'] && !!this.addressFile;
    if (on && !this.server && !this.starting) this.starting = this.start().finally(() => (this.starting = undefined));
    if (!on) this.stop();
  }

  /** True once: the Enter gate let this terminal's line through just now, so its run was decided already. */
  takeChecked(terminal: vscode.Terminal): boolean {
    const at = this.checked.get(terminal);
    this.checked.delete(terminal);
    return at !== undefined && Date.now() - at < CHECKED_START_MS;
  }

  private async start(): Promise<void> {
    const server = new EnterGateServer(r => this.answer(r), m => this.log.warn('enterGate', m));
    try {
      const address = await server.listen();
      if (!this.config()['terminal.gateAtEnter'] || this.isDisposed) return server.close();
      this.server = server;
      writeFileSync(this.mustAddressFile(), `FM1 ${address.port} ${address.clientToken} ${address.serverToken} ${SHELL_WAIT_S}\n`, { mode: 0o600 });
      this.layOutStubs();
      this.contribute();
      this.log.info('enterGate', `listening on 127.0.0.1:${address.port}; terminals started from now on check each line at Enter`);
      this.log.event('enterGate', { on: true });
    } catch (e) {
      server.close();
      this.log.error('enterGate', 'the Enter gate could not start: commands are stopped after they start instead', e);
    }
  }

  private stop(): void {
    if (!this.server) return;
    this.server.close();
    this.server = undefined;
    if (this.addressFile) rmSync(this.addressFile, { force: true });
    this.context.environmentVariableCollection.clear();
    this.log.info('enterGate', 'off: commands are stopped after they start instead');
    this.log.event('enterGate', { on: false });
  }

  private mustAddressFile(): string {
    if (!this.addressFile) throw new Error('no workspace storage');
    mkdirSync(dirname(this.addressFile), { recursive: true });
    return this.addressFile;
  }

  /** zsh and fish load startup files from folders, not one file: the two small files that lead to ours. */
  private layOutStubs(): void {
    const put = (from: string, to: string) => {
      const text = readFileSync(join(this.shellDir, from), 'utf8');
      let now: string | undefined;
      try {
        now = readFileSync(to, 'utf8');
      } catch {
        now = undefined;
      }
      if (now === text) return;
      mkdirSync(dirname(to), { recursive: true });
      // written whole, then renamed: a shell starting meanwhile never reads half a file
      const tmp = `${to}.${randomBytes(4).toString('hex')}`;
      writeFileSync(tmp, text);
      renameSync(tmp, to);
    };
    put('zdotdir.zsh', join(this.stubs, 'zdotdir', '.zshenv'));
    put('vendor.fish', join(this.stubs, 'xdg', 'fish', 'vendor_conf.d', 'failure-memory.fish'));
  }

  /** The terminal environment: where to ask, where the scripts are, and each shell's way in. */
  private contribute(): void {
    const env = this.context.environmentVariableCollection;
    env.replace('FAILURE_MEMORY_ENTER', this.mustAddressFile());
    env.replace('FAILURE_MEMORY_SHELL_DIR', this.shellDir);
    env.replace('FAILURE_MEMORY_ENTER_PS1', join(this.shellDir, 'enter.ps1'));
    // bash: runs before every prompt; loads enter.bash once, keeps $? for what follows in PROMPT_COMMAND
    env.prepend('PROMPT_COMMAND', BASH_PROMPT_LOADER);
    if (process.platform === 'win32') return;
    env.replace('FAILURE_MEMORY_USER_ZDOTDIR', process.env.ZDOTDIR ?? '');
    env.replace('ZDOTDIR', join(this.stubs, 'zdotdir'));
    const xdg = join(this.stubs, 'xdg');
    env.replace('FAILURE_MEMORY_XDG_DIR', xdg);
    // an unset XDG_DATA_DIRS means /usr/local/share:/usr/share: keep those when putting ours in front
    if (process.env.XDG_DATA_DIRS) env.prepend('XDG_DATA_DIRS', `${xdg}:`);
    else env.replace('XDG_DATA_DIRS', `${xdg}:/usr/local/share:/usr/share`);
  }

  private learnPid(t: vscode.Terminal): void {
    void Promise.resolve(t.processId).then(
      pid => {
        if (pid) this.byPid.set(pid, t);
      },
      () => undefined,
    );
  }

  private forgetPid(t: vscode.Terminal): void {
    for (const [pid, term] of this.byPid) if (term === t) this.byPid.delete(pid);
  }

  /** One line at Enter: the guard decides from the memory it holds; a late answer lets the line run. */
  private async answer(r: EnterRequest): Promise<EnterAnswer> {
    const t0 = Date.now();
    const cfg = this.config();
    const line = r.line.trim();
    if (!cfg['capture.terminal'] || !line || this.guard.isIgnored(line)) return { verdict: 'run' };
    const where = this.registry.locate(r.cwd || undefined);
    if (!where) return { verdict: 'run' };
    const terminal = r.pid ? this.byPid.get(r.pid) : undefined;
    // Run Anyway Once types the line again; a line of a multi-line command cannot be typed again alone
    const rerun = terminal && !r.continuation ? () => terminal.sendText(line, true) : undefined;
    const v = await this.guard.atEnter(line, where, rerun, t0 + ANSWER_DEADLINE_MS);
    this.log.event('enterChecked', { shell: r.shell, verdict: v.verdict, checked: v.checked, ms: Date.now() - t0, terminal: terminal?.name ?? null });
    if (v.verdict === 'block') return { verdict: 'block', line: v.line ?? '' };
    if (v.checked && terminal) this.checked.set(terminal, Date.now());
    return { verdict: 'run' };
  }

  override dispose(): void {
    this.server?.close();
    this.server = undefined;
    // the file goes with the window: a shell then runs every line unasked at once (no timeout)
    if (this.addressFile) rmSync(this.addressFile, { force: true });
    super.dispose();
  }
}
