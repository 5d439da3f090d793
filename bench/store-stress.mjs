// node bench/store-stress.mjs [--writers 16] [--records 20] [--kills 50]   (after npm run build)
//
// The store under load, through the built CLI against one workspace:
//  1. `writers` processes each run `records` distinct `failure-memory record` calls, all at once:
//     reports how many records were kept and how many were rejected (a non-zero exit).
//  2. kill -9 loop: a writer recording a large output is killed mid-write `kills` times; reports the
//     temp files left behind, then runs one more record and reports the orphans left after it.
// Prints a Markdown table for BENCHMARKS.md. Nothing here asserts anything.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(root, 'dist', 'cli.js');
const arg = (name, def) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : def);
const WRITERS = arg('--writers', 16);
const RECORDS = arg('--records', 20);
const KILLS = arg('--kills', 50);

function record(ws, command, output) {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [CLI, 'record', '--command', command, '--exit-code', '1', '--workspace', ws], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', d => (stderr += String(d)));
    child.on('close', code => resolve({ code, stderr }));
    child.stdin.end(output);
  });
}

const orphans = dir => (fs.existsSync(dir) ? fs.readdirSync(dir).filter(n => n.endsWith('.tmp') || n.includes('.tmp-')) : []);

const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-stress-'));
const dir = path.join(ws, '.vscode', 'failure-memory');
try {
  const t0 = Date.now();
  const rejected = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < RECORDS; i++) {
        const r = await record(ws, `tool-${w}-${i} build`, `error: failure ${w} ${i}\n`);
        if (r.code !== 0) rejected.push(r.stderr.trim().split('\n')[0]);
      }
    }),
  );
  const took = Date.now() - t0;
  const data = JSON.parse(fs.readFileSync(path.join(dir, 'memory.json'), 'utf8'));
  const kept = Object.keys(data.approaches).length;

  // kill -9 during writes: a big output makes the write (JSON + fsync) last long enough to be hit
  const big = 'error: x\n' + 'y'.repeat(200_000) + '\n';
  // kill somewhere in the second half of a run's life, where the write happens (measured first: the
  // machine may be loaded, and a fixed delay would only ever kill a process still starting up)
  const t1 = Date.now();
  await record(ws, 'timing run', big);
  const fullMs = Date.now() - t1;
  let killed = 0;
  for (let k = 0; k < KILLS; k++) {
    const child = spawn(process.execPath, [CLI, 'record', '--command', `killed-${k} run`, '--exit-code', '1', '--workspace', ws], { stdio: ['pipe', 'ignore', 'ignore'] });
    // listen before anything can end it: a run that finished before the kill has already closed
    const closed = new Promise(r => child.on('close', r));
    child.stdin.end(big);
    await new Promise(r => setTimeout(r, fullMs * (0.5 + Math.random() * 0.5)));
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      killed++;
    }
    await closed;
  }
  const afterKills = orphans(dir).length;
  const next = await record(ws, 'after-kills build', 'error: once more\n');
  const afterNext = orphans(dir).length;

  console.log(`| Writers × records | Kept | Rejected | Time | kill -9 during writes | Temp files after the kills | After the next write |`);
  console.log(`|---|---|---|---|---|---|---|`);
  console.log(`| ${WRITERS} × ${RECORDS} | ${kept}/${WRITERS * RECORDS} | ${rejected.length} | ${(took / 1000).toFixed(1)} s | ${killed} of ${KILLS} runs killed | ${afterKills} | ${afterNext} (next write exit ${next.code}) |`);
  if (rejected.length) console.log(`\nFirst rejection: ${rejected[0]}`);
  console.log(`\n${os.cpus().length} CPUs, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}, Node ${process.version}, ${new Date().toISOString()}`);
} finally {
  fs.rmSync(ws, { recursive: true, force: true });
}
