// What setup and doctor need of the gate's protection, outside the hooks: which harnesses were set up
// in a workspace (recorded beside the gate's copy, so that entries taken out later are seen), the copy
// of the gate's state compared with memory as it is on disk, and the hooks' code cache cleared of
// files Failure Memory did not sign.

import { exhaustedOf, heldHeads, lostFrom, type GateEvent, type GateHead } from '../core/gateState';
import type { MemoryData } from '../core/types';
import { foreignCacheFiles } from '../store/codeCache';
import { readCopy, readSetupRecord } from '../store/gateCopy';
import { GateGuard, recordSetup } from '../store/gateGuard';
import { readMemoryAsIs } from './hookMemory';

export { foreignCacheFiles, recordSetup };

/** The copy of the gate's state against memory as it is on disk (without the copy's repair). */
export type GateCopyState =
  | { kind: 'missing'; file: string; /** Exhausted approaches memory holds (a copy should exist). */ exhausted: number }
  | { kind: 'altered'; file: string; why: string }
  | { kind: 'ok'; file: string; heads: readonly GateHead[]; /** Heads of the copy memory lacks. */ lost: GateHead[]; events: readonly GateEvent[] };

/** Memory as it is on disk; null: none; undefined: it cannot be read. */
function memoryAsIs(workspace: string): MemoryData | null | undefined {
  try {
    return readMemoryAsIs(workspace);
  } catch {
    return undefined;
  }
}

export function gateCopyState(workspace: string): GateCopyState {
  const guard = new GateGuard({ workspace, via: 'doctor' });
  const data = memoryAsIs(workspace);
  const read = readCopy(guard.file, guard.workspace);
  if (read.kind === 'missing') return { kind: 'missing', file: guard.file, exhausted: data ? exhaustedOf(data).length : 0 };
  if (read.kind === 'altered') return { kind: 'altered', file: guard.file, why: read.why };
  const { heads, events } = read.copy.header;
  const held = data ? heldHeads(data) : undefined;
  return { kind: 'ok', file: guard.file, heads, events, lost: held ? lostFrom(heads, k => held.get(k)) : [...heads] };
}

/** The harnesses set up in `workspace`, each with when (its record beside the gate's copy). */
export function harnessesSetUp(workspace: string): Record<string, string> {
  return readSetupRecord(new GateGuard({ workspace, via: 'doctor' }).file);
}
