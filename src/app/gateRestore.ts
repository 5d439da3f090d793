// The hooks and the gate's copy (store/gateGuard.ts, core/gateState.ts): a hook that finds the
// workspace memory without exhausted approaches the copy holds decides from them put back, has the
// store write them back (dist/hook-record.js: with the event that says what was lost, when, found
// by which hook, and after which command when a post hook found it), and says so in its answer.
// Events the user has not heard of in a hook yet are said in the next answer that can say them.
// The usual case costs one small read: the copy's header, compared with what the hook read already.
// What is to be told to the user goes to `say` (the hook's answer: agents/hooks/notices.ts).

import { existsSync } from 'node:fs';
import { eventSentence, heldHeads, lostFrom, type GateEvent, type GateHead, type HeldHead } from '../core/gateState';
import type { MemoryData } from '../core/types';
import { GateGuard } from '../store/gateGuard';
import { markTold, readCopy, readTold, setupFile } from '../store/gateCopy';
import { cloneJson } from '../store/frozen';

/** Tells the user one sentence, in the hook's answer. */
export type Say = (message: string) => void;

/** Writes the restoration into the workspace memory (the store's bundle), naming the hook and the command. */
export type RestoreGate = (workspace: string, via: string, by?: string) => Promise<void>;

export interface LostGate {
  /** Memory with what it lost put back: what the gate decides from. */
  data: MemoryData;
  event: GateEvent;
}

/**
 * The gate's copy against memory as a hook read it (`knownHeld()`: its exhausted approaches, when a
 * quick read knows them, asked only when the copy holds some; else `read()` gives the whole memory). undefined when nothing was lost, the
 * usual case. `read` may throw (memory.json cannot be read at all): the gate then decides from the
 * copy alone, and says so.
 */
export async function lostGate(workspace: string, knownHeld: (copy: readonly GateHead[]) => Map<string, HeldHead> | undefined, read: () => Promise<MemoryData>, via: string, say: Say): Promise<LostGate | undefined> {
  const guard = new GateGuard({ workspace, via });
  const header = guard.header();
  if (header === 'altered') say(`The copy of the gate's state (${guard.file}) was changed outside Failure Memory: it is not used, so exhausted approaches lost from the workspace memory cannot be restored. Run \`failure-memory doctor\`.`);
  if (header === 'missing' && existsSync(setupFile(guard.file))) say(`The copy of the gate's state (${guard.file}) was deleted: exhausted approaches lost from the workspace memory cannot be restored. Run \`failure-memory doctor\`.`);
  if (typeof header === 'string' || !header.heads.length) return undefined;
  const held = knownHeld(header.heads);
  let lost: GateHead[] = held ? lostFrom(header.heads, key => held.get(key)) : [];
  if (held && !lost.length) return undefined;
  let data: MemoryData | null;
  let unreadable: string | undefined;
  try {
    data = cloneJson(await read());
  } catch (e) {
    unreadable = `the workspace memory could not be read (${(e as Error).message})`;
    say(`${unreadable[0].toUpperCase()}${unreadable.slice(1)}: this answer comes from the copy of the gate's state in the user's data folder.`);
    data = null;
  }
  // what the quick read saw is confirmed on the whole memory: an index out of date is no loss
  const have = data ? heldHeads(data) : new Map<string, HeldHead>();
  lost = lostFrom(header.heads, key => have.get(key));
  if (!lost.length) return undefined;
  const restored = guard.restore(data, lost, unreadable);
  return restored && { data: restored.data, event: restored.event };
}

/**
 * Has the store write the restoration back (its own event, naming `via` and `by`), then says in this
 * answer every event the user has not heard of from a hook. The event made here is said when the
 * store could not write (a read-only folder, a memory.json that cannot be read).
 */
export async function keepRestored(workspace: string, found: LostGate, via: string, by: string | undefined, restoreGate: RestoreGate | undefined, say: Say): Promise<void> {
  let written = false;
  try {
    if (restoreGate) {
      await restoreGate(workspace, via, by);
      written = true;
    }
  } catch {
    // said below, from the event made here
  }
  if (!written) say(eventSentence(by ? { ...found.event, by } : found.event));
  tellEvents(workspace, say);
}

/** Says, in this hook's answer, each event of the gate's copy the user has not heard of from a hook (once each). */
export function tellEvents(workspace: string, say: Say): void {
  const guard = new GateGuard({ workspace, via: 'hook' });
  const header = guard.header();
  if (typeof header === 'string' || !header.events.length) return;
  const told = new Set(readTold(guard.file).hook);
  if (header.events.every(e => told.has(e.id))) return;
  // what is said comes from a copy Failure Memory signed, never from a header anyone could write
  const checked = readCopy(guard.file, guard.workspace);
  if (checked.kind !== 'ok') return;
  const fresh = checked.copy.header.events.filter(e => !told.has(e.id));
  for (const e of fresh) say(eventSentence(e));
  markTold(guard.file, 'hook', fresh.map(e => e.id));
}
