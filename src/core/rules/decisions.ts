// The gate's decision log: every ask and deny the policy gave, with the rule that decided, also those
// the strongest-answer setting only recorded (shadow mode, `warn`). A team can run the gate in shadow mode
// for a week and read here (the panel, `failure-memory report`) what it would have stopped, and why,
// before it enforces anything.

import { REASON_CODES } from './policy';
import type { Decision, DecisionRecord, MemoryData } from '../types';

/** Decisions kept per workspace (oldest dropped first). */
export const MAX_DECISIONS = 200;

export function addDecision(data: MemoryData, record: DecisionRecord): void {
  const list = (data.decisions ??= []);
  list.push(record);
  if (list.length > MAX_DECISIONS) list.splice(0, list.length - MAX_DECISIONS);
}

export interface DecisionReport {
  /** Newest first. */
  decisions: DecisionRecord[];
  /** What the policy said, by decision: deny and ask. */
  byPolicy: Record<'deny' | 'ask', number>;
  /** Decisions only recorded (the answer was weaker than the policy's). */
  shadowed: number;
  /** Per reason code: how many, and what the rule names. */
  byCode: Array<{ code: string; count: number; rule: string }>;
}

export function decisionReport(data: MemoryData, limit = MAX_DECISIONS): DecisionReport {
  const all = [...(data.decisions ?? [])].reverse();
  const byPolicy = { deny: 0, ask: 0 };
  const codes = new Map<string, number>();
  let shadowed = 0;
  for (const d of all) {
    if (d.policy === 'deny' || d.policy === 'ask') byPolicy[d.policy]++;
    if (d.decision !== d.policy) shadowed++;
    codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
  }
  const byCode = [...codes]
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => ({ code, count, rule: (REASON_CODES as Record<string, string>)[code] ?? '' }));
  return { decisions: all.slice(0, limit), byPolicy, shadowed, byCode };
}

const VERB: Record<Decision, string> = { allow: 'allowed', warn: 'warned', ask: 'asked', deny: 'denied' };

/** One decision as a line for a person: when, what was answered (and what shadow mode held back), the rule. */
export function describeDecision(d: DecisionRecord): string {
  const held = d.decision !== d.policy ? ` (would have ${VERB[d.policy]})` : '';
  return `${d.at.replace('T', ' ').slice(0, 19)}  ${VERB[d.decision]}${held}  ${d.code}  ${d.label}${d.cwd !== '.' ? ` (in ${d.cwd})` : ''}  via ${d.via}`;
}
