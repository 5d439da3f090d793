// npm run bench:judgement  (= node --import tsx bench/judgement.mjs [--no-write] [--corpus FILE ...])
//
// Judgement on real agent work (issue 10). Replays every trajectory of the development corpus
// (../shared/trajectories/*.jsonl.gz, or the files given with --corpus) through the product's own
// replay (src/judgement/replay.ts: WorkspaceMemory.check before each command, .record after it, one
// fresh in-memory memory per trajectory) at thresholds 3 and 5, and measures:
//
// PRECISION = (blocked runs whose real exit code was a failure) / (all blocked runs).
//   A failure is a known, non-zero exit code other than an interrupt (129, 130, 131, 143, 148).
//   A blocked run with an UNKNOWN exit code (null: killed on timeout, final submission) or an
//   interrupt counts against precision: the gate cannot claim it saved anything there.
//   "Failure" here is the exit code only: the product's own reading of output (failing tests behind
//   `| tail`, probes answering "no") plays no part in the ground truth.
//
// STUCK RECALL at threshold N = (stuck runs the gate blocks) / (stuck runs), where a run r is STUCK
//   when all of these hold (defined in bench/judgementTruth.mjs, independently of the product's
//   approach keys and error signatures):
//   1. r failed (as above), and its ERROR LINE E is not empty;
//   2. its COMMAND FAMILY has failed at least N times since the family's last success (runs of
//      unknown outcome are skipped; edits and other commands in between do not break the streak):
//      the budget of N failures the user chose is spent;
//   3. the family's previous failure had the same error line E, and E was seen at least twice in
//      the streak before r ("again and again").
//   That is the README's "the same program failing with the same error line, over and over, with
//   no success in between", counted only once the user's threshold has been reached (before that,
//   no gate at that threshold may stop it). A streak of ever-changing errors has no stuck run.
//   COMMAND FAMILY (see family() below): the sequence of the programs a command line runs, element by
//   element of its &&/||/;/newline list (first stage of each pipeline), leaving out cd, echo and
//   other shell bookkeeping; each program is its base name (python3 -> python) plus, for
//   interpreters, the script (or -c / -m MODULE), for test runners the test files (node ids
//   dropped), and for tools with subcommands, the subcommand.
//   ERROR LINE (see errorLine() below): the last output line that reads like an error (error,
//   exception, failed, fatal, not found, no such file, cannot, denied, refused, invalid, ...), else
//   the last non-empty line; lowercased, numbers, hex ids and temp paths masked, spaces collapsed.
//
// It lists every wrong block (a blocked run that did not fail) and every missed stuck run, with
// source, index, command and a short error line, and writes the figures between the judgement
// markers of BENCHMARKS.md (--no-write: print only). Nothing is asserted: the numbers are for reading.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpusFile } from '../src/judgement/corpus.ts';
import { replayTrajectory } from '../src/judgement/replay.ts';
import { errorLine, outcome, stuckRuns } from './judgementTruth.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const write = !argv.includes('--no-write');
const quiet = argv.includes('--quiet');
const corpusArgs = argv.flatMap((a, i) => (argv[i - 1] === '--corpus' ? [a] : []));
const defaultDir = path.resolve(root, '..', '..', 'shared', 'trajectories');
const sharedDir = fs.existsSync(defaultDir) ? defaultDir : '/work/shared/trajectories';
const files = corpusArgs.length
  ? corpusArgs
  : fs.readdirSync(sharedDir).filter(f => /\.jsonl(\.gz)?$/.test(f)).sort().map(f => path.join(sharedDir, f));
const THRESHOLDS = [3, 5];
// ---- replay and measure ----

const short = s => s.replace(/\s+/g, ' ').trim().slice(0, 110);
const shortSource = s => s.replace(/^.*\/trajs\/[^/]+\//, '').replace(/^.*\/20250825_swe-agent-mini_claude-4-sonnet\/[^/]+\//, '').replace(/\/sessions\/agent\.log$/, '').replace(/\.traj\.json$/, '');

async function measure() {
  const t0 = performance.now();
  const corpora = files.map(f => ({ file: path.basename(f), corpus: readCorpusFile(f) }));
  const trajectories = corpora.flatMap(c => c.corpus.trajectories);
  const results = [];
  for (const n of THRESHOLDS) {
    const r = { threshold: n, blocks: 0, blockedFailures: 0, blockedSuccess: 0, blockedUnknown: 0, stuck: 0, stuckBlocked: 0, wrong: [], missed: [] };
    for (const t of trajectories) {
      const steps = await replayTrajectory(t, { threshold: n });
      const stuck = stuckRuns(t.commands, n);
      for (const s of steps) {
        const c = t.commands[s.index];
        const o = outcome(c.exitCode);
        if (s.blocked) {
          r.blocks++;
          if (o === 'failure') r.blockedFailures++;
          else {
            if (o === 'success') r.blockedSuccess++;
            else r.blockedUnknown++;
            r.wrong.push({ source: t.source, index: s.index, command: c.command, exitCode: c.exitCode, key: s.key, reason: s.reason });
          }
        }
        if (stuck.has(s.index)) {
          r.stuck++;
          if (s.blocked) r.stuckBlocked++;
          else r.missed.push({ source: t.source, index: s.index, command: c.command, error: errorLine(c.output), key: s.key, reason: s.reason });
        }
      }
    }
    r.precision = r.blocks ? r.blockedFailures / r.blocks : 1;
    r.recall = r.stuck ? r.stuckBlocked / r.stuck : 1;
    results.push(r);
  }
  const commands = trajectories.reduce((k, t) => k + t.commands.length, 0);
  return { corpora, trajectories: trajectories.length, commands, results, seconds: (performance.now() - t0) / 1000 };
}

const pct = x => `${(100 * x).toFixed(1)}%`;

function report(m) {
  const lines = [];
  lines.push(`Corpus: ${m.corpora.map(c => `${c.file} (${c.corpus.trajectories.length})`).join(', ')}: ${m.trajectories} trajectories, ${m.commands} commands; replayed at ${THRESHOLDS.join(' and ')} in ${m.seconds.toFixed(1)} s.`);
  lines.push('');
  lines.push('| threshold | blocks | blocked runs that failed | precision | stuck runs | stuck runs blocked | stuck recall |');
  lines.push('|---|---|---|---|---|---|---|');
  for (const r of m.results) {
    lines.push(`| ${r.threshold} | ${r.blocks} | ${r.blockedFailures} (succeeded ${r.blockedSuccess}, unknown ${r.blockedUnknown}) | ${pct(r.precision)} | ${r.stuck} | ${r.stuckBlocked} | ${pct(r.recall)} |`);
  }
  return lines.join('\n');
}

function details(m) {
  const lines = [];
  for (const r of m.results) {
    lines.push(`\nThreshold ${r.threshold}: wrong blocks (${r.wrong.length})`);
    for (const w of r.wrong) lines.push(`  ${shortSource(w.source)} #${w.index} exit ${w.exitCode}: ${short(w.command)}   [${w.key}]`);
    lines.push(`Threshold ${r.threshold}: missed stuck runs (${r.missed.length})`);
    for (const x of r.missed) lines.push(`  ${shortSource(x.source)} #${x.index}: ${short(x.command)}   — ${x.error.slice(0, 80)}   [${x.key}: ${x.reason}]`);
  }
  return lines.join('\n');
}

const m = await measure();
const table = report(m);
console.log(table);
if (!quiet) console.log(details(m));

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
    const wrongList = m.results.map(r => `Wrong blocks at ${r.threshold} (${r.wrong.length}):${r.wrong.length ? '\n' + r.wrong.map(w => `- ${shortSource(w.source)} #${w.index} (exit ${w.exitCode}): \`${short(w.command).replace(/`/g, "'")}\``).join('\n') : ' none.'}`).join('\n\n');
    const missedList = m.results.map(r => `Missed stuck runs at ${r.threshold} (${r.missed.length}):${r.missed.length ? '\n' + r.missed.map(x => `- ${shortSource(x.source)} #${x.index}: \`${short(x.command).replace(/`/g, "'")}\` — ${x.error.slice(0, 80).replace(/`/g, "'")}`).join('\n') : ' none.'}`).join('\n\n');
    const body = `${START}\n_Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}._\n\n${table}\n\n${wrongList}\n\n${missedList}\n${END}`;
    fs.writeFileSync(file, md.slice(0, a) + body + md.slice(b + END.length));
    console.log('\nBENCHMARKS.md updated.');
  }
}
