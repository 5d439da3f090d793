// The cross-approach view of the judgement benchmark (bench/judgement.mjs): one cause failing several
// approaches. From the same replays (src/replay/replay.ts with its inspect hook: the memory each check
// read, the check, what recording the run did):
//
// SPAN: per trajectory, the pattern records its memory ended with (src/core/rules/patternRecords.ts):
//   how many causes failed two or more approaches, by class of cause, and how many failures they hold.
// STOPPING BY CAUSE: before each command, the cause rule (judgeCause, src/core/rules/causePolicy.ts) on
//   every step of its line as the gate judges them (src/core/rules/steps.ts), under the product's policy
//   and under alternatives (which classes count as systemic, how many approaches, whether a workspace
//   edit lifts a stop). A STOP is a deny; it SAVED a run when the run then failed
//   (its exit code; "with the same cause" when recording it joined the stopping pattern), and it STOPPED
//   A RUN THAT PASSED when the run's exit code was 0. NEW stops are those the approach's own rules did not
//   already block. A WARN tells a command not seen with the cause; it was RIGHT when the command then
//   failed with that cause.
import { judgeCause } from '../src/core/rules/causePolicy.ts';
import { activeApproaches } from '../src/core/rules/patternRecords.ts';
import { SYSTEMIC_CLASSES } from '../src/core/rules/causes.ts';
import { judgedLines } from '../src/core/rules/steps.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { relativeCwd } from '../src/replay/replay.ts';
import { outcome } from './judgementTruth.mjs';

const redactor = createRedactor();
const redact = t => redactor.redact(t).text;

const FILES = new Set([...SYSTEMIC_CLASSES, 'files']);
const ALL = new Set([...FILES, 'code']);

/** The product's policy first, then the alternatives it was chosen against. */
export const VARIANTS = [
  { name: 'product: service, credentials, resources, toolchain; ≥2 approaches; an edit lifts', classes: SYSTEMIC_CLASSES, min: 2, editsLift: true },
  { name: 'the same, ≥3 approaches', classes: SYSTEMIC_CLASSES, min: 3, editsLift: true },
  { name: 'the same, edits do not lift (only a service, an install, a login, git)', classes: SYSTEMIC_CLASSES, min: 2, editsLift: false },
  { name: 'missing files and permissions count too', classes: FILES, min: 2, editsLift: true },
  { name: 'missing files and permissions count too, edits do not lift', classes: FILES, min: 2, editsLift: false },
  { name: 'every cause counts (the code\'s own errors too), edits do not lift', classes: ALL, min: 2, editsLift: false },
  { name: 'product classes, the cause stopping from 2 failures (below the threshold)', classes: SYSTEMIC_CLASSES, min: 2, editsLift: true, threshold: 2 },
  { name: 'missing files too, from 2 failures, edits do not lift', classes: FILES, min: 2, editsLift: false, threshold: 2 },
];

const emptyStops = () => ({ stops: 0, failed: 0, sameCause: 0, passed: 0, unknown: 0, fresh: 0, freshFailed: 0, warns: 0, warnsRight: 0, lifted: 0, wrong: [] });

export function crossCounts() {
  return {
    variants: VARIANTS.map(() => emptyStops()),
    span: { trajectories: 0, failures: 0, causedFailures: 0, patterns: 0, spanning: 0, spanningTrajectories: 0, spanningFailures: 0, byClass: new Map(), resolved: 0, learned: 0, reinforced: 0, fixes: [] },
  };
}

/** A recorded run: a failure, and whether its cause was known (it joined a pattern). */
export function tallyRun(counts, recorded) {
  if (recorded.attempt.outcome !== 'failure') return;
  counts.span.failures++;
  if (recorded.pattern) counts.span.causedFailures++;
}

const RANK = { warn: 1, deny: 2 };

/**
 * The cause rule's verdict for a command line as the gate reads it (src/app/gate.ts): every step of the
 * line judged with its context (what runs before it in the line), the strongest verdict deciding.
 */
function causeVerdict(before, lines, now, threshold, knobs) {
  let best = {};
  for (const l of lines) {
    const approach = Object.prototype.hasOwnProperty.call(before.approaches, l.key) ? before.approaches[l.key] : undefined;
    const step = { whole: l.whole, editBefore: l.editBefore, works: [l.work] };
    const v = judgeCause({ data: before, key: l.key, approach, command: l.line, threshold, now, step, knobs });
    if (v.decision && v.pattern && (!best.decision || RANK[v.decision] > RANK[best.decision])) best = v;
  }
  return best;
}

/** One command: each variant's verdict, scored against what the run really did. */
export function inspectStep(counts, t, step, threshold) {
  const { before, now, check, recorded, index } = step;
  const cmd = t.commands[index];
  const o = outcome(cmd.exitCode);
  const ownBlock = (check.decision === 'deny' || check.decision === 'ask') && check.code !== 'systemic-cause';
  // the lines the replay's gate judged (no script tables: a replay reads no files)
  const lines = judgedLines(cmd.command, relativeCwd(t.commands[0]?.cwd ?? '.', cmd.cwd), undefined, redact).lines;
  VARIANTS.forEach((v, i) => {
    const c = counts.variants[i];
    const systemic = p => v.classes.has(p.cls) && activeApproaches(p).length >= v.min;
    const verdict = causeVerdict(before, lines, now, v.threshold ?? threshold, { systemic, editsLift: v.editsLift });
    if (!verdict.decision || !verdict.pattern) return;
    const same = recorded.pattern?.id === verdict.pattern.id;
    if (verdict.decision === 'warn') {
      if (verdict.pattern.seen) c.lifted++;
      else {
        c.warns++;
        if (o === 'failure' && same) c.warnsRight++;
      }
      return;
    }
    c.stops++;
    if (o === 'failure') c.failed++;
    else if (o === 'success') c.passed++;
    else c.unknown++;
    if (o === 'failure' && same) c.sameCause++;
    if (!ownBlock) {
      c.fresh++;
      if (o === 'failure') c.freshFailed++;
    }
    if (o !== 'failure' && c.wrong.length < 12) c.wrong.push({ source: t.source, index, exitCode: cmd.exitCode, command: cmd.command, cause: verdict.pattern.subject });
  });
}

/** The memory a trajectory ended with: its pattern records. */
export function inspectEnd(counts, data) {
  const s = counts.span;
  s.trajectories++;
  const patterns = data.patterns ?? [];
  s.patterns += patterns.length;
  for (const p of patterns) {
    if (p.resolution) s.resolved++;
    if (p.fixes?.length) {
      s.learned++;
      if (p.fixes[0].worked > 1) s.reinforced++;
      if (s.fixes.length < 8) s.fixes.push(`${p.subject} → \`${p.fixes[0].command.slice(0, 60).replace(/`/g, "'")}\`${p.fixes[0].worked > 1 ? ` (×${p.fixes[0].worked})` : ''}`);
    }
  }
  const spanning = patterns.filter(p => new Set(p.approaches.map(a => a.key)).size >= 2);
  s.spanning += spanning.length;
  if (spanning.length) s.spanningTrajectories++;
  for (const p of spanning) {
    s.spanningFailures += p.occurrences;
    const cls = s.byClass.get(p.cls) ?? { patterns: 0, failures: 0, trajectories: new Set() };
    cls.patterns++;
    cls.failures += p.occurrences;
    s.byClass.set(p.cls, cls);
  }
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');

export function spanTable(byCorpus) {
  const lines = [
    '| corpus | trajectories | failures | of them with a known cause | causes (pattern records) | causes failing ≥2 approaches | trajectories with one | failures they hold | by class (causes / failures) | resolved | with a fix learned (a service, an install, a login) | fix reinforced |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, c] of byCorpus) {
    const s = c.span;
    const classes = [...s.byClass].sort((a, b) => b[1].failures - a[1].failures).map(([k, v]) => `${k} ${v.patterns} / ${v.failures}`).join(', ');
    lines.push(`| ${name} | ${s.trajectories} | ${s.failures} | ${s.causedFailures} (${pct(s.causedFailures, s.failures)}) | ${s.patterns} | ${s.spanning} | ${s.spanningTrajectories} (${pct(s.spanningTrajectories, s.trajectories)}) | ${s.spanningFailures} (${pct(s.spanningFailures, s.failures)}) | ${classes || '—'} | ${s.resolved} | ${s.learned} | ${s.reinforced} |`);
  }
  const all = byCorpus.get('all')?.span;
  if (all?.fixes.length) lines.push('', `Fixes learned (first ${all.fixes.length}): ${all.fixes.join('; ')}.`);
  return lines.join('\n');
}

export function stopTable(results) {
  const lines = [
    '| threshold | policy | stops (deny) | stopped runs that failed | … with the same cause | stopped runs that passed | precision | new stops (the approach\'s own rules let them run) | of them failed | stops lifted by a change (warned) | warns of commands not seen with the cause | … that then failed with it |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { threshold, counts } of results) {
    VARIANTS.forEach((v, i) => {
      const c = counts.variants[i];
      lines.push(`| ${threshold} | ${v.name} | ${c.stops} | ${c.failed} | ${c.sameCause} | ${c.passed} | ${pct(c.failed, c.stops)} | ${c.fresh} | ${c.freshFailed} | ${c.lifted} | ${c.warns} | ${c.warnsRight} (${pct(c.warnsRight, c.warns)}) |`);
    });
  }
  return lines.join('\n');
}

export function wrongStops(results, short, shortSource) {
  const out = [];
  for (const { threshold, counts } of results) {
    VARIANTS.forEach((v, i) => {
      const w = counts.variants[i].wrong;
      if (!w.length) return;
      out.push(`Stops of runs that did not fail at ${threshold}, ${v.name} (${counts.variants[i].stops - counts.variants[i].failed}${w.length < counts.variants[i].stops - counts.variants[i].failed ? `, first ${w.length}` : ''}):`);
      for (const x of w) out.push(`- ${shortSource(x.source)} #${x.index} (exit ${x.exitCode}; ${x.cause}): \`${short(x.command).replace(/`/g, "'")}\``);
    });
  }
  return out.join('\n');
}
