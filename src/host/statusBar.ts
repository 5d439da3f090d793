// The status bar item: quiet when nothing fails, "N failing" while approaches fail,
// "N exhausted" on the warning background when any approach is exhausted.

import * as vscode from 'vscode';
import { approachCounts } from '../core/rules/counts';
import { describeApproach } from '../core/memory';
import { causeHeadline, lastFix, liveCauses, PATTERN_STRETCH_MS } from '../core/rules/patternRecords';
import { patternSentence } from '../core/rules/causePolicy';
import { failedText } from '../core/text/shownText';
import { plainText } from '../core/text/plainText';
import type { Approach, PatternRecord } from '../core/types';
import type { CaptureView } from '../shared/protocol';
import { CommandId } from './commandIds';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { FolderMemory, MemoryRegistry } from './registry';
import type { TeamFolderState, TeamHub } from './team';

/** An approach listed in the tooltip, with its folder (named when there are several). */
type Listed = { a: Approach; g: { folder: FolderMemory } };
/** A cause failing several commands now, with its folder. */
type Cause = { p: PatternRecord; folder: FolderMemory };

export class StatusBar extends Disposable {
  private readonly item = this.track(vscode.window.createStatusBarItem('failureMemory.status', vscode.StatusBarAlignment.Left, 50));
  /** When the cause shown lapses (its stretch ends without a new failure), the item is updated. */
  private lapse: ReturnType<typeof setTimeout> | undefined;
  private commandSignature = '';

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly capture: () => CaptureView,
    private readonly log: Logger,
    private readonly team?: TeamHub,
  ) {
    super();
    this.item.name = 'Failure Memory';
    this.item.command = CommandId.ShowMemory;
    this.track(registry.onDidChange(() => this.update()));
    if (team) this.track(team.onDidChange(() => this.update()));
    this.update();
    this.item.show();
  }

  update(): void {
    const groups = this.registry.summary();
    const exhausted = groups.flatMap(g => g.exhausted.map(a => ({ a, g })));
    const failing = groups.flatMap(g => g.failing.map(a => ({ a, g })));
    const multi = groups.length > 1;
    const c = this.capture();
    const now = new Date();
    // one cause failing several commands: said first, it is what to fix
    const causes: Cause[] = groups.flatMap(g => liveCauses(g.folder.data, now).map(p => ({ p, folder: g.folder })));
    const cause = causes[0];
    const stopping = !!cause && cause.p.failures >= cause.folder.memory.settings.threshold;
    this.scheduleLapse(cause?.p, now);
    let text: string;
    // paused: the item says so and a click resumes; with an approach exhausted, a click shows the
    // memory at the one that failed last (the card of the run just stopped)
    const latest = [...exhausted].sort((x, y) => ((y.a.lastFailure ?? '') > (x.a.lastFailure ?? '') ? 1 : -1))[0];
    const target = latest && { folder: latest.g.folder.folder.uri.toString(), key: latest.a.key };
    // set only when it changes: a command with arguments is kept by VS Code under an id that a new
    // command object retires, and a click on the item as it was would then find no command
    const commandId = c.paused ? CommandId.ResumeCapture : CommandId.ShowMemory;
    const signature = `${commandId}\u0000${target ? `${target.folder}\u0000${target.key}` : ''}`;
    if (signature !== this.commandSignature) {
      this.commandSignature = signature;
      this.item.command = !c.paused && target ? { command: CommandId.ShowMemory, title: vscode.l10n.t('Show Memory'), arguments: [target] } : commandId;
    }
    if (c.paused) {
      text = `$(debug-pause) ${vscode.l10n.t('Failure Memory paused')}`;
      this.item.backgroundColor = undefined;
    } else if (cause) {
      const headline = plainText(causeHeadline(cause.p), 80);
      text = exhausted.length ? `$(error) ${vscode.l10n.t('{0} exhausted', exhausted.length)} · ${headline}` : `$(plug) ${headline}`;
      this.item.backgroundColor = exhausted.length || stopping ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    } else if (exhausted.length) {
      text = `$(error) ${vscode.l10n.t('{0} exhausted', exhausted.length)}`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else if (failing.length) {
      text = `$(history) ${vscode.l10n.t('{0} failing', failing.length)}`;
      this.item.backgroundColor = undefined;
    } else {
      text = '$(history)';
      this.item.backgroundColor = undefined;
    }
    // team memory offline: a cloud icon says records are waiting (the tooltip says how many)
    const teams = this.team?.status() ?? [];
    const offline = teams.filter(t => t.state === 'offline');
    if (offline.length) text += ' $(cloud-offline)';
    if (text !== this.item.text) {
      this.item.text = text;
      this.log.event('statusBar', { text, exhausted: exhausted.length, failing: failing.length });
    }
    // what a screen reader says: plain words (the tooltip is Markdown with a command link)
    const label = this.ariaLabel(exhausted.length, failing.length, c, offline.length > 0, cause ? causeHeadline(cause.p) : undefined);
    if (this.item.accessibilityInformation?.label !== label) this.item.accessibilityInformation = { label, role: 'button' };
    this.item.tooltip = this.tooltip(exhausted, failing, multi, c, teams, groups.some(g => g.folder.private), causes);
  }

  private scheduleLapse(p: PatternRecord | undefined, now: Date): void {
    if (this.lapse) clearTimeout(this.lapse);
    this.lapse = undefined;
    if (!p || this.isDisposed) return;
    const ms = Date.parse(p.lastSeen) + PATTERN_STRETCH_MS - now.getTime() + 1000;
    this.lapse = setTimeout(() => this.update(), Math.min(Math.max(1000, ms), PATTERN_STRETCH_MS + 1000));
  }

  override dispose(): void {
    if (this.lapse) clearTimeout(this.lapse);
    super.dispose();
  }

  /** "Failure Memory: 1 exhausted, 2 failing. Click to show the memory." */
  private ariaLabel(exhausted: number, failing: number, c: CaptureView, offline: boolean, cause?: string): string {
    const t = vscode.l10n.t;
    if (c.paused) return t('Failure Memory: capture paused. Click to resume capture.');
    const state = [cause ? plainText(cause, 120) : '', exhausted ? t('{0} exhausted', exhausted) : '', failing ? t('{0} failing', failing) : ''].filter(Boolean).join(', ') || t('nothing is failing');
    return `${t('Failure Memory: {0}.', state)}${offline ? ` ${t('Team memory offline.')}` : ''} ${t('Click to show the memory.')}`;
  }

  /** The hover: what is exhausted and failing, what is captured, the team memory, and what a click does. */
  private tooltip(exhausted: Listed[], failing: Listed[], multi: boolean, c: CaptureView, teams: TeamFolderState[], privateStorage: boolean, causes: Cause[] = []): vscode.MarkdownString {
    const tip = new vscode.MarkdownString(undefined, true);
    // only the pause command may run from the tooltip; everything from the memory goes in through appendText
    tip.isTrusted = { enabledCommands: [CommandId.PauseCapture] };
    const t = vscode.l10n.t;
    tip.appendMarkdown('**');
    tip.appendText('Failure Memory');
    tip.appendMarkdown('**\n\n');
    const line = (a: Listed) => {
      tip.appendMarkdown('- ');
      // the counts' own sentence, the same the dialog, the panel and the CLI say
      tip.appendText(`${describeApproach(a.a)}${multi ? ` [${a.g.folder.folder.name}]` : ''} — ${failedText(approachCounts(a.a, a.g.folder.memory.settings.threshold))}`);
      tip.appendMarkdown('\n');
    };
    if (causes.length) {
      tip.appendMarkdown('$(plug) ');
      tip.appendText(t('One cause failing several commands (fix it first):'));
      tip.appendMarkdown('\n\n');
      for (const { p, folder } of causes.slice(0, 3)) {
        const fix = lastFix(p);
        tip.appendMarkdown('- ');
        tip.appendText(`${patternSentence(p, new Date())}${multi ? ` [${folder.folder.name}]` : ''}${fix ? ` — ${t('last time: {0}', fix.command)}` : ''}`);
        tip.appendMarkdown('\n');
      }
      tip.appendMarkdown('\n');
    }
    if (exhausted.length) {
      tip.appendMarkdown('$(error) ');
      tip.appendText(t('Exhausted (running them again is stopped):'));
      tip.appendMarkdown('\n\n');
      exhausted.slice(0, 10).forEach(line);
    }
    if (failing.length) {
      tip.appendMarkdown('\n$(history) ');
      tip.appendText(t('Failing:'));
      tip.appendMarkdown('\n\n');
      failing.slice(0, 10).forEach(line);
    }
    if (!exhausted.length && !failing.length) {
      tip.appendText(t('Nothing is failing. Commands that fail in the terminal or in tasks are remembered here.'));
      tip.appendMarkdown('\n\n');
    }
    tip.appendMarkdown('\n---\n\n');
    if (c.paused) {
      tip.appendText(t('Capture paused (nothing is recorded or stopped).'));
      tip.appendMarkdown('\n\n');
    }
    tip.appendText(
      [
        c.terminal
          ? c.terminals === 1
            ? t('Capture: terminal (shell integration active in {0} of 1 terminal)', c.terminalsWithIntegration)
            : t('Capture: terminal (shell integration active in {0} of {1} terminals)', c.terminalsWithIntegration, c.terminals)
          : t('Capture: terminal off'),
        c.tasks ? t('tasks') : t('tasks off'),
      ].join(' · '),
    );
    for (const tm of teams) {
      tip.appendMarkdown('\n\n$(organization) ');
      const waiting = t('{0} waiting', tm.waiting);
      tip.appendText(
        tm.state === 'offline'
          ? `${t('team memory offline, {0}', waiting)} (${tm.project})${tm.error ? `: ${tm.error}` : ''}`
          : tm.state === 'online'
            ? `${t('Team memory: {0}, online', tm.project)}${tm.view ? `, ${t('{0} failing in the team, updated {1} UTC', Object.values(tm.view.approaches).filter(a => a.failures > 0).length, tm.view.pulledAt.slice(11, 16))}` : ''}${tm.waiting ? `, ${waiting}` : ''}`
            : `${t('Team memory: {0}, connecting…', tm.project)}${tm.waiting ? ` ${waiting}` : ''}`,
      );
    }
    if (privateStorage) {
      tip.appendMarkdown('\n\n');
      tip.appendText(t('Untrusted workspace: memory is kept in extension storage.'));
    }
    tip.appendMarkdown('\n\n');
    if (c.paused) tip.appendText(t('Click to resume capture.'));
    else {
      tip.appendText(t('Click to show the memory.'));
      tip.appendMarkdown(` [${t('Pause capture')}](command:${CommandId.PauseCapture})`);
    }
    return tip;
  }
}
