// The gate's state, kept outside the workspace (store/gateCopy.ts writes it in the user's data
// folder): the exhausted approaches with what the gate decides from (the streak, the last failures'
// evidence, never their output). Failure Memory's own writers keep its list equal to memory's
// exhausted approaches: each write that makes an approach exhausted or no longer exhausted (a
// witnessed success, the user's resolve, Run Anyway Once's success, a clear) updates it. So when
// memory lacks an approach the copy holds, or holds it with less than the copy (no longer exhausted,
// fewer failures), no writer of Failure Memory did that: memory was deleted, replaced or edited
// behind it, and the gate restores what was lost and says so.
// Pure: the store reads and writes the files.

import { quote } from './prompts/agentText';
import { currentStreak } from './rules/streak';
import type { Approach, Attempt, GitState, LedgerRun, MemoryData } from './types';

/** One exhausted approach as the copy's header lists it: what tells a loss at a glance. */
export type GateHead = [key: string, failures: number, lastFailure: string];

/** An approach's failures and last failure as memory holds them now (undefined: not exhausted there, or absent). */
export type HeldHead = [failures: number, lastFailure: string];

/** What was done to the gate (a restoration, a copy found altered), for the user: newest last. */
export interface GateEvent {
  id: string;
  at: string;
  kind: 'restored' | 'copy-altered';
  /** The approaches it was about (their labels, for people). */
  approaches: Array<{ key: string; label: string }>;
  /** What was found, in words: "memory.json was deleted", "2 approaches were no longer exhausted". */
  what: string;
  /** The command line that did it, when one is known (the call whose post hook found it). */
  by?: string;
  /** Who found it: hook:claude pre, cli, extension… */
  via: string;
}

/** How many events the copy keeps. */
export const MAX_GATE_EVENTS = 20;
/** Failures of a streak the copy keeps with their evidence (the window's). */
const MAX_KEPT_ATTEMPTS = 10;
const MAX_TEST_FAILURES = 5;

const lastFailureOf = (a: Approach): string => a.lastFailure ?? a.exhaustedAt ?? a.updatedAt;

export function gateHeadOf(a: Approach): GateHead {
  return [a.key, a.failures, lastFailureOf(a)];
}

/** Memory's exhausted approaches, by key. */
export function exhaustedOf(data: MemoryData): Approach[] {
  const out: Approach[] = [];
  for (const key of Object.keys(data.approaches)) {
    const a = data.approaches[key];
    if (a.status === 'exhausted') out.push(a);
  }
  return out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}

/** The heads of memory's exhausted approaches (what the copy's header must equal). */
export function gateHeads(data: MemoryData): GateHead[] {
  return exhaustedOf(data).map(gateHeadOf);
}

/** What memory holds of an exhausted approach, to compare with the copy. */
export const heldHeadOf = (a: Approach): HeldHead => [a.failures, lastFailureOf(a)];

/** Memory's exhausted approaches as `held` lookups (a view that knows them without loading each). */
export function heldHeads(data: MemoryData): Map<string, HeldHead> {
  return new Map(exhaustedOf(data).map(a => [a.key, heldHeadOf(a)]));
}

/**
 * The copy's approaches that memory holds with less (absent, not exhausted, fewer failures): what no
 * writer of Failure Memory took away. Not the last failure's time: runs are applied in the order
 * they reach the lock, not of their clocks, so an approach's last failure may be older than the one
 * the copy noted. `held(key)`: memory's head of an exhausted approach, undefined when it is not exhausted there.
 */
export function lostFrom(copy: readonly GateHead[], held: (key: string) => HeldHead | undefined): GateHead[] {
  return copy.filter(([key, failures]) => {
    const h = held(key);
    return !h || h[0] < failures;
  });
}

/** Equal heads, in order: the copy need not be written. */
export function sameHeads(a: readonly GateHead[], b: readonly GateHead[]): boolean {
  return a.length === b.length && a.every((h, i) => h[0] === b[i][0] && h[1] === b[i][1] && h[2] === b[i][2]);
}

/** A git state without its list of changed files (the fingerprint is what compares). */
function slimGit(g: GitState | undefined): GitState | undefined {
  return g ? { head: g.head, fingerprint: g.fingerprint, dirty: {}, ...(g.branch ? { branch: g.branch } : {}) } : undefined;
}

function slimAttempt(t: Attempt): Attempt {
  const tests = t.testResults ? { ...t.testResults, failures: t.testResults.failures.slice(0, MAX_TEST_FAILURES).map(f => ({ name: f.name.slice(0, 300), message: f.message.slice(0, 300) })) } : null;
  const git = slimGit(t.git);
  return {
    ...t,
    command: t.command.slice(0, 2000),
    output: '',
    outputTruncated: t.output.length > 0 || t.outputTruncated,
    errorSignature: t.errorSignature.slice(0, 600),
    ...(t.errorLine !== undefined ? { errorLine: t.errorLine.slice(0, 600) } : {}),
    testResults: tests,
    ...(git ? { git } : {}),
  };
}

function slimLedgerRun(r: LedgerRun): LedgerRun {
  const git = slimGit(r.git);
  return { ...r, signature: r.signature.slice(0, 600), ...(git ? { git } : {}) };
}

/**
 * An exhausted approach as the copy keeps it: all the gate decides from (status, failures, the
 * streak's errors and changes, the streak's failures in the window with their tests and git state,
 * the run ledger) and nothing it does not (outputs, changed-file lists, learned facts).
 */
export function slimApproach(a: Approach): Approach {
  const { fix: _fix, changedSinceLastPass: _changed, allowOnce: _once, ...rest } = a;
  return {
    ...rest,
    command: a.command.slice(0, 2000),
    lastErrorSignature: a.lastErrorSignature.slice(0, 600),
    alternativesTried: a.alternativesTried.slice(-10),
    learnedFacts: [],
    attempts: currentStreak(a).slice(-MAX_KEPT_ATTEMPTS).map(slimAttempt),
    ...(a.ledger ? { ledger: a.ledger.map(slimLedgerRun) } : {}),
  };
}

/**
 * Puts the copy's approaches back into memory (mutates `data`): each as the copy kept it, exhausted,
 * with the learned facts memory still has. Returns those restored.
 */
export function restoreInto(data: MemoryData, approaches: readonly Approach[]): Approach[] {
  const restored: Approach[] = [];
  for (const slim of approaches) {
    const now = Object.prototype.hasOwnProperty.call(data.approaches, slim.key) ? data.approaches[slim.key] : undefined;
    const back: Approach = { ...JSON.parse(JSON.stringify(slim)) as Approach, status: 'exhausted', learnedFacts: now?.learnedFacts ?? [] };
    Object.defineProperty(data.approaches, slim.key, { value: back, enumerable: true, writable: true, configurable: true });
    restored.push(back);
  }
  return restored;
}

/** What happened, in words, from what memory holds of the lost approaches. */
export function describeLoss(data: MemoryData | null, lost: readonly GateHead[]): string {
  if (!data) return 'the workspace memory (.vscode/failure-memory) was deleted';
  const missing = lost.filter(([key]) => !Object.prototype.hasOwnProperty.call(data.approaches, key)).length;
  const weaker = lost.length - missing;
  const all = Object.keys(data.approaches).length === 0;
  const parts: string[] = [];
  // the sentence starts with this: the memory is named the first time, "it" after
  if (missing) parts.push(all ? 'the workspace memory was emptied or replaced' : `${missing} exhausted approach${missing === 1 ? ' was' : 'es were'} removed from the workspace memory`);
  if (weaker) parts.push(`${weaker} exhausted approach${weaker === 1 ? ' was' : 'es were'} changed in ${missing ? 'it' : 'the workspace memory'} to no longer stop a run (resolved, or fewer failures)`);
  return parts.join('; ');
}

/** The sentence a user reads about an event, in the hook's answer, the CLI and VS Code. */
export function eventSentence(e: GateEvent): string {
  const names = e.approaches.slice(0, 5).map(a => `“${a.label}”`).join(', ') + (e.approaches.length > 5 ? ` and ${e.approaches.length - 5} more` : '');
  const by = e.by ? `, by the command ${quote(e.by, 300)}` : '';
  if (e.kind === 'copy-altered') return `At ${e.at}, the copy of the gate's state in the user's data folder was changed outside Failure Memory${by}: it was not used, and a new one was started from the workspace memory.`;
  return `At ${e.at}, ${e.what}${by}, without a success seen by a hook or the terminal and without the user's resolve. The gate restored ${names} from its copy in the user's data folder: ${e.approaches.length === 1 ? 'it stops' : 'they stop'} a run again.`;
}
