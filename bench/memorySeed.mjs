// A workspace whose memory holds the default limit of approaches, written the way a day of real use
// leaves it (for benches run with `node --import tsx`): a git repository with uncommitted files, and
// every run recorded with the git state `record` reads after it (HEAD, the changed files and their
// content hashes: the larger part of memory.json in a repository), through the engine's own
// applyAttempt. A fifth of the approaches exhausted, the rest failing one to four times, some
// resolved by a pass; a few reflections and learnings. memory.json and its index as the store writes them.
// Run directly, it seeds a folder (the end-to-end tests do so):
//   node --import tsx bench/memorySeed.mjs DIR [--approaches 500] [--no-git]   → prints what it wrote, as JSON
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { addLearnings } from '../src/core/learnings.ts';
import { buildReflection, storeReflection } from '../src/core/reflection.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';
import { readGitState } from '../src/store/gitContext.ts';
import { indexText, INDEX_FILE_NAME, serializeMemory } from '../src/store/memoryIndex.ts';

const ERRORS = [
  (i, ws) => `TypeError: Cannot read properties of undefined (reading 'x${i}')\n    at main (${ws}/job${i}.js:3:7)`,
  i => `Error: Cannot find module 'pkg-${i}'\nRequire stack:\n- /app/src/job${i}.js`,
  i => `src/job${i}.ts(${i % 40},5): error TS2322: Type 'string' is not assignable to type 'number'.`,
  i => `Error: connect ECONNREFUSED 127.0.0.1:${3000 + i}`,
];

/** Writes a memory into `ws` as the store does (memory.json, its index, the folder's .gitignore); returns memory.json's path. */
export function writeMemory(ws, data) {
  const dir = path.join(ws, '.vscode', 'failure-memory');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.gitignore'), '*\n');
  const file = path.join(dir, 'memory.json');
  const written = serializeMemory(data);
  fs.writeFileSync(file, written.text);
  fs.writeFileSync(path.join(dir, INDEX_FILE_NAME), indexText(data, written, fs.statSync(file)));
  return file;
}

/**
 * Seeds `ws` (created when missing). `git`: a repository with `dirtyFiles` uncommitted files, each run
 * carrying the git state read once. Returns what was written.
 * @returns {Promise<{ approaches: number, exhausted: number, bytes: number, file: string }>}
 */
export async function seedWorkspace(ws, { approaches = DEFAULT_SETTINGS.limits.maxApproaches, git = true, dirtyFiles = 12, reflections = 3, learnings = 30 } = {}) {
  fs.mkdirSync(ws, { recursive: true });
  let gitState;
  if (git) {
    for (const args of [['init', '-q'], ['-c', 'user.email=b@b', '-c', 'user.name=bench', 'commit', '-q', '--allow-empty', '-m', 'start']]) {
      const r = spawnSync('git', args, { cwd: ws, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    }
    for (let i = 0; i < dirtyFiles; i++) fs.writeFileSync(path.join(ws, `job${i}.js`), `module.exports = ${i};\n`);
    gitState = await readGitState(ws, { sync: true });
  }
  const settings = { ...DEFAULT_SETTINGS };
  const redactor = createRedactor();
  const data = emptyMemory();
  let t = Date.now() - 3 * 24 * 3600 * 1000;
  const run = (command, exitCode, output) => {
    const attempt = prepareAttempt({ command, cwd: '.', exitCode, source: 'terminal', output }, settings, redactor, new Date((t += 1000)));
    if (gitState) attempt.git = structuredClone(gitState);
    applyAttempt(data, attempt, settings);
  };
  for (let a = 0; a < approaches; a++) {
    const failures = a < approaches / 5 ? 5 : 1 + (a % 4);
    const output = `${'building…\n'.repeat(30)}${ERRORS[a % ERRORS.length](a, ws)}\n`;
    for (let k = 0; k < failures; k++) run(`node job${a}.js`, 1, output);
    if (a >= approaches / 5 && a % 10 === 0) run(`node job${a}.js`, 0, 'done\n');
  }
  const keys = Object.keys(data.approaches);
  let n = 0;
  const newId = () => `seed${++n}`;
  for (let i = 0; i < reflections; i++) {
    const approach = data.approaches[keys[i]];
    storeReflection(data, buildReflection({ data, approach, threshold: settings.threshold, similar: [], id: newId() }), settings.limits.maxReflections);
  }
  for (let i = 0; i < learnings; i++) {
    addLearnings(data.learnings, [{ type: 'learning', text: `Lesson ${i}: check the input of job${i} before the loop` }], { source: 'user', now: new Date((t += 1000)).toISOString(), newId });
  }
  const file = writeMemory(ws, data);
  const all = Object.values(data.approaches);
  return { approaches: all.length, exhausted: all.filter(a => a.status === 'exhausted').length, bytes: fs.statSync(file).size, file };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--approaches');
  const seeded = await seedWorkspace(args[0], { git: !args.includes('--no-git'), ...(at >= 0 ? { approaches: Number(args[at + 1]) } : {}) });
  console.log(JSON.stringify(seeded));
}
