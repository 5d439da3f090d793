// What was done to a workspace's gate, for the doors that show it to a person (VS Code's
// notification, doctor): the restorations and altered copies of the gate's state (store/gateGuard.ts),
// each told once per audience, and the user's answer to one: keep the restoration, or keep what was
// done (the approaches restored are then resolved, as the user's resolve).

import { eventSentence, type GateEvent } from '../core/gateState';
import { markTold, readCopy, readTold, type Audience } from '../store/gateCopy';
import type { WorkspaceMemory } from './workspaceMemory';

/**
 * Writes memory back when a read had to put lost approaches back (the store's next write keeps them
 * with the event; this is that write). True when it wrote.
 */
export async function keepLostApproaches(memory: WorkspaceMemory): Promise<boolean> {
  const gate = memory.store.gate;
  if (!gate) return false;
  // what the file holds, not the repaired read: only a loss on disk needs a write
  const lost = gate.lostIn(await memory.readAsIs());
  if (!lost.length) return false;
  await memory.store.update(() => undefined);
  return true;
}

/** The events of the gate's copy not yet told to `who`, from the signed copy only. */
export function untoldEvents(memory: WorkspaceMemory, who: Audience): GateEvent[] {
  const gate = memory.store.gate;
  if (!gate) return [];
  const read = readCopy(gate.file, gate.workspace);
  if (read.kind !== 'ok') return [];
  const told = new Set(readTold(gate.file)[who]);
  return read.copy.header.events.filter(e => !told.has(e.id));
}

export function markEventsTold(memory: WorkspaceMemory, who: Audience, ids: readonly string[]): void {
  const gate = memory.store.gate;
  if (gate) markTold(gate.file, who, ids);
}

/** The user keeps what was done to the gate: the approaches the event restored are resolved (the user's resolve). */
export async function keepChange(memory: WorkspaceMemory, event: GateEvent): Promise<void> {
  for (const a of event.approaches) await memory.resolve(a.key);
}

export { eventSentence };
