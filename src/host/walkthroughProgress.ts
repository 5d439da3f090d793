// Ticks off the walkthrough's steps for what the user has already done. VS Code builds its
// walkthrough service only when a Welcome page first opens and ignores what happened before: a
// context key already true at that moment is marked as seen without ticking its step (and never
// ticks it later), and a command run earlier is not counted. So each step also completes on a
// marker context key of ours that is false at rest and pulsed true for a moment when the thing
// happens and again whenever editor tabs change (the Welcome page opening is one): the
// shell-integration step while a terminal has shell integration, the others once the user did them
// (remembered across windows).

import * as vscode from 'vscode';
import { Disposable } from './disposable';

/** What a walkthrough step waits for; each has a marker command (package.json's completionEvents). */
export type WalkthroughMarker = 'shellIntegration' | 'memoryShown' | 'exported' | 'agentGates';
export const WALKTHROUGH_MARKERS: readonly WalkthroughMarker[] = ['shellIntegration', 'memoryShown', 'exported', 'agentGates'];
/** The context key a step's completion event waits for (package.json: onContext:failureMemory.walkthrough.<marker>). */
export const markerKey = (m: WalkthroughMarker) => `failureMemory.walkthrough.${m}`;
const DONE_KEY = 'failureMemory.walkthroughDone';
/** How long a marker stays true: long enough for the workbench to see the change, short enough to be false when a Welcome page opens. */
const PULSE_MS = 400;

export class WalkthroughProgress extends Disposable {
  private readonly done: Set<WalkthroughMarker>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly activeTerminals: () => number,
    onTerminalState: vscode.Event<void>,
  ) {
    super();
    this.done = new Set(context.globalState.get<WalkthroughMarker[]>(DONE_KEY, []).filter(m => WALKTHROUGH_MARKERS.includes(m)));
    this.track(onTerminalState(() => this.tell()));
    this.track(vscode.window.tabGroups.onDidChangeTabs(() => this.tell()));
    this.tell();
  }

  /** The user did what a step asks (showed the memory, exported it, set up agent gates). */
  mark(m: Exclude<WalkthroughMarker, 'shellIntegration'>): void {
    if (!this.done.has(m)) {
      this.done.add(m);
      void this.context.globalState.update(DONE_KEY, [...this.done]);
    }
    this.pulse([m]);
  }

  private tell(): void {
    this.pulse([...(this.activeTerminals() > 0 ? (['shellIntegration'] as const) : []), ...this.done]);
  }

  private pulsing = false;

  /** Sets the markers true, and false again a moment later (one pulse at a time). */
  private pulse(markers: readonly WalkthroughMarker[]): void {
    if (!markers.length || this.pulsing) return;
    this.pulsing = true;
    for (const m of markers) void vscode.commands.executeCommand('setContext', markerKey(m), true);
    const timer = setTimeout(() => {
      for (const m of markers) void vscode.commands.executeCommand('setContext', markerKey(m), false);
      this.pulsing = false;
    }, PULSE_MS);
    this.track({ dispose: () => clearTimeout(timer) });
  }
}
