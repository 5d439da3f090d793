// The gate's one decision: may this command line run? Every door asks it here — the terminal guard,
// the agents' hooks, `failure-memory check`, MCP, the language-model tools and the replay — with the
// memory view it has (the whole memory, the hook's partial read, the extension's cached copy) and the
// evidence it may read lazily: the workspace's git state (read only before a deny, once per decision)
// and the team's cached view. What a door does with the answer (interrupt, a harness's deny or ask,
// exit 2, a tool's text) is the door's own; what the answer is, is decided once, here.

import { checkCommand, type CheckResult } from '../core/rules/check';
import { judgedLines, type JudgedLine } from '../core/rules/steps';
import type { TeamCheck } from '../core/rules/team';
import type { Approach, Decision, EngineSettings, GitState, MemoryData } from '../core/types';
import type { ScriptReader } from '../store/scriptTables';
import { scriptTablesFor } from './scripts';

/** A check with the team's view merged in (when team memory is on). */
export type GateCheck = CheckResult & { team?: TeamCheck };

/** What the gate reads: the memory as the door sees it, its settings and the clock. */
export interface GateView {
  data: MemoryData;
  settings: EngineSettings;
  /** Redacts a command line before it is judged or echoed (the workspace's patterns). */
  redact: (text: string) => string;
  now?: Date;
  /**
   * Reads the project's script tables (package.json's scripts, Makefile targets…) when a step runs a
   * script: `npm test` is judged as the command its script runs. Absent: lines are judged as written.
   */
  scripts?: ScriptReader;
}

/** Merges the team's cached view into a local check (never the network). */
export type TeamMerge = (local: CheckResult, approach: Approach | undefined) => GateCheck;

export interface GateEvidence {
  /** The team's part, when team memory is on. */
  team?: TeamMerge;
  /** The git state now, when the door already has it (no read then). */
  gitNow?: GitState;
}

export interface LazyEvidence {
  team?: TeamMerge;
  /**
   * Reads the workspace's git state now. Asked only when a step would be denied and its last failure
   * has a git state to compare: an edit no hook or save reported must never be denied as "nothing changed".
   */
  git?: () => Promise<GitState | undefined>;
}

/** One line the gate judged: the local check, and with the team's view merged in. */
export interface GateStep {
  local: CheckResult;
  check: GateCheck;
}

export interface GateAnswer {
  /** The deciding step's check: the strongest answer over the steps (the first of equals). */
  check: GateCheck;
  /** The deciding step. */
  step: GateStep;
  /** Every step judged, in the line's order. */
  steps: GateStep[];
  /** A step would be denied and git was not read to confirm that nothing changed. */
  needsGit: boolean;
}

const RANK: Record<Decision, number> = { allow: 0, warn: 1, ask: 2, deny: 3 };

/** The git state recorded with an approach's last failure, when there is one. */
export function lastFailureGit(a: Approach | undefined): GitState | undefined {
  const ledger = a?.ledger ?? [];
  for (let i = ledger.length - 1; i >= 0; i--) if (ledger[i].outcome === 'failure') return ledger[i].git;
  return undefined;
}

const approachAt = (data: MemoryData, key: string): Approach | undefined => (Object.prototype.hasOwnProperty.call(data.approaches, key) ? data.approaches[key] : undefined);

/**
 * The lines the gate judges for `command` (every step, its scripts resolved) with their approach keys:
 * what a door that reads part of the memory must load.
 */
export function gateLines(command: string, cwd: string | undefined, view: Pick<GateView, 'redact' | 'scripts'>): JudgedLine[] {
  const tables = view.scripts ? scriptTablesFor(command, cwd, view.scripts, view.redact) : undefined;
  return judgedLines(command, cwd, tables, view.redact).lines;
}

function decideLines(lines: readonly JudgedLine[], view: GateView, evidence: GateEvidence): GateAnswer {
  const now = view.now ?? new Date();
  const steps: GateStep[] = [];
  let needsGit = false;
  for (const line of lines) {
    const step = { whole: line.whole, editBefore: line.editBefore, get works() {
      return [line.work];
    } };
    const local = checkCommand(view.data, line.line, line.cwd, view.settings, now, evidence.gitNow, { key: line.key, step, ...(line.resolved !== line.line ? { resolved: line.resolved } : {}) });
    const approach = approachAt(view.data, local.key);
    if (!evidence.gitNow && local.policyDecision === 'deny' && lastFailureGit(approach)) needsGit = true;
    steps.push({ local, check: evidence.team ? evidence.team(local, approach) : local });
  }
  let step = steps[0];
  for (const s of steps) if (RANK[s.check.decision] > RANK[step.check.decision]) step = s;
  return { check: step.check, step, steps, needsGit };
}

/**
 * The gate's answer from what the door has now, without reading anything but the script tables a step
 * names (the terminal's first look, the hook's quick read). `needsGit` says when a deny should be
 * confirmed with git (decideGate does).
 */
export function decideGateNow(command: string, cwd: string | undefined, view: GateView, evidence: GateEvidence = {}, lines = gateLines(command, cwd, view)): GateAnswer {
  return decideLines(lines, view, evidence);
}

/** The gate's answer, git read first when a deny must be confirmed (bounded by the reader; never the network). */
export async function decideGate(command: string, cwd: string | undefined, view: GateView, evidence: LazyEvidence = {}, lines = gateLines(command, cwd, view)): Promise<GateAnswer> {
  const team = evidence.team ? { team: evidence.team } : {};
  const first = decideLines(lines, view, team);
  if (!first.needsGit || !evidence.git) return first;
  const gitNow = await evidence.git().catch(() => undefined);
  return gitNow ? decideLines(lines, view, { ...team, gitNow }) : first;
}

/** The steps a decision log keeps: every ask and deny the policy gave (also what shadow mode only records), once per approach. */
export function loggedSteps(answer: GateAnswer): GateStep[] {
  const seen = new Set<string>();
  return answer.steps.filter(s => (s.check.policyDecision === 'ask' || s.check.policyDecision === 'deny') && !seen.has(s.check.key) && !!seen.add(s.check.key));
}
