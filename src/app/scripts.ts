// The script tables a command line needs, read for the gate and the recorder alike: the same tables
// give the same approach key at check time and at record time, on every door (the hooks' journal, a
// full write, the CLI, the terminal). Only the manifests a step's script names are read (none for a
// line that runs no package script, make target, pdm or composer script), through the store's reader.

import { judgedLines } from '../core/rules/steps';
import { needKey, type ScriptTables } from '../core/approach/scripts';
import type { ScriptTable } from '../core/approach/manifests';
import type { ScriptReader } from '../store/scriptTables';

/** The reader of one workspace folder's manifests (cached for its life): what every door passes here. */
export { scriptReader, type ScriptReader } from '../store/scriptTables';

/** Rounds of reading: a script whose commands run another folder's script needs a second. */
const MAX_ROUNDS = 4;

/** The tables `command` (run in `cwd`) needs, through its scripts' own commands. */
export function scriptTablesFor(command: string, cwd: string | undefined, reader: ScriptReader, redact?: (text: string) => string): ScriptTables {
  const tables = new Map<string, ScriptTable | null>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { missing } = judgedLines(command, cwd, tables, redact);
    if (!missing.length) break;
    for (const need of missing) {
      let table: ScriptTable | null = null;
      try {
        table = reader(need);
      } catch {
        table = null; // a manifest that cannot be read names no scripts
      }
      tables.set(needKey(need), table);
    }
  }
  return tables;
}
