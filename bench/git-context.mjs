// What the git context costs per remembered run: readGitState in a small repository with one
// changed file, and in a folder outside any repository (no git process). The success of a command that
// never failed never asks git. Prints a markdown table.
//   node --import tsx bench/git-context.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readGitState } from '../src/store/gitContext.ts';

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-bench-git-'));
const git = (...a) => execFileSync('git', a, { cwd: repo, stdio: 'ignore' });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'b@example.com');
git('config', 'user.name', 'b');
for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(repo, `f${i}.js`), `module.exports = ${i};\n`);
git('add', '.');
git('commit', '-q', '-m', 'init');
fs.writeFileSync(path.join(repo, 'f7.js'), 'module.exports = 70;\n');
const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-bench-nogit-'));

async function time(dir, n = 20) {
  await readGitState(dir);
  const runs = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await readGitState(dir);
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return { median: runs[Math.floor(n / 2)], p95: runs[Math.floor(n * 0.95) - 1] };
}

const [cpu] = os.cpus();
console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, git ${execFileSync('git', ['--version'], { encoding: 'utf8' }).trim().split(' ').pop()}.`);
console.log('');
console.log('| folder | git context per remembered run (median / p95) |');
console.log('|---|---|');
const r = await time(repo);
console.log(`| repository, 200 files, 1 changed | ${r.median.toFixed(1)} ms / ${r.p95.toFixed(1)} ms |`);
const p = await time(plain);
console.log(`| outside any repository (no git process) | ${p.median.toFixed(2)} ms / ${p.p95.toFixed(2)} ms |`);
fs.rmSync(repo, { recursive: true, force: true });
fs.rmSync(plain, { recursive: true, force: true });
