// Agent gates from VS Code: the `failure-memory` launcher in ~/.failure-memory/bin re-pointed at
// this extension at each activation (hook files and terminals call that stable path), the launcher's
// folder on PATH in integrated terminals, and "Failure Memory: Set Up Agent Gates", which writes the
// hook entries of the coding agents used in a folder (../agents/setup.ts) after showing where.

import { delimiter } from 'node:path';
import * as vscode from 'vscode';
import { plainText } from '../core/text/plainText';
import { plainFromMarkdown } from '../core/text/shownText';
import { diagnose } from '../agents/doctor';
import { harnessSigns, targetFor } from '../agents/setup';
import { applySetup, describeChanges, planSetup } from '../agents/setupFiles';
import { HARNESSES, HARNESS_IDS, type HarnessId } from '../agents/hooks';
import { installLauncher, launcherDir, launcherTampered, readLauncher } from '../agents/launcher';
import { recordSetup } from '../app/gateTamper';
import { CommandId } from './commandIds';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import { nodeExecutable } from './mcpProvider';

/** Set once the gates are set up in a folder: the walkthrough step ticks itself off. */
export const AGENT_GATES_CONTEXT_KEY = 'failureMemory.agentGatesSetUp';

interface SetupArgs {
  /** Folder path; default: the only folder, else a pick. */
  folder?: string;
  harnesses?: HarnessId[];
  /** false: write without the confirmation dialog (for callers that already asked). */
  confirm?: boolean;
}

export class AgentGates extends Disposable {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
    /** The gates are set up in a folder (the walkthrough's step). */
    private readonly onSetUp: () => void = () => {},
  ) {
    super();
    this.track(vscode.commands.registerCommand(CommandId.SetupAgentGates, (args?: SetupArgs) => this.setup(args)));
    // off the activation path: a few small file operations in the user's home and the folders
    setTimeout(() => {
      this.pointLauncher();
      this.markIfSetUp();
    }, 0);
  }

  /** Ticks the walkthrough step off when a folder already has the gates (set up earlier, or committed). */
  private markIfSetUp(): void {
    try {
      const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file');
      if (folders.some(f => planSetup(f.uri.fsPath, { harnesses: ['vscode'] }).every(c => c.action === 'unchanged'))) {
        this.setUp();
      }
    } catch {
      // a folder we cannot read: the step just stays unticked
    }
  }

  private setUp(): void {
    void vscode.commands.executeCommand('setContext', AGENT_GATES_CONTEXT_KEY, true);
    this.onSetUp();
  }

  /** Rewrites the launcher for this extension version and puts its folder first on terminals' PATH. */
  private pointLauncher(): void {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist').fsPath;
    const version = String((this.context.extension?.packageJSON as { version?: string } | undefined)?.version ?? '0');
    const electron = process.versions.electron ? process.execPath : undefined;
    try {
      // one that is not Failure Memory's (replaced, edited: every hook could pass without a word) is said before it is written again
      const before = readLauncher(launcherDir());
      const { dir, changed } = installLauncher({ dist, node: nodeExecutable(), electron, version }, launcherDir());
      if (launcherTampered(before, version)) {
        this.log.warn('agents', `the launcher ${before.file} was not Failure Memory's (changed or replaced); written again`);
        this.log.event('launcherTampered', { file: before.file });
        void vscode.window.showWarningMessage(plainText(`Failure Memory: the failure-memory launcher (${before.file}) was not Failure Memory's: something changed or replaced it, and every agent hook could have passed without a word. It was written again.`, 600));
      }
      const env = this.context.environmentVariableCollection;
      env.description = 'Puts the failure-memory command on PATH';
      env.prepend('PATH', `${dir}${delimiter}`);
      this.log.info('agents', `launcher ${changed ? 'written' : 'up to date'}: ${dir} (on PATH in new terminals)`);
      this.log.event('launcher', { dir, changed, dist });
    } catch (e) {
      this.log.warn('agents', `cannot write the failure-memory launcher in ${launcherDir()}: ${(e as Error)?.message ?? e}`);
      this.log.event('launcher', { error: (e as Error)?.message ?? String(e) });
    }
  }

  /**
   * What is still to do for each gate just set up (failure-memory doctor's steps: Codex's /hooks
   * review, Gemini's folder trust, Copilot's -p switch…), as one sentence; '' when nothing is.
   */
  private stillToDo(root: string, harnesses: HarnessId[]): string {
    try {
      // the launcher was re-pointed at this extension at activation: no need to run it here
      const steps = diagnose(root, { harnesses, probe: false }).filter(l => l.status !== 'active' && l.id !== 'vscode');
      this.log.event('agentGatesDoctor', { folder: root, gates: steps.map(l => ({ id: l.id, status: l.status, steps: l.steps })) });
      return steps.length ? plainFromMarkdown(` Still to do: ${steps.map(l => `${l.title}: ${l.steps[0] ?? l.detail}`).join('; ')} (“failure-memory doctor” checks again).`) : '';
    } catch (e) {
      this.log.warn('agents', `doctor: ${(e as Error)?.message ?? e}`);
      return '';
    }
  }

  private async setup(args: SetupArgs = {}): Promise<void> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file');
    if (!folders.length) {
      void vscode.window.showInformationMessage('Failure Memory: open a folder first: agent gates are set up per workspace folder.');
      return;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Failure Memory: agent gates write hook files into the workspace. Trust the workspace first.');
      return;
    }
    const folder = args.folder ? folders.find(f => f.uri.fsPath === args.folder) : folders.length === 1 ? folders[0] : (await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Set up agent gates in which folder?' }));
    if (!folder) return;
    const root = folder.uri.fsPath;
    const signs = harnessSigns(root);
    let harnesses = args.harnesses;
    if (!harnesses) {
      const items = HARNESS_IDS.map(id => {
        const t = targetFor(id);
        const files = t.kind === 'json' ? t.file : Object.keys(t.files)[0].replace(/\/[^/]+$/, '/');
        // VS Code agent mode is this editor: offered always, never "found" (its sign, .vscode, is where our own memory lives)
        const found = id === 'vscode' ? undefined : signs[id];
        const detail = id === 'vscode' ? 'this editor' : found?.length ? `found in this folder: ${found.join(', ')}` : 'not found in this folder';
        return { label: HARNESSES[id].title, description: files, detail, picked: id === 'vscode' || !!found?.length, id };
      });
      const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'Failure Memory: Set Up Agent Gates', placeHolder: 'The coding agents to gate in this folder (VS Code and those found here are selected)', ignoreFocusOut: true });
      if (!picked?.length) return;
      harnesses = picked.map(p => p.id);
    }
    const changes = planSetup(root, { harnesses });
    const lines = describeChanges(changes);
    const toWrite = changes.filter(c => c.action === 'create' || c.action === 'update');
    const report = foundReport(harnesses, signs);
    this.log.event('agentGatesPlan', { folder: root, harnesses, found: HARNESS_IDS.filter(id => id !== 'vscode' && signs[id].length), changes: changes.map(c => ({ file: c.file, action: c.action, reason: c.reason })) });
    if (!toWrite.length) {
      this.setUp();
      void vscode.window.showInformationMessage(`Failure Memory: agent gates are already set up in ${folder.name}: ${lines.join('; ')}. ${report}${this.stillToDo(root, harnesses)}`);
      this.log.event('agentGates', { folder: root, written: [], unchanged: changes.map(c => c.file) });
      return;
    }
    if (args.confirm !== false) {
      const ok = await vscode.window.showInformationMessage(
        `Set up agent gates in ${folder.name}?`,
        {
          modal: true,
          detail: `${lines.join('\n')}\n\n${report}\n\nThe hooks run the failure-memory command from ~/.failure-memory/bin; on a machine without Failure Memory they let the agent go on and say the gate is off. Your own hooks stay as they are; “failure-memory setup-agents --remove” takes ours out again.`,
        },
        'Write Files',
      );
      if (ok !== 'Write Files') return;
    }
    try {
      applySetup(root, changes);
    } catch (e) {
      this.log.error('agents', 'agent gates could not be written', e);
      void vscode.window.showErrorMessage(`Failure Memory: agent gates could not be written: ${plainText(String((e as Error)?.message ?? e), 300)}`);
      return;
    }
    this.setUp();
    recordSetup(root, harnesses.filter(h => changes.some(c => c.harnesses.includes(h) && c.action !== 'skip')));
    this.log.info('agents', `agent gates set up in ${root}: ${lines.join('; ')}`);
    this.log.event('agentGates', { folder: root, written: toWrite.map(c => c.file), unchanged: changes.filter(c => c.action === 'unchanged').map(c => c.file), skipped: changes.filter(c => c.action === 'skip').map(c => c.file) });
    const skipped = changes.filter(c => c.action === 'skip');
    void vscode.window.showInformationMessage(
      `Failure Memory: agent gates set up in ${folder.name}: wrote ${toWrite.map(c => c.file).join(', ')}.${skipped.length ? ` Skipped: ${skipped.map(c => `${c.file} (${c.reason})`).join('; ')}.` : ''} ${report}${this.stillToDo(root, harnesses)}`,
    );
  }
}

/**
 * What was found in the folder and what was not, in words: "Found here: Claude Code (.claude).
 * Not found here: Cursor, Gemini CLI…" — the gate of an agent not found is still written when picked.
 */
export function foundReport(picked: readonly HarnessId[], signs: Record<HarnessId, string[]>): string {
  const others = HARNESS_IDS.filter(id => id !== 'vscode');
  const found = others.filter(id => signs[id].length);
  const missing = others.filter(id => !signs[id].length);
  const name = (id: HarnessId) => HARNESSES[id].title;
  const parts = [
    found.length ? `Found here: ${found.map(id => `${name(id)} (${signs[id].join(', ')})`).join(', ')}.` : 'No other coding agent was found in this folder.',
    missing.length ? `Not found here: ${missing.map(name).join(', ')}${missing.some(id => picked.includes(id)) ? ' (gated anyway where you picked them)' : ''}.` : '',
  ];
  return parts.filter(Boolean).join(' ');
}
