// The gate counts the cause: one systemic pattern failing several approaches is one loop. The
// answer for a command whose approach a cause failed (deny while nothing changed that could affect
// it, warn after a change), the pattern as the answer tells it, and what changed since.

import { quote } from '../prompts/agentText';
import { changingEditsSince, PACKAGES_PATH, lastFailedAttempt, lastFailureDirty, lineStep, startsSince, type StepContext } from './edits';
import { shellEffects, workSignature } from './shellEffects';
import { causeRemedy } from './causes';
import { activeApproaches, causeHeadline, lastFix, liveCauses, logsIn, mayFixCause } from './patternRecords';
import type { Approach, GitState, MemoryData, PatternRecord } from '../types';

/** A pattern as the gate's answer tells it: the cause, the commands it broke, the fix that worked before. */
export interface PatternBrief {
  id: string;
  /** The cause in words: "the database at localhost:5432". */
  subject: string;
  kind: string;
  systemic: boolean;
  /** Failures with the cause in the current stretch, and the commands (approach labels) they were, most recent last. */
  failures: number;
  commands: string[];
  since: string;
  lastSeen: string;
  lastError: string;
  /** "refused 6 runs of 3 commands since 14:02": the stretch in one sentence, with the cause first. */
  sentence: string;
  /** "one cause: database on :5432 — 3 commands": the same in a status bar's words. */
  headline: string;
  /** What to do first: "start it first". */
  remedy: string;
  /** The fix that worked the last time(s) it came ("last time: ⟦docker compose up -d db⟧"). */
  fix?: { command: string; worked: number; from?: 'team'; machine?: string };
  /** This command's approach failed with the cause in this stretch. */
  seen: boolean;
}

/** "14:02" today, else "2026-11-20 14:02" (the reader's own clock). */
export function clockTime(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return sameDay ? hm : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
const commands = (n: number) => `${n} command${n === 1 ? '' : 's'}`;

/** The stretch in one sentence, worded for its cause: "the database at localhost:5432 refused 6 runs of 3 commands since 14:02". */
export function patternSentence(p: PatternRecord, now: Date): string {
  const n = activeApproaches(p).length;
  const tally = `${runs(p.failures)} of ${commands(n)}`;
  const since = `since ${clockTime(p.since, now)}`;
  switch (p.kind) {
    case 'conn_refused':
      return `${p.subject} refused ${tally} ${since}`;
    case 'docker_daemon':
      return `${p.subject} did not answer ${tally} ${since}`;
    case 'auth':
    case 'expired':
      return `${p.subject} were refused in ${tally} ${since}`;
    case 'error':
      return `the same error in ${tally} ${since}`;
    default:
      return `${p.subject}: ${tally} failed on it ${since}`;
  }
}

/** The gate's brief of a pattern for this command's approach (`seen`: it failed with the cause in this stretch). */
export function patternBrief(p: PatternRecord, key: string, now: Date): PatternBrief {
  const active = activeApproaches(p);
  const fix = lastFix(p);
  return {
    id: p.id,
    subject: p.subject,
    kind: p.kind,
    systemic: p.systemic,
    failures: p.failures,
    commands: active.map(a => (a.cwd && a.cwd !== '.' ? `${a.label} (in ${a.cwd})` : a.label)),
    since: p.since,
    lastSeen: p.lastSeen,
    lastError: p.lastError,
    sentence: patternSentence(p, now),
    headline: causeHeadline(p),
    remedy: causeRemedy(p.kind),
    ...(fix ? { fix } : {}),
    seen: active.some(a => a.key === key),
  };
}

/**
 * What changed since a pattern's last failure that could affect its cause, with the policy's notion of
 * a change (./edits.ts): a service started, an install or a login since; an edit that left a file other
 * than it was at that failure (the same bytes again is no change); a moved git state.
 */
export function patternChange(data: MemoryData, p: PatternRecord, gitNow?: GitState, editsLift = true): string | undefined {
  const started = startsSince(data, Date.parse(p.lastSeen) + 1);
  if (started.length) return `\`${started[started.length - 1].command.split('\n')[0].slice(0, 80)}\` ran since its last failure`;
  const edits = changingEditsSince(data, p.lastSeen, () => patternDirty(data, p)).filter(e => editsLift || e.path === PACKAGES_PATH);
  if (edits.length) {
    const names = [...new Set(edits.map(e => e.path))];
    return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed since its last failure`;
  }
  if (gitNow && p.lastGit && gitNow.fingerprint !== p.lastGit) return 'the git state changed since its last failure';
  return undefined;
}

/** The content hashes git gave with the pattern's last failure (its latest approach's run), when memory holds them. */
function patternDirty(data: MemoryData, p: PatternRecord): Record<string, string> | undefined {
  const last = [...p.approaches].reverse().find(x => x.lastSeen === p.lastSeen);
  const a = last && Object.prototype.hasOwnProperty.call(data.approaches, last.key) ? data.approaches[last.key] : undefined;
  return a && a.lastFailure === p.lastSeen ? lastFailureDirty(a) : undefined;
}

/**
 * Work the line does before this step that could affect a cause: an edit or an install chained before
 * it (the step's `editBefore`, as the policy reads it: `npm install pg && npm test`), a service started
 * or a login before it (`docker compose up -d db && npm test`, `gh auth login && gh pr list`).
 */
function fixBefore(step: StepContext, editsLift: boolean): string | undefined {
  if (step.editBefore && (editsLift || shellEffects(step.whole).installs)) return 'an edit or an install is chained before the run';
  // the parts of the line that run before its last one whatever they exit with (`a; b`) or when they pass (`a && b`)
  const parts = step.whole.slice(0, 10_000).split(/&&|;|\n/);
  for (const part of parts.slice(0, -1)) {
    const e = shellEffects(part);
    if (e.starts || e.installs || logsIn(part)) return `\`${oneLineOf(part, 80)}\` runs before it in the line`;
  }
  return undefined;
}

const oneLineOf = (s: string, max: number) => s.replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * What the line being judged (a step of it) does about a cause before its run: it sets up what the cause
 * lacks (lineSetsUp) or runs a fix before it (fixBefore). The same line as the approach's last failure
 * with the cause repeats what did not help (the policy's "the same line again is no new work").
 */
function lineChange(input: CauseInput, p: PatternRecord, editsLift: boolean): string | undefined {
  const step = input.step ?? lineStep(input.command);
  // the approach's history is read only when the line does something about the cause (a head's is not there for nothing)
  const last = () => (input.approach ? lastFailedAttempt(input.approach) : undefined);
  // a setup is in the words (`DATABASE_URL=…`), which the work signature leaves out: the same text is the same setup
  const setsUp = lineSetsUp(p, step.whole);
  if (setsUp) return oneLineOf(last()?.command ?? '', 2000) === oneLineOf(step.whole, 2000) ? undefined : setsUp;
  const fix = fixBefore(step, editsLift);
  return fix && workSignature(last()?.command ?? '') !== workSignature(step.whole) ? fix : undefined;
}

/**
 * The knobs of the cause rule, measured on the development corpora (bench/judgement.mjs): which
 * patterns count as systemic (default: the record's own flag), and whether a workspace edit lifts a stop.
 */
export interface CauseKnobs {
  systemic?: (p: PatternRecord) => boolean;
  /** Default true: a workspace change could affect the cause (a config, a .env, a script). */
  editsLift?: boolean;
}

/** A line that sets up the environment it runs in: another interpreter, another PATH, an activated environment. */
const ENV_SETUP_RE = /(?:^|[;&|(]\s*)(?:(?:source|\.)\s+\S*activate\b|(?:conda|mamba|micromamba) activate\b|nvm use\b|pyenv (?:shell|local)\b|volta run\b|(?:export )?PATH=|(?:uv|poetry|pipenv|hatch|pdm) run\b|nix(?:-shell| develop| shell)\b|devbox (?:run|shell)\b)/;

/**
 * The command line itself sets up what a cause lacks, so it is not the same loop: an environment
 * activated for a missing program or module (`source .venv/bin/activate && python …`), the missing
 * variable given on the line (`DATABASE_URL=… npm test`, `export DATABASE_URL=…`).
 */
export function lineSetsUp(p: Pick<PatternRecord, 'kind' | 'factors'>, command: string): string | undefined {
  if (p.kind === 'env_missing' && p.factors.variable && new RegExp(`(?:^|[\\s;&|(])(?:export\\s+)?${p.factors.variable}=`).test(command)) return `the line sets ${p.factors.variable}`;
  if ((p.kind === 'module_missing' || p.kind === 'command_missing' || p.kind === 'engine_version') && ENV_SETUP_RE.test(command)) return 'the line sets up its environment (an activated environment, another PATH)';
  return undefined;
}

export interface CauseInput {
  data: MemoryData;
  /** This command's approach key, and the approach when memory has it. */
  key: string;
  approach: Approach | undefined;
  command: string;
  threshold: number;
  now: Date;
  gitNow?: GitState;
  /** The step of a longer line this is (./steps.ts); default: the line is its own step. */
  step?: StepContext;
  knobs?: CauseKnobs;
}

export interface CauseVerdict {
  /** deny: an approach the cause failed, nothing changed; warn: something changed, or a command not seen with it. */
  decision?: 'deny' | 'warn';
  reason?: string;
  /** The pattern told with the answer (also when it decides nothing: one cause across commands). */
  pattern?: PatternBrief;
}

/**
 * The gate counts the cause: while a systemic pattern is active (several approaches failed with one
 * cause nothing in the workspace's code explains) and nothing changed that could affect it, a run of
 * any approach it failed is denied once the pattern's failures reach the threshold; after a change it
 * is warned (trying a fix). A command never seen with the cause is not stopped but told (warned). A
 * success of a command that needed the same thing resolves the pattern (./patternRecords.ts): its
 * stops lift. An approach whose latest failure had another cause has moved past it: not counted.
 */
export function judgeCause(input: CauseInput): CauseVerdict {
  const { data, key, approach, threshold, now } = input;
  const live = liveCauses(data, now, input.knobs?.systemic);
  const editsLift = input.knobs?.editsLift ?? true;
  const seen = live.filter(p => p.approaches.some(a => a.key === key && a.failures > 0));
  // its latest failure had another cause: it has moved past this one (not stopped, not warned)
  const movedOn = (p: PatternRecord) => !!approach?.lastFailure && approach.lastFailure > p.approaches.find(a => a.key === key)!.lastSeen;
  const mine = seen.find(p => !movedOn(p));
  if (!mine && seen.length) return {};
  if (mine) {
    const pattern = patternBrief(mine, key, now);
    if (mine.failures < threshold) return { pattern };
    const change = lineChange(input, mine, editsLift) ?? patternChange(data, mine, input.gitNow, editsLift);
    const fix = pattern.fix ? `; last time: ${quote(pattern.fix.command, 120)}` : '';
    if (!change) return { decision: 'deny', pattern, reason: `${pattern.sentence}, and nothing changed since: ${pattern.remedy}${fix}` };
    return { decision: 'warn', pattern, reason: `${pattern.sentence}, but ${change}: trying a fix, not a loop${fix}` };
  }
  // a command not seen with the cause: told, never stopped (only one that does work: not a probe, not the fix itself)
  const other = live.find(p => p.failures >= threshold && !patternChange(data, p, input.gitNow, editsLift));
  if (!other) return {};
  const effects = shellEffects(input.command);
  if (effects.readOnly || mayFixCause(input.command) || lineChange(input, other, editsLift)) return {};
  const pattern = patternBrief(other, key, now);
  const fix = pattern.fix ? ` (last time: ${quote(pattern.fix.command, 120)})` : '';
  return { decision: 'warn', pattern, reason: `not seen failing with it, but ${pattern.sentence}: if it needs it too, ${pattern.remedy}${fix}` };
}
