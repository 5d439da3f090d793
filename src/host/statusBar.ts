// The status bar item: quiet when nothing fails, "N failing" while approaches fail,
// "N exhausted" on the warning background when any approach is exhausted.

import * as vscode from 'vscode';
import { describeApproach } from '../core/memory';
import { Disposable } from './disposable';
import { Commands } from './guard';
import type { Logger } from './logger';
import type { MemoryRegistry } from './registry';
import type { TeamHub } from './team';

export interface CaptureState {
  terminal: boolean;
  tasks: boolean;
  terminalsWithIntegration: number;
  terminals: number;
  /** Capture paused from the palette or the status bar. */
  paused?: boolean;
}

export class StatusBar extends Disposable {
  private readonly item = this.track(vscode.window.createStatusBarItem('failureMemory.status', vscode.StatusBarAlignment.Left, 50));

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly capture: () => CaptureState,
    private readonly log: Logger,
    private readonly team?: TeamHub,
  ) {
    super();
    this.item.name = 'Failure Memory';
    this.item.command = Commands.ShowMemory;
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
    let text: string;
    // paused: the item says so and a click resumes
    this.item.command = c.paused ? Commands.ResumeCapture : Commands.ShowMemory;
    if (c.paused) {
      text = '$(debug-pause) Failure Memory paused';
      this.item.backgroundColor = undefined;
    } else if (exhausted.length) {
      text = `$(error) ${exhausted.length} exhausted`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else if (failing.length) {
      text = `$(history) ${failing.length} failing`;
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
    const tip = new vscode.MarkdownString(undefined, true);
    // only the pause command may run from the tooltip; everything from the memory is appended as text
    tip.isTrusted = { enabledCommands: [Commands.PauseCapture] };
    tip.appendMarkdown('**Failure Memory**\n\n');
    const line = (a: (typeof exhausted)[number]) => {
      tip.appendMarkdown('- ');
      tip.appendText(`${describeApproach(a.a)}${multi ? ` [${a.g.folder.folder.name}]` : ''} — ${a.a.failures} failure(s)`);
      tip.appendMarkdown('\n');
    };
    if (exhausted.length) {
      tip.appendMarkdown('$(error) Exhausted (running them again is stopped):\n\n');
      exhausted.slice(0, 10).forEach(line);
    }
    if (failing.length) {
      tip.appendMarkdown('\n$(history) Failing:\n\n');
      failing.slice(0, 10).forEach(line);
    }
    if (!exhausted.length && !failing.length) tip.appendMarkdown('Nothing is failing. Commands that fail in the terminal or in tasks are remembered here.\n\n');
    tip.appendMarkdown('\n---\n\nCapture: ');
    if (c.paused) tip.appendMarkdown('**paused** (nothing is recorded or stopped) · ');
    tip.appendText(
      [
        c.terminal ? `terminal (shell integration active in ${c.terminalsWithIntegration} of ${c.terminals} terminal${c.terminals === 1 ? '' : 's'})` : 'terminal off',
        c.tasks ? 'tasks' : 'tasks off',
      ].join(' · '),
    );
    for (const t of teams) {
      tip.appendMarkdown('\n\n$(organization) ');
      const waiting = `${t.waiting} waiting`;
      tip.appendText(
        t.state === 'offline'
          ? `team memory offline, ${waiting} (${t.project})${t.error ? `: ${t.error}` : ''}`
          : t.state === 'online'
            ? `Team memory: ${t.project}, online${t.view ? `, ${Object.values(t.view.approaches).filter(a => a.failures > 0).length} failing in the team, updated ${t.view.pulledAt.slice(11, 16)} UTC` : ''}${t.waiting ? `, ${waiting}` : ''}`
            : `Team memory: ${t.project}, connecting…${t.waiting ? ` ${waiting}` : ''}`,
      );
    }
    if (groups.some(g => g.folder.private)) tip.appendMarkdown('\n\nUntrusted workspace: memory is kept in extension storage.');
    tip.appendMarkdown(c.paused ? '\n\nClick to resume capture.' : '\n\nClick to show the memory. [Pause capture](command:failureMemory.pauseCapture)');
    this.item.tooltip = tip;
  }
}
