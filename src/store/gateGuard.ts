// The writers' side of the gate's copy (./gateCopy.ts, core/gateState.ts): every writer of memory
// keeps the copy equal to memory's exhausted approaches, under memory's lock, in an order that never
// lets a reader without the lock see the copy ahead of memory by Failure Memory's own doing (what the
// copy drops goes before memory.json is replaced, what it gains after); and memory loaded for a
// write, or read, gets back what it lost behind Failure Memory's back, with an event for the user.
// Writing the copy never fails a write of memory: a home that cannot be written is warned about once.

import { realpathSync } from 'node:fs';
import { describeLoss, gateHeadOf, gateHeads, heldHeads, lostFrom, restoreInto, sameHeads, slimApproach, exhaustedOf, type GateEvent, type GateHead, type HeldHead } from '../core/gateState';
import { emptyMemory, type Approach, type MemoryData } from '../core/types';
import { copyFileFor, readCopy, readCopyHeader, setAside, stateDir, writeCopy, writeSetupRecord, type CopyHeader, type GateCopy } from './gateCopy';
import { randomHex } from './lock';

export interface GateGuardOptions {
  /** The workspace (its real path names the copy), or the memory folder when memory is kept elsewhere. */
  workspace: string;
  /** Who writes: cli, extension, hook:claude post… (said in an event). */
  via: string;
  /** The command line that ran just before, when the writer knows it (the post hook's call). */
  by?: string;
  /** Default: stateDir(). */
  dir?: string;
  onWarning?: (message: string) => void;
  /**
   * Whether a restoration is also said through onWarning (default true: the CLI's and hooks' stderr).
   * False where the events are shown by the caller itself (VS Code's notification with Restore / Keep).
   */
  warnRestored?: boolean;
}

/** The real path of a workspace (a symbolic link to it names the same copy). */
export function realWorkspace(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** Notes the harnesses set up in a workspace (or taken out by the user): doctor tells their entries' removal later. */
export function recordSetup(workspace: string, harnesses: readonly string[], removed = false, dir: string = stateDir()): void {
  const file = copyFileFor(realWorkspace(workspace), dir);
  writeSetupRecord(file, harnesses, removed);
  // a copy from now on, even an empty one: its absence later says it was deleted
  if (!removed) new GateGuard({ workspace, via: 'setup', dir }).ensure();
}

export class GateGuard {
  readonly file: string;
  readonly workspace: string;
  /** Events found while loading, written with the copy after memory is. */
  private readonly pending: GateEvent[] = [];
  private warned = false;

  constructor(private readonly opts: GateGuardOptions) {
    this.workspace = realWorkspace(opts.workspace);
    this.file = copyFileFor(this.workspace, opts.dir ?? stateDir());
  }

  /** The copy's header, unchecked (a comparison only). */
  header(): CopyHeader | 'missing' | 'altered' {
    return readCopyHeader(this.file, this.workspace);
  }

  /** The copy's approaches that `data` lost (by the unchecked header); none when there is no copy. */
  lostIn(data: MemoryData | null, held?: Map<string, HeldHead>): GateHead[] {
    const h = this.header();
    if (typeof h === 'string' || !h.heads.length) return [];
    const have = held ?? (data ? heldHeads(data) : new Map<string, HeldHead>());
    return lostFrom(h.heads, key => have.get(key));
  }

  /**
   * Memory with what it lost put back from the (checked) copy, and the event that says so; `data`
   * itself is changed (a new memory when there is none). undefined: nothing lost, or no usable copy.
   */
  restore(data: MemoryData | null, lost: GateHead[] = this.lostIn(data), what?: string): { data: MemoryData; event: GateEvent } | undefined {
    if (!lost.length) return undefined;
    const read = readCopy(this.file, this.workspace);
    if (read.kind !== 'ok') return undefined;
    const keys = new Set(lost.map(l => l[0]));
    // said from memory as it was found, before anything is put back
    const said = what ?? describeLoss(data, lost);
    const target = data ?? emptyMemory();
    const restored = restoreInto(target, read.copy.approaches.filter(a => keys.has(a.key)));
    if (!restored.length) return undefined;
    const event: GateEvent = {
      id: randomHex(6),
      at: new Date().toISOString(),
      kind: 'restored',
      approaches: restored.map(a => ({ key: a.key, label: a.label })),
      what: said,
      ...(this.opts.by ? { by: this.opts.by.slice(0, 2000) } : {}),
      via: this.opts.via,
    };
    return { data: target, event };
  }

  /** Under memory's lock, memory just loaded for a write: what it lost is put back, the event kept for the write. */
  restoreForWrite(data: MemoryData | null): MemoryData | null {
    const r = this.restore(data);
    if (!r) return data;
    this.pending.push(r.event);
    if (this.opts.warnRestored !== false) this.opts.onWarning?.(`the workspace memory had lost exhausted approaches (${r.event.what}); they were restored from the copy in ${this.file}.`);
    return r.data;
  }

  /** Writes an empty copy where there is none (memory's writes fill it). */
  ensure(): void {
    if (this.header() === 'missing') this.change(copy => copy);
  }

  /** Under the lock, before memory.json becomes `next`: the copy first drops what `next` no longer has exhausted. */
  beforeWrite(next: MemoryData): void {
    const keep = new Set(exhaustedOf(next).map(a => a.key));
    // the usual write changes nothing the copy holds: its header says so, without reading the rest
    const h = this.header();
    if (h === 'missing' || (typeof h !== 'string' && h.heads.every(x => keep.has(x[0])))) return;
    this.change(copy => {
      const approaches = copy.approaches.filter(a => keep.has(a.key));
      return approaches.length === copy.approaches.length ? undefined : { ...copy, approaches, header: { ...copy.header, heads: copy.header.heads.filter(h => keep.has(h[0])) } };
    });
  }

  /** After memory.json became `next`: the copy is its exhausted approaches (and the events found). */
  afterWrite(next: MemoryData): void {
    const heads = gateHeads(next);
    // written when an approach becomes or stops being exhausted: one more failure of one it holds is no reason
    const same = (a: readonly GateHead[]) => a.length === heads.length && a.every((x, i) => x[0] === heads[i][0]);
    const h = this.header();
    if (!this.pending.length && (typeof h === 'string' ? h === 'missing' && !heads.length : same(h.heads))) return;
    this.change(copy => (same(copy.header.heads) && !this.pending.length ? undefined : { header: { ...copy.header, heads }, approaches: exhaustedOf(next).map(slimApproach) }));
  }

  /** A hook's journaled run of one approach, before it is appended: a resolution leaves the copy first. */
  beforeAppend(before: Approach | undefined, after: Approach | undefined): void {
    if (before?.status !== 'exhausted' || after?.status === 'exhausted') return;
    const h = this.header();
    if (h === 'missing' || (typeof h !== 'string' && !h.heads.some(x => x[0] === before.key))) return;
    this.change(copy => withoutKey(copy, before.key));
  }

  /**
   * After it is appended: an exhaustion joins the copy. One more failure of an approach the copy holds
   * leaves it as it is (written when an approach becomes or stops being exhausted; a full write brings
   * its evidence up to date): memory then holds more than the copy, which is no loss.
   */
  afterAppend(after: Approach | undefined, before?: Approach): void {
    if (after?.status !== 'exhausted') return;
    const head = gateHeadOf(after);
    const h = this.header();
    if (typeof h !== 'string' && h.heads.some(x => x[0] === after.key && (before?.status === 'exhausted' || sameHeads([x], [head])))) return;
    this.change(copy => {
      const now = copy.header.heads.find(h => h[0] === after.key);
      if (now && sameHeads([now], [head])) return undefined;
      const rest = withoutKey(copy, after.key) ?? copy;
      const heads = [...rest.header.heads, head].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      return { header: { ...rest.header, heads }, approaches: [...rest.approaches, slimApproach(after)] };
    });
  }

  /**
   * Reads the copy (an altered one is set aside, said in an event, and a new one started), lets
   * `edit` change it, and writes it when it changed or events wait. Never throws.
   */
  private change(edit: (copy: GateCopy) => GateCopy | undefined): void {
    try {
      const read = readCopy(this.file, this.workspace);
      let copy: GateCopy = read.kind === 'ok' ? read.copy : { header: { v: 1, workspace: this.workspace, updatedAt: '', heads: [], events: [] }, approaches: [] };
      if (read.kind === 'altered') {
        const aside = setAside(this.file);
        this.pending.push({ id: randomHex(6), at: new Date().toISOString(), kind: 'copy-altered', approaches: [], what: `the copy was altered (${read.why})${aside ? `; kept as ${aside}` : ''}`, via: this.opts.via });
      }
      const next = edit(copy);
      if (!next && !this.pending.length) return;
      copy = next ?? copy;
      const events = [...copy.header.events, ...this.pending.splice(0)];
      writeCopy(this.file, { ...copy, header: { ...copy.header, events, updatedAt: new Date().toISOString() } });
    } catch (e) {
      this.warn(`the copy of the gate's state could not be written (${(e as Error).message}): if this workspace's memory is deleted, its exhausted approaches cannot be restored.`);
    }
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.opts.onWarning?.(message);
  }
}

function withoutKey(copy: GateCopy, key: string): GateCopy | undefined {
  if (!copy.header.heads.some(h => h[0] === key)) return undefined;
  return { header: { ...copy.header, heads: copy.header.heads.filter(h => h[0] !== key) }, approaches: copy.approaches.filter(a => a.key !== key) };
}
