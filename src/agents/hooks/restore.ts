// The gate's copy in a hook (app/gateRestore.ts): what was lost from the workspace memory is put back
// and written back, and every event of the copy the user has not heard of from a hook is said in this
// hook's answer (./notices.ts).

import type { GateHead, HeldHead } from '../../core/gateState';
import type { MemoryData } from '../../core/types';
import * as gate from '../../app/gateRestore';
import { noteForUser } from './notices';

export type { RestoreGate } from '../../app/gateRestore';

export function lostGate(workspace: string, knownHeld: (copy: readonly GateHead[]) => Map<string, HeldHead> | undefined, read: () => Promise<MemoryData>, via: string): Promise<gate.LostGate | undefined> {
  return gate.lostGate(workspace, knownHeld, read, via, noteForUser);
}

export function keepRestored(workspace: string, found: gate.LostGate, via: string, by: string | undefined, restoreGate: gate.RestoreGate | undefined): Promise<void> {
  return gate.keepRestored(workspace, found, via, by, restoreGate, noteForUser);
}

export function tellEvents(workspace: string): void {
  gate.tellEvents(workspace, noteForUser);
}
