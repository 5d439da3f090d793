// What can be done to one approach — reflect on it, mark it resolved, let it run once — for every
// front door of the window (palette commands, the help dialog, the panel, terminal links). These
// act on the memory only; showing the result is the caller's business.

import * as vscode from 'vscode';
import type { Settings } from '../core/config';
import { describeApproach } from '../core/memory';
import { plainText } from '../core/text/plainText';
import { approachCounts } from '../core/rules/counts';
import type { ReflectionRecord } from '../core/reflection';
import type { Approach } from '../core/types';
import type { ApproachRef } from './commandIds';
import type { Logger } from './logger';
import type { FolderMemory, MemoryRegistry } from './registry';

export interface Target {
  f: FolderMemory;
  a: Approach;
}

/** Produces the self-reflection (the engine's heuristics, or a language model when allowed). */
export type ReflectionWriter = (record: ReflectionRecord, f: FolderMemory) => Promise<ReflectionRecord>;

/** How long a reflection waits for recall by meaning before its similar failures are found by words (see WorkspaceMemory.reflect). */
const SIMILAR_WITHIN_MS = 250;

const failingOrExhausted = (a: Approach) => a.status === 'exhausted' || (a.status === 'active' && a.failures > 0);

export class ApproachActions {
  constructor(
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
    private readonly config: () => Settings,
    private readonly writeReflection: ReflectionWriter,
  ) {}

  resolveRef(ref: ApproachRef | undefined): Target | undefined {
    if (!ref) return undefined;
    const f = this.registry.byFolderUri(ref.folder);
    // own properties only: a key such as "__proto__" must never reach Object.prototype
    const a = f && Object.prototype.hasOwnProperty.call(f.data.approaches, ref.key) ? f.data.approaches[ref.key] : undefined;
    return f && a ? { f, a } : undefined;
  }

  /** Approaches of every folder (failing and exhausted by default), most recently failed first. */
  targets(filter: (a: Approach) => boolean = failingOrExhausted): Target[] {
    return this.registry
      .all()
      .flatMap(f => Object.values(f.data.approaches).filter(filter).map(a => ({ f, a })))
      .sort((x, y) => ((y.a.lastFailure ?? '') > (x.a.lastFailure ?? '') ? 1 : -1));
  }

  /**
   * Builds each folder's recall index in the background (the first recall of a window embeds every
   * approach): started when a reflection is about to be asked for, so that it is ready when the
   * person has picked the approach.
   */
  warmRecall(): void {
    for (const f of this.registry.all()) {
      const a = Object.values(f.data.approaches)[0];
      if (a) void f.memory.recall(a.label, 1).catch(e => this.log.debug('reflect', `recall warm-up failed: ${String(e)}`));
    }
  }

  /** A Quick Pick over targets (the only one when there is one). */
  async pick(targets: Target[], placeHolder: string): Promise<Target | undefined> {
    if (targets.length <= 1) return targets[0];
    const multi = this.registry.all().length > 1;
    const t = vscode.l10n.t;
    const items = targets.map(x => ({
      label: `${x.a.status === 'exhausted' ? '$(error)' : x.a.status === 'resolved' ? '$(pass)' : '$(history)'} ${plainText(x.a.label, 200)}`,
      description: [x.a.failures === 1 ? t('1 failure') : t('{0} failures', x.a.failures), x.a.cwd !== '.' ? x.a.cwd : '', multi ? x.f.folder.name : ''].filter(Boolean).join(' · '),
      detail: plainText(approachCounts(x.a, x.f.memory.settings.threshold).last?.text ?? '', 200) || undefined,
      x,
    }));
    return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, matchOnDetail: true }))?.x;
  }

  /**
   * Builds and writes (heuristics or a model) a reflection on one approach, shows it (`show`), then
   * saves it: saving rewrites memory.json under its lock, which the person reading need not wait for.
   */
  async reflect(target: Target, show?: (record: ReflectionRecord) => Promise<void>): Promise<ReflectionRecord | undefined> {
    const t0 = Date.now();
    let record = await target.f.memory.reflect(target.a.key, undefined, { store: false, similarWithinMs: SIMILAR_WITHIN_MS });
    if (!record) return undefined;
    const built = Date.now();
    record = await this.writeReflection(record, target.f);
    const saved = record;
    if (show) await show(saved);
    const shown = Date.now();
    await this.registry.write(target.f, m => m.saveReflection(saved));
    this.log.info('reflect', `reflection on ${describeApproach(target.a)} (${record.failure_memory.produced_by}): built in ${built - t0} ms, shown after ${shown - t0} ms, saved after ${Date.now() - t0} ms`);
    this.log.event('reflected', { key: target.a.key, producedBy: record.failure_memory.produced_by, id: record.failure_memory.id });
    return record;
  }

  async markResolved(target: Target): Promise<void> {
    await this.registry.write(target.f, m => m.resolve(target.a.key));
    this.log.info('commands', `marked resolved: ${describeApproach(target.a)}`);
    this.log.event('resolved', { key: target.a.key, by: 'manual' });
    vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('“{0}” marked resolved', plainText(target.a.label, 80))}`, 4000);
  }

  async runAnywayOnce(target: Target): Promise<void> {
    await this.registry.write(target.f, m => m.allowOnce(target.a.key));
    this.log.info('commands', `run anyway once: ${describeApproach(target.a)}`);
    this.log.event('allowOnce', { key: target.a.key });
  }
}
