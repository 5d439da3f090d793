// npm run bench:judgement  (= node --import tsx bench/judgement.mjs [--no-write] [--quiet] [--shell-only] [--corpus FILE ...] [--budget N])
//
// Judgement on real agent work. Replays every trajectory of the development corpora
// (../shared/trajectories/*.jsonl.gz; a `X.shell.jsonl.gz` copy is skipped when `X.jsonl.gz` is there, unless
// --shell-only asks for the shell copies instead; or the files given with --corpus) through the product's own
// replay (src/replay/replay.ts: WorkspaceMemory.check before each command, .record after it, the edit
// events between commands through .recordEdits, one fresh in-memory memory per trajectory) at thresholds 3
// and 5, and measures, for all corpora together, per corpus and per harness (mini-swe-agent, Claude Code,
// OpenHands):
//
// PRECISION OF BLOCKS = (ask + deny answers whose run really failed) / (ask + deny answers). Both stop the
//   run until someone decides. A failure is a known, non-zero exit code other than an interrupt (129, 130,
//   131, 143, 148). A blocked run with an UNKNOWN exit code (null: killed on timeout, backgrounded, the final
//   submission) or an interrupt counts against precision: the gate cannot claim it saved anything there.
//   "Failure" here is the exit code only: the product's own reading of output plays no part in the truth.
// PRECISION OF DENIES = the same over deny answers alone (the gate is sure: nothing changed since the last
//   failure).
// STUCK RECALL at threshold N = (stuck runs the gate blocks, ask or deny) / (stuck runs), where a run r is
//   STUCK when all of these hold (defined in bench/judgementTruth.mjs, independently of the product's
//   approach keys, error signatures and edit events):
//   1. r failed (as above), and its ERROR LINE E is not empty;
//   2. its COMMAND FAMILY has failed at least N times since the family's last success (runs of unknown
//      outcome are skipped; edits and other commands in between do not break the streak);
//   3. the family's previous failure had the same error line E, and E was seen at least twice in the streak
//      before r ("again and again").
//
// It lists every wrong block (a blocked run that did not fail, with the rule that decided) and every missed
// stuck run, counts the decisions per rule (reason code), and writes the figures between the judgement
// markers of BENCHMARKS.md (--no-write: print only). Nothing is asserted: the numbers are for reading.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpusFile } from '../src/replay/corpus.ts';
import { replayTrajectory } from '../src/replay/replay.ts';
import { RULES } from '../src/core/rules/policy.ts';
import { errorLine, outcome, stuckRuns, waitingRuns } from './judgementTruth.mjs';
import { crossCounts, inspectEnd, inspectStep, spanTable, stopTable, tallyRun, wrongStops } from './crossApproach.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const write = !argv.includes('--no-write') && !argv.includes('--budget');
const quiet = argv.includes('--quiet');
const shellOnly = argv.includes('--shell-only');
const corpusArgs = argv.flatMap((a, i) => (argv[i - 1] === '--corpus' ? [a] : []));
// --budget N: the change budget to measure (the product's is CHANGE_BUDGET in src/core/rules/policy.ts)
const budgetArg = argv.flatMap((a, i) => (argv[i - 1] === '--budget' ? [Number(a)] : []))[0];
const defaultDir = path.resolve(root, '..', '..', 'shared', 'trajectories');
const sharedDir = fs.existsSync(defaultDir) ? defaultDir : '/work/shared/trajectories';

/** The corpora: every .jsonl(.gz), one copy of each (the full one, or the shell-only one with --shell-only). */
function defaultFiles() {
  const all = fs.readdirSync(sharedDir).filter(f => /\.jsonl(\.gz)?$/.test(f)).sort();
  const shellOf = f => f.replace(/\.jsonl(\.gz)?$/, '.shell.jsonl$1');
  return all
    .filter(f => {
      if (/\.shell\.jsonl/.test(f)) return shellOnly || !all.includes(f.replace('.shell.jsonl', '.jsonl'));
      return !(shellOnly && all.includes(shellOf(f)));
    })
    .map(f => path.join(sharedDir, f));
}

const files = corpusArgs.length ? corpusArgs : defaultFiles();
const THRESHOLDS = [3, 5];

/** The harness a trajectory's agent field names. */
export function harnessOf(agent = '') {
  if (/claude code|terminal_claude_agent/i.test(agent)) return 'Claude Code';
  if (/openhands/i.test(agent)) return 'OpenHands';
  if (/mini-swe-agent/i.test(agent)) return 'mini-swe-agent';
  return agent.split(/[ (]/)[0] || 'unknown';
}

const short = s => s.replace(/\s+/g, ' ').trim().slice(0, 110);
const shortSource = s =>
  s
    .replace(/^.*\/trajs\/[^/]+\//, '')
    .replace(/^.*\/20250825_swe-agent-mini_claude-4-sonnet\/[^/]+\//, '')
    .replace(/\/sessions\/agent\.log$/, '')
    .replace(/\.traj\.json$/, '')
    .replace(/^AMGrobelnik\/ai-invention-([0-9a-f]{6})[^/]*\/chat\/messages\//, '$1:')
    .replace(/\.md@[0-9a-f]+$/, '');

const emptyCounts = () => ({ blocks: 0, blockedFailed: 0, denies: 0, deniedFailed: 0, asks: 0, askedFailed: 0, stuck: 0, stuckBlocked: 0, stuckWaiting: 0, stuckWaitingBlocked: 0, wrong: [], missed: [] });

function add(c, step, o, isStuck, t, cmd, isWaiting) {
  const blocked = step.decision === 'ask' || step.decision === 'deny';
  if (blocked) {
    c.blocks++;
    if (o === 'failure') c.blockedFailed++;
    else c.wrong.push({ source: t.source, index: step.index, command: cmd.command, exitCode: cmd.exitCode, decision: step.decision, code: step.code, key: step.key });
  }
  if (step.decision === 'deny') {
    c.denies++;
    if (o === 'failure') c.deniedFailed++;
  }
  if (step.decision === 'ask') {
    c.asks++;
    if (o === 'failure') c.askedFailed++;
  }
  if (isStuck) {
    c.stuck++;
    if (blocked) c.stuckBlocked++;
    else c.missed.push({ source: t.source, index: step.index, command: cmd.command, error: errorLine(cmd.output), code: step.code, reason: step.reason, waiting: isWaiting });
    if (isWaiting) {
      c.stuckWaiting++;
      if (blocked) c.stuckWaitingBlocked++;
    }
  }
}

async function measure() {
  const t0 = performance.now();
  const corpora = files.map(f => ({ file: path.basename(f), corpus: readCorpusFile(f) }));
  const results = [];
  const cross = [];
  const spans = new Map([['all', crossCounts()]]);
  for (const n of THRESHOLDS) {
    const counts = crossCounts();
    cross.push({ threshold: n, counts });
    const groups = new Map([['all', emptyCounts()]]);
    const rules = new Map(); // code -> {decision: count, failed, succeeded, unknown}
    const group = name => (groups.has(name) ? groups.get(name) : (groups.set(name, emptyCounts()), groups.get(name)));
    for (const { file, corpus } of corpora) {
      for (const t of corpus.trajectories) {
        // the cross-approach view (./crossApproach.mjs) from the same replay; what the memories end with, once
        const span = n === THRESHOLDS[0] ? [spans.get('all'), spans.get(`corpus ${file}`) ?? spans.set(`corpus ${file}`, crossCounts()).get(`corpus ${file}`)] : [];
        const steps = await replayTrajectory(t, {
          threshold: n,
          ...(budgetArg ? { changeBudget: budgetArg } : {}),
          inspect: step => {
            inspectStep(counts, t, step, n);
            span.forEach(c => tallyRun(c, step.recorded));
          },
          onEnd: data => span.forEach(c => inspectEnd(c, data)),
        });
        const stuck = stuckRuns(t.commands, n);
        const waiting = waitingRuns(t.commands);
        for (const s of steps) {
          const c = t.commands[s.index];
          const o = outcome(c.exitCode);
          for (const g of ['all', `corpus ${file}`, `harness ${harnessOf(t.agent)}`]) add(group(g), s, o, stuck.has(s.index), t, c, waiting.has(s.index));
          if (s.status === 'exhausted' || s.decision !== 'allow') {
            const r = rules.get(s.code) ?? { allow: 0, warn: 0, ask: 0, deny: 0, failed: 0, succeeded: 0, unknown: 0 };
            r[s.decision]++;
            if (o === 'failure') r.failed++;
            else if (o === 'success') r.succeeded++;
            else r.unknown++;
            rules.set(s.code, r);
          }
        }
      }
    }
    results.push({ threshold: n, groups, rules });
  }
  const trajectories = corpora.reduce((k, c) => k + c.corpus.trajectories.length, 0);
  const commands = corpora.reduce((k, c) => k + c.corpus.trajectories.reduce((j, t) => j + t.commands.length, 0), 0);
  const edits = corpora.reduce((k, c) => k + c.corpus.trajectories.reduce((j, t) => j + t.commands.reduce((e, x) => e + (x.editsBefore?.length ?? 0), 0), 0), 0);
  return { corpora, trajectories, commands, edits, results, cross, spans, seconds: (performance.now() - t0) / 1000 };
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');

function report(m) {
  const lines = [];
  lines.push(
    `Corpora: ${m.corpora.map(c => `${c.file} (${c.corpus.trajectories.length})`).join(', ')}: ${m.trajectories} trajectories, ${m.commands} shell commands, ${m.edits} edit events; replayed at ${THRESHOLDS.join(' and ')} in ${m.seconds.toFixed(1)} s.`,
  );
  lines.push('');
  lines.push('| threshold | runs of | blocks (ask + deny) | blocked runs that failed | precision of blocks | denies | precision of denies | asks | stuck runs | stuck runs blocked | stuck recall | of them waiting on a job | stuck recall, waiting left out |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of m.results) {
    for (const [name, c] of r.groups) {
      const notWaiting = c.stuck - c.stuckWaiting;
      lines.push(`| ${r.threshold} | ${name} | ${c.blocks} | ${c.blockedFailed} | ${pct(c.blockedFailed, c.blocks)} | ${c.denies} | ${pct(c.deniedFailed, c.denies)} | ${c.asks} | ${c.stuck} | ${c.stuckBlocked} | ${pct(c.stuckBlocked, c.stuck)} | ${c.stuckWaiting} | ${pct(c.stuckBlocked - c.stuckWaitingBlocked, notWaiting)} (${c.stuckBlocked - c.stuckWaitingBlocked} of ${notWaiting}) |`);
    }
  }
  return lines.join('\n');
}

/** Per rule, in the order of the product's table (src/core/rules/policy.ts RULES), every rule listed: a new rule shows here, also while it never answers. */
function rulesTable(m) {
  const lines = ['| threshold | rule (reason code) | its answer | allow | warn | ask | deny | the run failed | the run succeeded | unknown |', '|---|---|---|---|---|---|---|---|---|---|'];
  const zero = { allow: 0, warn: 0, ask: 0, deny: 0, failed: 0, succeeded: 0, unknown: 0 };
  for (const r of m.results) {
    const known = new Set(RULES.map(x => x.code));
    const rows = [...RULES.map(x => [x.code, x.answer]), ...[...r.rules.keys()].filter(c => !known.has(c)).map(c => [c, '(not in the table)'])];
    for (const [code, answer] of rows) {
      const x = r.rules.get(code) ?? zero;
      lines.push(`| ${r.threshold} | ${code} | ${answer} | ${x.allow} | ${x.warn} | ${x.ask} | ${x.deny} | ${x.failed} | ${x.succeeded} | ${x.unknown} |`);
    }
  }
  return lines.join('\n');
}

function details(m) {
  const lines = [];
  for (const r of m.results) {
    const all = r.groups.get('all');
    lines.push(`\nThreshold ${r.threshold}: wrong blocks (${all.wrong.length})`);
    for (const w of all.wrong) lines.push(`  ${shortSource(w.source)} #${w.index} exit ${w.exitCode} ${w.decision} [${w.code}]: ${short(w.command)}   [${w.key}]`);
    lines.push(`Threshold ${r.threshold}: missed stuck runs (${all.missed.length})`);
    for (const x of all.missed) lines.push(`  ${x.waiting ? '(waiting) ' : ''}${shortSource(x.source)} #${x.index}: ${short(x.command)}   — ${x.error.slice(0, 80)}   [${x.code}: ${x.reason.slice(0, 160)}]`);
  }
  return lines.join('\n');
}

const m = await measure();
const table = report(m);
const rules = rulesTable(m);
const span = spanTable(m.spans);
const stops = stopTable(m.cross);
const crossWrong = wrongStops(m.cross, short, shortSource);
console.log(table);
console.log(`\nDecisions per rule (exhausted approaches, and every ask or deny):\n\n${rules}`);
console.log(`\nCauses across approaches:\n\n${span}\n\nStopping by cause:\n\n${stops}`);
if (!quiet) console.log(details(m), `\n${crossWrong}`);

if (write) {
  const file = path.join(root, 'BENCHMARKS.md');
  const START = '<!-- judgement:start (written by npm run bench:judgement) -->';
  const END = '<!-- judgement:end -->';
  const md = fs.readFileSync(file, 'utf8');
  const a = md.indexOf(START);
  const b = md.indexOf(END);
  if (a < 0 || b < a) {
    console.error(`BENCHMARKS.md has no judgement markers: figures not written.`);
  } else {
    const esc = s => s.replace(/`/g, "'");
    const wrongList = m.results
      .map(r => {
        const w = r.groups.get('all').wrong;
        return `Wrong blocks at ${r.threshold} (${w.length}):${w.length ? '\n' + w.map(x => `- ${shortSource(x.source)} #${x.index} (exit ${x.exitCode}, ${x.decision}, ${x.code}): \`${esc(short(x.command))}\``).join('\n') : ' none.'}`;
      })
      .join('\n\n');
    const missedList = m.results
      .map(r => {
        const x = r.groups.get('all').missed;
        return `Missed stuck runs at ${r.threshold} (${x.length}):${x.length ? '\n' + x.map(y => `- ${y.waiting ? '(waiting on a job) ' : ''}${shortSource(y.source)} #${y.index} (${y.code}): \`${esc(short(y.command))}\` — ${esc(y.error.slice(0, 80))}`).join('\n') : ' none.'}`;
      })
      .join('\n\n');
    const body = `${START}\n_Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}._\n\n${table}\n\nDecisions per rule (every run of an exhausted approach, and every ask or deny):\n\n${rules}\n\n${wrongList}\n\n${missedList}\n${END}`;
    let next = md.slice(0, a) + body + md.slice(b + END.length);
    const XS = '<!-- patterns:start (written by npm run bench:judgement) -->';
    const XE = '<!-- patterns:end -->';
    const xa = next.indexOf(XS);
    const xb = next.indexOf(XE);
    if (xa >= 0 && xb > xa) {
      const xbody = `${XS}\n_Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}, in the same replays._\n\nCauses across approaches (the pattern records each trajectory's memory ended with):\n\n${span}\n\nStopping by cause, the product's policy and the alternatives it was chosen against:\n\n${stops}\n\n${crossWrong || 'No stop of a run that did not fail.'}\n${XE}`;
      next = next.slice(0, xa) + xbody + next.slice(xb + XE.length);
    } else console.error('BENCHMARKS.md has no patterns markers: the cross-approach figures were not written.');
    fs.writeFileSync(file, next);
    console.log('\nBENCHMARKS.md updated.');
  }
}
