// What `failure-memory doctor` reports of what was done to the gate, besides whether each harness's
// gate is on (./doctor.ts): the copy of the gate's state (a memory that lost exhausted approaches, a
// restoration, a copy altered or gone), the hooks' code cache (a file Failure Memory did not sign:
// removed), environment overrides in a harness's settings (FAILURE_MEMORY_BIN and the like send the
// hooks elsewhere), and harness entries taken out after setup. Each is a line with what was found and
// what to do; nothing here waits on a file (store/regularFile.ts).

import { join } from 'node:path';
import type { JSONPath } from 'jsonc-parser';
import { eventSentence } from '../core/gateState';
import { foreignCacheFiles, gateCopyState, harnessesSetUp } from '../app/gateTamper';
import { readRegularSync } from '../store/regularFile';
import { HARNESSES } from './hooks';
import { HARNESS_IDS, type HarnessId } from './hooks/types';
import { parseJsonc, splitBom, valueAt } from './jsoncEdit';
import { targetFor } from './setup';
import { entriesMissing } from './setupFiles';

export type TamperId = 'state' | 'cache' | 'env';

export interface TamperLine {
  id: TamperId | HarnessId;
  title: string;
  status: 'active' | 'off' | 'check';
  detail: string;
  steps: string[];
  /** What was found, one sentence each (what was done to the gate, when, after which command). */
  notes?: string[];
}

/** The copy of the gate's state: intact, restored after a loss, altered or gone (nothing to say: no line). */
function stateLine(workspace: string): TamperLine | undefined {
  const title = "gate state (its copy in the user's data folder)";
  const state = gateCopyState(workspace);
  if (state.kind === 'missing') {
    return state.exhausted
      ? { id: 'state', title, status: 'check', detail: `no copy in ${state.file}, although memory has ${state.exhausted} exhausted approach(es): it was deleted, or memory predates it`, steps: ['the next write of memory makes it (run a command, or `failure-memory learn`); if memory was not just upgraded, something removed it'] }
      : undefined;
  }
  if (state.kind === 'altered') {
    return { id: 'state', title, status: 'off', detail: `${state.file} was changed outside Failure Memory (${state.why}): it is not used`, steps: ['the next write of memory sets it aside and starts a new copy from memory; check what else was changed (memory itself, the harness configuration)'] };
  }
  const { lost, heads } = state;
  const events = state.events.slice(-5).map(eventSentence);
  if (lost.length) {
    return { id: 'state', title, status: 'check', detail: `memory lacks ${lost.length} exhausted approach(es) the copy holds (${lost.map(l => l[0].replace(/^.*?::/, '')).join(', ')}): every read puts them back, the next write keeps them`, steps: [], notes: events };
  }
  if (!heads.length && !events.length) return undefined;
  const detail = `${heads.length} exhausted approach(es) in a signed copy, equal to memory`;
  return events.length ? { id: 'state', title, status: 'check', detail: `${detail}; what was done to it:`, steps: [], notes: events } : { id: 'state', title, status: 'active', detail, steps: [] };
}

/** Cache files Failure Memory did not sign (a cache made from other code would run in place of the hook). */
function cacheLine(env: NodeJS.ProcessEnv): TamperLine | undefined {
  const foreign = foreignCacheFiles(env);
  if (!foreign.length) return undefined;
  return { id: 'cache', title: "hooks' code cache", status: 'check', detail: `${foreign.length} file(s) of the code cache were not written by Failure Memory (never run): removed — ${foreign.join(', ')}`, steps: ['something wrote into ~/.failure-memory/cache: look at what ran in your agent sessions'] };
}

/** Names that change where the hooks run or what they read: set in a harness's settings, they send every hook elsewhere. */
const OVERRIDES = /^(?:FAILURE_MEMORY_[A-Z_]+|NODE_OPTIONS|NODE_PATH|PATH|HOME)$/;

function objectAt(file: string, path: JSONPath): Record<string, unknown> | undefined {
  try {
    const tree = parseJsonc(splitBom(readRegularSync(file, 'utf8')).body);
    const v = 'root' in tree ? valueAt(tree.root, path) : undefined;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Environment overrides: in Claude Code's settings (its `env`, given to hooks), and in doctor's own environment. */
function envLine(workspace: string, env: NodeJS.ProcessEnv, home: string): TamperLine | undefined {
  const found: string[] = [];
  for (const file of [join(workspace, '.claude', 'settings.json'), join(workspace, '.claude', 'settings.local.json'), join(home, '.claude', 'settings.json')]) {
    for (const k of Object.keys(objectAt(file, ['env']) ?? {})) if (OVERRIDES.test(k)) found.push(`${k} in ${file}`);
  }
  const own = Object.keys(env).filter(k => /^FAILURE_MEMORY_(?:BIN|STATE_DIR|CACHE_DIR)$/.test(k)).map(k => `${k}=${env[k]} in this shell`);
  if (!found.length && !own.length) return undefined;
  return {
    id: 'env',
    title: 'environment overrides',
    status: found.length ? 'off' : 'check',
    detail: [...found, ...own].join('; '),
    steps: found.length ? ['remove them from the harness settings unless you put them there: they decide which program the hooks run and what it reads'] : [],
  };
}

/** Harness entries taken out: some of ours left, or a harness set up here before whose entries are gone. */
function removedLines(workspace: string): TamperLine[] {
  const setUp = harnessesSetUp(workspace);
  const out: TamperLine[] = [];
  for (const h of HARNESS_IDS) {
    const m = entriesMissing(workspace, h);
    if (!m || !m.missing.length || (!m.any && !setUp[h])) continue;
    const t = targetFor(h);
    const file = t.kind === 'json' ? t.file : Object.keys(t.files)[0];
    const since = setUp[h] ? ` (set up here ${setUp[h]})` : '';
    out.push({ id: h, title: HARNESSES[h].title, status: 'off', detail: `Failure Memory's entries were taken out of ${file}${since}: ${m.missing.join(', ')} missing`, steps: [`run \`failure-memory setup-agents --harness ${h}\` to put them back`] });
  }
  return out;
}

/** Everything doctor can see that was done to the gate. */
export function tamperLines(workspace: string, env: NodeJS.ProcessEnv, home: string): TamperLine[] {
  return [stateLine(workspace), cacheLine(env), envLine(workspace, env, home), ...removedLines(workspace)].filter((l): l is TamperLine => !!l);
}
