// node bench/record-cost.mjs [--before <git ref>] [--rounds 5] [--ignore FIELD ...] [--no-write]
//
// What recording one command costs before it reaches the store: prepareAttempt (escapes stripped,
// secrets redacted, the exit code judged, test results parsed, the error signature found, the
// output bounded) over every command output of the development corpora in ../shared/trajectories
// (~26,000 real outputs, at most 8 KB each), plus the same outputs made hostile to the output path
// (terminal escapes, progress bars redrawn with \r, CRLF line ends) and a few large outputs.
//
// With --before, the same is done by the code at that git ref (its src/ extracted with git archive),
// in the same process, rounds alternating (before, after, before, …) so a machine whose speed drifts
// still compares fairly; and every attempt the two produce is compared field by field (all but the
// id and the times), which is how "the output is normalised once, behaviour unchanged" is checked.
// Writes between the record-cost markers of BENCHMARKS.md (unless --no-write).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const before = opt('--before');
const rounds = Number(opt('--rounds', 5));
const corpusDir = path.join(root, '..', 'shared', 'trajectories');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-record-cost-'));

/** Bundles the engine's record preparation from a source tree into one CommonJS file. */
async function engineFrom(srcRoot, name) {
  const entry = path.join(tmp, `${name}-entry.ts`);
  fs.writeFileSync(entry, [
    `export { prepareAttempt } from ${JSON.stringify(path.join(srcRoot, 'src/core/memory'))};`,
    `export { createRedactor } from ${JSON.stringify(path.join(srcRoot, 'src/core/redact'))};`,
    `export { DEFAULT_SETTINGS } from ${JSON.stringify(path.join(srcRoot, 'src/core/types'))};`,
  ].join('\n'));
  const outfile = path.join(tmp, `${name}.cjs`);
  await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'error', nodePaths: [path.join(root, 'node_modules')] });
  return createRequire(import.meta.url)(outfile);
}

function corpus() {
  const runs = [];
  for (const f of ['devcorpus2.shell.jsonl.gz', 'sonnet4_miniswe_terminalbench.jsonl.gz', 'gemini3pro_miniswe_swebench.sample.jsonl.gz']) {
    const file = path.join(corpusDir, f);
    if (!fs.existsSync(file)) continue;
    for (const line of gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      for (const c of JSON.parse(line).commands ?? []) {
        if (typeof c.command === 'string' && typeof c.output === 'string') runs.push({ command: c.command, exitCode: c.exitCode ?? null, output: c.output, cwd: '.' });
      }
    }
  }
  return runs;
}

/** The same outputs as a terminal shows them: colours, CRLF line ends, a progress bar redrawn with \r. */
function hostile(run, i) {
  const colour = run.output.replace(/(error|Error|FAIL|failed|passed|warning)/g, '\u001b[1;31m$1\u001b[0m');
  const crlf = colour.replace(/\n/g, '\r\n');
  const bar = `${'\u001b]633;C\u0007'}${[10, 40, 80, 100].map(p => `\r[${'#'.repeat(p / 10)}${' '.repeat(10 - p / 10)}] ${p}%`).join('')}\n`;
  return { ...run, output: i % 2 ? bar + crlf : colour + bar };
}

function large(runs) {
  const failing = runs.filter(r => r.exitCode && r.output.length > 2000).slice(0, 4);
  return failing.map(r => ({ ...r, output: `${'compiling module …\n'.repeat(20000)}${r.output}` }));
}

// fields left out of the comparison: the id and the times, and any named with --ignore (a field one side has not got)
const ignored = new Set(['id', 'endedAt', 'timestamp', ...argv.flatMap((a, i) => (argv[i - 1] === '--ignore' ? [a] : []))]);
const strip = a => Object.fromEntries(Object.entries(a).filter(([k]) => !ignored.has(k)));

function pass(engine, runs, settings) {
  const redactor = engine.createRedactor(settings['redaction.extraPatterns'] ?? settings.extraRedactionPatterns);
  const out = new Array(runs.length);
  const t0 = process.cpuUsage();
  for (let i = 0; i < runs.length; i++) out[i] = engine.prepareAttempt({ ...runs[i], source: 'agent' }, settings, redactor, new Date(0));
  const c = process.cpuUsage(t0);
  return { ms: (c.user + c.system) / 1000, out };
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const after = await engineFrom(root, 'after');
let old;
if (before) {
  const src = path.join(tmp, 'before');
  fs.mkdirSync(src);
  execFileSync('sh', ['-c', `git -C "${root}" archive "${before}" src | tar -x -C "${src}"`]);
  old = await engineFrom(src, 'before');
}
const real = corpus();
const sets = [
  ['real outputs', real],
  ['the same, as a terminal shows them (colours, CRLF, \\r progress bars)', real.map(hostile)],
  ['large outputs (20,000 lines of progress, then a real failure)', large(real)],
];
const settingsList = [
  ['default settings', after.DEFAULT_SETTINGS],
  ['maxOutputBytes 1 MiB', { ...after.DEFAULT_SETTINGS, maxOutputBytes: 1024 * 1024 }],
  // the pattern under both names: code from before the settings kept their declared names (--before) reads extraRedactionPatterns
  ['storeOutput off, a user pattern', { ...after.DEFAULT_SETTINGS, storeOutput: false, 'redaction.extraPatterns': ['secret-[0-9]+'], extraRedactionPatterns: ['secret-[0-9]+'] }],
];

const rows = [];
let compared = 0;
let differing = 0;
const differences = [];
for (const [name, runs] of sets) {
  const times = { after: [], before: [] };
  for (let r = 0; r < rounds; r++) {
    if (old) times.before.push(pass(old, runs, old.DEFAULT_SETTINGS).ms);
    times.after.push(pass(after, runs, after.DEFAULT_SETTINGS).ms);
  }
  rows.push({ name, n: runs.length, chars: runs.reduce((s, r) => s + r.output.length, 0), after: median(times.after), before: old ? median(times.before) : undefined });
  if (!old) continue;
  for (const [sname, settings] of settingsList) {
    const a = pass(after, runs, settings).out;
    const b = pass(old, runs, settings).out;
    for (let i = 0; i < runs.length; i++) {
      compared++;
      const x = JSON.stringify(strip(a[i]));
      const y = JSON.stringify(strip(b[i]));
      if (x !== y) differing++;
      if (x !== y && differences.length < 10) differences.push(`${name} / ${sname} #${i}: ${runs[i].command.slice(0, 80)}\n  before ${y.slice(0, 400)}\n  after  ${x.slice(0, 400)}`);
    }
  }
}

const f = v => (v === undefined ? '–' : v.toFixed(0));
const per = (ms, n) => `${((ms * 1000) / n).toFixed(1)} µs`;
const table = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, Node ${process.version}, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ${rounds} rounds, CPU time of the process (median round).`,
  '',
  `| outputs through prepareAttempt (default settings) | records | MB | ${old ? `before (${before}) | ` : ''}after | ${old ? 'after / before | ' : ''}per record (after) |`,
  `|---|---:|---:|${old ? '---:|' : ''}---:|${old ? '---:|' : ''}---:|`,
  ...rows.map(r => `| ${r.name} | ${r.n} | ${(r.chars / 1e6).toFixed(1)} | ${old ? `${f(r.before)} ms | ` : ''}${f(r.after)} ms | ${old ? `${(r.after / r.before).toFixed(2)}× | ` : ''}${per(r.after, r.n)} |`),
  ...(old ? ['', `Same attempts: ${compared - differing} of ${compared} compared (every record of each set under each of ${settingsList.map(s => s[0]).join('; ')}), all fields but ${[...ignored].join(', ')}.`] : []),
].join('\n');
console.log(table);
if (differing) console.error(`${differing} DIFFERENCES (the first ${differences.length}):\n${differences.join('\n')}`);
if (!argv.includes('--no-write')) {
  const file = path.join(root, 'BENCHMARKS.md');
  const start = '<!-- record-cost:start (written by node bench/record-cost.mjs) -->';
  const end = '<!-- record-cost:end -->';
  let md = fs.readFileSync(file, 'utf8');
  const section = `${start}\n${table}\n${end}`;
  if (md.includes(start)) md = md.replace(new RegExp(`${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
  else md += `\n## Recording a command: the output read once\n\n${section}\n`;
  fs.writeFileSync(file, md);
}
fs.rmSync(tmp, { recursive: true, force: true });
process.exitCode = differing ? 1 : 0;
