// Team memory in VS Code: one TeamMemory per workspace folder (built when the registry builds the
// folder's memory), the password in SecretStorage, and the background sync: push soon after each
// local write and every 15 s while something waits, pull on an interval and when the window gets
// focus. Nothing here is on the guard's path: the guard reads the cached team view only.

import * as vscode from 'vscode';
import { SECTION } from '../core/config';
import { plainText } from '../core/text/plainText';
import type { TeamView } from '../core/rules/team';
import { openMemoryStore, type MemoryStore } from '../app/stores';
import { memoryDirFor } from '../store/paths';
import { teamRecallParts } from '../embeddings';
import { createTeamMemory, describeDatabase, pgpassPassword, sanitizeTeamSettings, type SyncResult, type TeamDatabaseError, type TeamMemory, type TeamSettings } from '../app/team';
import { CommandId } from './commandIds';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { SettingsProblems } from './settingsProblems';

/** The secret's key names the database target, so that a password is only ever sent to the server it was set for. */
const secretKey = (url: string) => `failureMemory.team.password:${describeDatabase(url)}`;

export interface TeamFolderState {
  folder: string;
  project: string;
  state: 'online' | 'offline' | 'never';
  waiting: number;
  error?: string;
  view?: TeamView;
}

/** Reads the team settings (problems reported by the caller). */
export function readTeamSettings(): { settings: TeamSettings; problems: string[] } {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return sanitizeTeamSettings(k => cfg.get(k));
}

export class TeamHub extends Disposable {
  private settings: TeamSettings;
  private readonly teams = new Map<string, { team: TeamMemory; store: MemoryStore }>();
  private readonly states = new Map<string, TeamFolderState>();
  private readonly changed = this.track(new vscode.EventEmitter<void>());
  /** Fires when a folder's sync state, waiting count or team view changes. */
  readonly onDidChange = this.changed.event;
  private pushTimer: ReturnType<typeof setTimeout> | undefined;
  private pullTimer: ReturnType<typeof setInterval> | undefined;
  private readonly waitTimer: ReturnType<typeof setInterval>;
  private readonly told = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
    private readonly threshold: () => number,
    private readonly problems: SettingsProblems,
  ) {
    super();
    this.settings = this.load();
    this.track(vscode.commands.registerCommand(CommandId.SetTeamPassword, () => this.setPassword()));
    this.track(vscode.commands.registerCommand(CommandId.SyncTeam, () => this.syncAll(true)));
    this.track(vscode.window.onDidChangeWindowState(e => {
      if (e.focused) void this.syncAll(false);
    }));
    this.waitTimer = setInterval(() => void this.pushIfWaiting(), 15_000);
    this.restartPullTimer();
  }

  get enabled(): boolean {
    return this.settings.enabled && vscode.workspace.isTrusted;
  }

  private load(): TeamSettings {
    const { settings, problems } = readTeamSettings();
    this.problems.report(problems);
    return settings;
  }

  /** Settings changed: the registry rebuilds its folders (and asks linkFor again). */
  reloadSettings(): void {
    this.settings = this.load();
    this.restartPullTimer();
  }

  private restartPullTimer(): void {
    if (this.pullTimer) clearInterval(this.pullTimer);
    this.pullTimer = setInterval(() => void this.syncAll(false), this.settings.pullIntervalSeconds * 1000);
  }

  /**
   * The team link of one folder's memory, or undefined when team memory is off, the workspace is not
   * trusted (its settings could name any server), or the folder has no project id.
   */
  linkFor(folderPath: string, memoryDir: string | undefined): TeamMemory | undefined {
    if (!this.enabled) return undefined;
    const dir = memoryDir ?? memoryDirFor(folderPath);
    const old = this.teams.get(folderPath);
    if (old) void old.team.close();
    const url = this.settings.databaseUrl;
    const fallback = pgpassPassword(url);
    const { team, reason } = createTeamMemory({
      settings: this.settings,
      connection: {
        url,
        describe: describeDatabase(url),
        password: async () => (await this.context.secrets.get(secretKey(url))) ?? fallback(),
      },
      folder: folderPath,
      memoryDir: dir,
      threshold: this.threshold,
      onWarning: m => this.log.warn('team', m),
      onInfo: m => this.log.info('team', m),
      ...teamRecallParts(),
    });
    this.log.info('team', `${folderPath}: ${reason}`);
    if (!team) {
      this.teams.delete(folderPath);
      return undefined;
    }
    // the folder's memory file (a second handle on it: writes lock the file, not the object)
    this.teams.set(folderPath, { team, store: openMemoryStore(folderPath, { dir, cache: true, onWarning: m => this.log.warn('team', m) }) });
    this.states.set(folderPath, { folder: folderPath, project: team.project, state: 'never', waiting: 0 });
    // first look at the cached view at once (the guard reads it from memory), then sync
    void team.view().then(() => this.refreshState(folderPath, team));
    this.schedulePush(500, true);
    return team;
  }

  /** Called after each local write: push soon (coalesced). */
  schedulePush(delayMs = 1500, thenPull = false): void {
    if (!this.teams.size) return;
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      void (thenPull ? this.syncAll(false) : this.pushAll());
    }, delayMs);
  }

  private async pushIfWaiting(): Promise<void> {
    for (const [folder, { team }] of this.teams) {
      const waiting = await team.outbox.count().catch(() => 0);
      if (waiting) await this.run(folder, team, () => team.push());
      else await this.refreshState(folder, team);
    }
  }

  private async pushAll(): Promise<void> {
    for (const [folder, { team }] of this.teams) await this.run(folder, team, () => team.push());
  }

  async syncAll(userAsked: boolean): Promise<void> {
    if (userAsked && !this.teams.size) {
      void vscode.window.showInformationMessage(`Failure Memory: team memory is off. Turn on failureMemory.team.enabled and set failureMemory.team.databaseUrl${vscode.workspace.isTrusted ? '' : ' (and trust this workspace)'}.`);
      return;
    }
    for (const [folder, { team, store }] of this.teams) {
      const r = await this.run(folder, team, () => team.sync(store));
      if (userAsked) {
        if (r?.error) void vscode.window.showWarningMessage(`Failure Memory: ${plainText(r.error.message, 500)}`);
        else if (r) void vscode.window.setStatusBarMessage(`$(cloud) Failure Memory: team memory synced (${r.pushed} sent, ${r.waiting} waiting)`, 4000);
      }
    }
  }

  private async run(folder: string, team: TeamMemory, op: () => Promise<SyncResult>) {
    try {
      const r = await op();
      if (r.error) this.reportOnce(r.error);
      else this.told.clear();
      if (r.pushed || r.cleared.length) this.log.info('team', `${team.project}: pushed ${r.pushed} (${r.inserted} new), ${r.waiting} waiting${r.cleared.length ? `; cleared by a team success: ${r.clearedLabels.join(', ')}` : ''}`);
      if (r.retention && 'attempts' in r.retention && r.retention.attempts + r.retention.resolves) this.log.info('team', `${team.project}: retention removed ${r.retention.attempts + r.retention.resolves} old record(s)`);
      if (r.pulled) this.log.event('teamPulled', { project: team.project, waiting: r.waiting, cleared: r.cleared });
      await this.refreshState(folder, team);
      return r;
    } catch (e) {
      this.log.error('team', `sync of ${team.project} failed`, e);
      return undefined;
    }
  }

  /** A connection problem is logged once per kind; a login problem is also shown once, with the fix. */
  private reportOnce(e: TeamDatabaseError): void {
    if (this.told.has(e.code)) return;
    this.told.add(e.code);
    this.log.warn('team', e.message);
    this.log.event('teamOffline', { code: e.code });
    if (e.code === 'AUTH' || e.code === 'NO_PASSWORD' || e.code === 'NO_DATABASE' || e.code === 'TLS') {
      void vscode.window.showWarningMessage(`Failure Memory: ${plainText(e.message, 500)}`, 'Set Password').then(pick => {
        if (pick) void vscode.commands.executeCommand(CommandId.SetTeamPassword);
      });
    } else if (e.code === 'SCHEMA' || e.code === 'PERMISSION') {
      // the database's owner has to act (team init, a grant): said once, with what to ask for
      void vscode.window.showWarningMessage(`Failure Memory: ${plainText(e.message, 500)}`);
    }
  }

  private async refreshState(folder: string, team: TeamMemory): Promise<void> {
    const { file, view } = await team.view();
    const waiting = await team.outbox.count().catch(() => 0);
    const prev = this.states.get(folder);
    const next: TeamFolderState = { folder, project: team.project, state: file.state, waiting, ...(file.error ? { error: file.error } : {}), ...(view ? { view } : {}) };
    this.states.set(folder, next);
    if (!prev || prev.state !== next.state || prev.waiting !== next.waiting || prev.view?.pulledAt !== next.view?.pulledAt) this.changed.fire();
  }

  /** Every folder's team state, for the status bar and the panel. */
  status(): TeamFolderState[] {
    return [...this.states.values()].filter(s => this.teams.has(s.folder));
  }

  stateOf(folderPath: string): TeamFolderState | undefined {
    return this.teams.has(folderPath) ? this.states.get(folderPath) : undefined;
  }

  private async setPassword(): Promise<void> {
    const url = this.settings.databaseUrl;
    if (!url) {
      void vscode.window.showWarningMessage('Failure Memory: set failureMemory.team.databaseUrl first (postgres://user@host:5432/database, without the password).');
      return;
    }
    const pw = await vscode.window.showInputBox({
      title: 'Failure Memory: Team Database Password',
      prompt: `Password for ${describeDatabase(url)} (kept in VS Code's secret storage, never in settings). Leave empty to remove it.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (pw === undefined) return;
    if (pw === '') await this.context.secrets.delete(secretKey(url));
    else await this.context.secrets.store(secretKey(url), pw);
    this.log.info('team', `password ${pw === '' ? 'removed' : 'set'} for ${describeDatabase(url)}`);
    this.told.clear();
    await this.syncAll(true);
  }

  override dispose(): void {
    if (this.pushTimer) clearTimeout(this.pushTimer);
    if (this.pullTimer) clearInterval(this.pullTimer);
    clearInterval(this.waitTimer);
    for (const { team } of this.teams.values()) void team.close();
    this.teams.clear();
    super.dispose();
  }
}
