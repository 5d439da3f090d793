// One memory per workspace folder (multi-root), where each lives (workspace or, when untrusted,
// the extension's own storage), and a cached copy of each kept fresh by a file watcher so the
// guard can decide without touching the disk.

import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { summarize, type MemorySummary } from '../core/memory';
import type { Scorer } from '../core/recall';
import { createSemanticScorer, type SemanticScorer } from '../embeddings';
import { plainText } from '../core/text/plainText';
import { emptyMemory, type MemoryData } from '../core/types';
import { StoreError } from '../store/storeError';
import type { WorkspaceMemory } from '../app/workspaceMemory';
import { openWorkspaceMemory } from '../app/openMemory';
import { configSettings } from '../app/settings';
import type { Settings } from '../core/config';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { TeamHub } from './team';

export interface FolderMemory {
  folder: vscode.WorkspaceFolder;
  memory: WorkspaceMemory;
  /** Last known content (refreshed on every change, own or external). */
  data: MemoryData;
  /** Memory lives in extension storage because the workspace is not trusted. */
  private: boolean;
}

export interface Located extends FolderMemory {
  /** cwd relative to the folder ('.' for its root). */
  relCwd: string;
}

export class MemoryRegistry extends Disposable {
  private readonly folders = new Map<string, FolderMemory>();
  private readonly changed = this.track(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly warned = new Set<string>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly watchers: vscode.Disposable[] = [];
  private readonly lastMtime = new WeakMap<FolderMemory, number | undefined>();
  private readonly pollTimer = setInterval(() => void this.poll(), 2000);

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
    private config: Settings,
    /** Told when recall first builds a folder's scorer (the host may offer the model download). */
    private readonly onScorerCreated: (s: SemanticScorer) => void = () => {},
    /** Team memory: each folder's WorkspaceMemory gets its team link from here. */
    private readonly team?: TeamHub,
  ) {
    super();
    this.track(vscode.workspace.onDidChangeWorkspaceFolders(() => this.rebuild()));
    this.track(vscode.workspace.onDidGrantWorkspaceTrust(() => {
      this.log.info('registry', 'workspace trusted: memory moves to .vscode/failure-memory in each folder');
      this.rebuild();
    }));
    this.rebuild();
  }

  private memoryDir(folder: vscode.WorkspaceFolder): string | undefined {
    if (vscode.workspace.isTrusted) return undefined; // default: <folder>/.vscode/failure-memory
    const base = this.context.storageUri?.fsPath ?? this.context.globalStorageUri.fsPath;
    return join(base, 'memory', createHash('sha256').update(folder.uri.toString()).digest('hex').slice(0, 16));
  }

  /** The semantic scorer of a memory folder (model lookup, word table): the factory makes it on the first recall. */
  private semanticScorer(memoryDir: string): Scorer {
    const t0 = Date.now();
    const inner = createSemanticScorer({
      memoryDir,
      extensionModelsDir: join(this.context.extensionPath, 'models'),
      modelDir: this.config['embeddings.modelPath'] || undefined,
      globalStorage: this.context.globalStorageUri.fsPath,
      allowDownload: this.config['embeddings.allowDownload'],
      onWarning: m => this.log.warn('recall', m),
      onProgress: p => this.log.debug('recall', `embedding memory: ${JSON.stringify(p)}`),
    });
    this.scorers.add(inner);
    this.onScorerCreated(inner);
    this.log.info('recall', `semantic recall ready in ${Date.now() - t0} ms: ${inner.mode}${inner.model ? ` (${inner.model.root})` : ' (offline embedder)'}`);
    return inner;
  }

  /** The semantic scorers in use (the download command switches them to the transformer). */
  readonly scorers = new Set<SemanticScorer>();

  /** The first folder's scorer, built if needed. */
  firstScorer(): SemanticScorer | undefined {
    const f = this.all()[0];
    if (!f) return undefined;
    void f.memory.scorer.id; // builds it
    return [...this.scorers][0];
  }

  /** Rebuilds every folder's memory and scorer (after a model download or a model setting change). */
  reload(): void {
    this.rebuild();
  }

  private rebuild(): void {
    for (const d of this.watchers.splice(0)) d.dispose();
    for (const s of this.scorers) void s.dispose();
    this.scorers.clear();
    this.folders.clear();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const dir = this.memoryDir(folder);
      const { memory } = openWorkspaceMemory({
        workspace: folder.uri.fsPath,
        // VS Code's configuration, validated with the schema the CLI and hooks use (the team link is TeamHub's)
        settings: configSettings(this.config),
        ...(dir ? { dir } : {}),
        onWarning: m => this.warnOnce(m),
        longLived: true,
        // git context of runs: never in an untrusted workspace (a repository's config can run programs)
        git: vscode.workspace.isTrusted ? {} : false,
        // semantic recall: built on the first recall, never at activation
        scorer: memoryDir => this.semanticScorer(memoryDir),
        // team memory: the outbox hears every write, check reads the cached team view
        team: this.team?.linkFor(folder.uri.fsPath, dir) ?? false,
        // a restoration this window finds is told as found by the extension, once: GateNotices shows it
        // with Restore / Keep, so the store's warning about it is no second notification
        gate: { via: 'extension', warnRestored: false },
      });
      this.folders.set(folder.uri.toString(), { folder, memory, data: emptyMemory(), private: !!dir });
      if (!dir) {
        // the CLI, an agent or another window may write it (a hook appends to the journal beside it): reflect their writes here
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.vscode/failure-memory/{memory.json,journal.jsonl}'));
        const onFile = () => this.scheduleRefresh();
        this.watchers.push(watcher, watcher.onDidChange(onFile), watcher.onDidCreate(onFile), watcher.onDidDelete(onFile));
      }
      this.log.info('registry', `memory for ${folder.name}: ${memory.store.file}${dir ? ' (untrusted workspace: kept in extension storage)' : ''}`);
    }
    void this.refresh();
  }

  private warnOnce(message: string): void {
    this.log.warn('store', message);
    if (this.warned.has(message)) return;
    this.warned.add(message);
    void vscode.window.showWarningMessage(plainText(message, 500));
  }

  /** Re-reads every folder's memory soon (coalesces bursts of file events). */
  scheduleRefresh(delayMs = 50): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, delayMs);
  }

  async refresh(): Promise<void> {
    for (const f of this.folders.values()) {
      try {
        this.lastMtime.set(f, await f.memory.store.mtimeMs());
        f.data = await f.memory.read();
      } catch (e) {
        this.log.error('store', `cannot read ${f.memory.store.file}`, e);
        if (e instanceof StoreError) this.warnOnce(e.message);
      }
    }
    if (!this.isDisposed) this.changed.fire();
  }

  applyConfig(config: Settings): void {
    const modelChanged = config['embeddings.modelPath'] !== this.config['embeddings.modelPath'] || config['embeddings.allowDownload'] !== this.config['embeddings.allowDownload'];
    this.config = config;
    if (modelChanged) return this.rebuild();
    for (const f of this.folders.values()) f.memory.setSettings(config);
  }

  all(): FolderMemory[] {
    return [...this.folders.values()];
  }

  byFolderUri(uri: string): FolderMemory | undefined {
    return this.folders.get(uri);
  }

  /** The folder a cwd belongs to (deepest match), with the cwd relative to it. */
  locate(cwd: vscode.Uri | string | undefined): Located | undefined {
    // code-server reports terminal cwds as vscode-local:/path (desktop: file:), with the real path
    const path = typeof cwd === 'string' ? cwd : cwd ? (cwd.scheme === 'file' ? cwd.fsPath : cwd.path) : undefined;
    const all = this.all();
    if (!all.length) return undefined;
    if (!path || !isAbsolute(path)) return { ...all[0], relCwd: path && !isAbsolute(path) ? path : '.' };
    let best: FolderMemory | undefined;
    for (const f of all) {
      const root = f.folder.uri.fsPath;
      if ((path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)) && (!best || root.length > best.folder.uri.fsPath.length)) best = f;
    }
    if (!best) return undefined;
    const rel = relative(best.folder.uri.fsPath, path).split(sep).join('/');
    return { ...best, relCwd: rel || '.' };
  }

  /** All folders' approaches by state, for the status bar and pickers. */
  summary(): Array<MemorySummary & { folder: FolderMemory }> {
    return this.all().map(f => ({ ...summarize(f.data), folder: f }));
  }

  /** Runs a write and refreshes the cache at once, so the UI never lags behind its own action. */
  async write<T>(where: FolderMemory, op: (m: WorkspaceMemory) => Promise<T>): Promise<T> {
    // `where` may be a Located copy: update the registry's own entry
    const f = this.folders.get(where.folder.uri.toString()) ?? where;
    try {
      return await op(f.memory);
    } catch (e) {
      // a read-only folder, a full disk, a lock held too long: say it once, clearly
      if (e instanceof StoreError) this.warnOnce(e.message);
      throw e;
    } finally {
      try {
        f.data = await f.memory.read();
        this.lastMtime.set(f, await f.memory.store.mtimeMs());
      } catch {
        // reported by refresh()
      }
      this.changed.fire();
      this.team?.schedulePush();
    }
  }

  /**
   * Safety net for file watchers that miss a write (e.g. the folder created by the CLI after the
   * watcher started): a stat per folder every 2 s, re-read only when the file changed.
   */
  private async poll(): Promise<void> {
    let changed = false;
    for (const f of this.folders.values()) {
      try {
        const m = await f.memory.store.mtimeMs();
        if (m !== this.lastMtime.get(f)) {
          this.lastMtime.set(f, m);
          f.data = await f.memory.read();
          changed = true;
        }
      } catch {
        // unreadable: refresh() reports it
      }
    }
    if (changed && !this.isDisposed) this.changed.fire();
  }

  override dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    clearInterval(this.pollTimer);
    for (const s of this.scorers) void s.dispose();
    for (const d of this.watchers.splice(0)) d.dispose();
    super.dispose();
  }
}
