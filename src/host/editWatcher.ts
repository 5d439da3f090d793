// Edits as evidence from the editor: every document saved (and every file created, deleted or renamed
// from VS Code) in a workspace folder becomes an edit event of its memory. A failing command run again
// after a save is trying a fix, not looping blind. Saves are written in batches; the guard also reads
// the ones not written yet, so a command started right after Ctrl+S is never judged "nothing changed".

import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Settings } from '../core/config';
import { SETTINGS_FILE, settingsWithoutOwnKeys } from '../app/settings';
import type { EditEvent } from '../core/types';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { FolderMemory, MemoryRegistry } from './registry';

/** Saves are gathered this long before they are written (auto-save on every keystroke stays one write). */
const FLUSH_MS = 400;

interface Pending {
  where: FolderMemory;
  edits: Map<string, EditEvent>;
}

export class EditWatcher extends Disposable {
  private readonly pending = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A settings.json about to be saved, as it was on disk without Failure Memory's own settings. */
  private readonly settingsBefore = new Map<string, string>();

  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
    private readonly config: () => Settings,
  ) {
    super();
    // a settings.json whose only change is Failure Memory's own settings is no edit of the workspace
    this.track(vscode.workspace.onWillSaveTextDocument(e => isSettingsFile(e.document.uri) && this.settingsBefore.set(e.document.uri.toString(), ownKeysAside(e.document.uri))));
    this.track(
      vscode.workspace.onDidSaveTextDocument(d => {
        const before = this.settingsBefore.get(d.uri.toString());
        this.settingsBefore.delete(d.uri.toString());
        if (before !== undefined && before === settingsWithoutOwnKeys(d.getText())) return;
        this.note(d.uri, 'save');
      }),
    );
    this.track(vscode.workspace.onDidCreateFiles(e => e.files.forEach(u => this.note(u, 'create'))));
    this.track(vscode.workspace.onDidDeleteFiles(e => e.files.forEach(u => this.note(u, 'delete'))));
    this.track(vscode.workspace.onDidRenameFiles(e => e.files.forEach(f => (this.note(f.oldUri, 'rename'), this.note(f.newUri, 'rename')))));
  }

  /** Edits seen in a folder and not yet written to its memory (newest last). */
  unwritten(folder: vscode.WorkspaceFolder): EditEvent[] {
    return [...(this.pending.get(folder.uri.toString())?.edits.values() ?? [])];
  }

  private note(uri: vscode.Uri, tool: string): void {
    const cfg = this.config();
    // paused (or capture off): nothing is recorded
    if (!cfg['capture.terminal'] && !cfg['capture.tasks']) return;
    if (uri.scheme !== 'file') return;
    const where = this.registry.locate(uri.fsPath);
    if (!where || where.relCwd === '.' || where.relCwd.startsWith('.vscode/failure-memory')) return;
    const key = where.folder.uri.toString();
    const p = this.pending.get(key) ?? { where, edits: new Map<string, EditEvent>() };
    p.edits.set(where.relCwd, { at: new Date().toISOString(), path: where.relCwd, ok: true, source: 'save', tool });
    this.pending.set(key, p);
    if (!this.timer) this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes the gathered edits, one write per folder. */
  async flush(): Promise<void> {
    this.timer = undefined;
    const batches = [...this.pending.values()];
    this.pending.clear();
    for (const { where, edits } of batches) {
      const list = [...edits.values()];
      try {
        await this.registry.write(where, m => m.recordEdits(list.map(e => ({ path: e.path, ok: true, source: 'save', tool: e.tool, at: e.at }))));
        this.log.debug('edits', `${list.length} edit(s) in ${where.folder.name}: ${list.map(e => e.path).slice(0, 5).join(', ')}`);
      } catch (e) {
        this.log.error('edits', `could not record ${list.length} edit(s) in ${where.folder.name}`, e);
      }
    }
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    void this.flush();
    super.dispose();
  }
}

const isSettingsFile = (uri: vscode.Uri) => uri.scheme === 'file' && uri.path.endsWith(`/${SETTINGS_FILE}`);

/** A settings file as it is on disk, without Failure Memory's own settings (a file not there yet: as an empty one). */
function ownKeysAside(uri: vscode.Uri): string {
  let text = '{}';
  try {
    text = readFileSync(uri.fsPath, 'utf8');
  } catch {
    // a new settings.json
  }
  return settingsWithoutOwnKeys(text);
}
