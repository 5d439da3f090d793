// The Enter gate's decision in the extension host, without VS Code: decideGateNow (src/app/gate.ts, what
// the guard asks at Enter) on an in-memory memory of 50, 500 and 5,000 approaches, for an exhausted
// approach (the line that is denied), a line never seen, and a test runner's line (the one rule that
// looks at other approaches: a runner broken by its environment, found through an index built once per
// memory the store hands out). Median and p95 of 2,000 calls each (the index's first build included).
//   node --import tsx bench/enter-decision.mjs
import { decideGateNow } from '../src/app/gate.ts';
import { applyAttempt, prepareAttempt } from '../src/core/memory.ts';
import { createRedactor } from '../src/core/text/redact.ts';
import { DEFAULT_SETTINGS, emptyMemory } from '../src/core/types.ts';
import { deepFreeze } from '../src/store/frozen.ts';

const settings = { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, maxApproaches: 10_000 } };
const redactor = createRedactor();
function memory(n) {
  const data = emptyMemory();
  let t = Date.now() - 3 * 24 * 3600 * 1000;
  for (let a = 0; a < n; a++) {
    const failures = a % 5 === 0 ? 5 : 1 + (a % 4);
    for (let k = 0; k < failures; k++) {
      const output = `Error: Cannot find module '@scope/pkg${a}'\nRequire stack:\n- /app/src/index${a}.js\n`;
      applyAttempt(data, prepareAttempt({ command: a % 7 ? `job${a} run --step ${k}` : `npx jest src/t${a}.test.ts`, cwd: '.', exitCode: 1, source: 'terminal', output }, settings, redactor, new Date((t += 1000))), settings);
    }
  }
  for (let k = 0; k < 5; k++) applyAttempt(data, prepareAttempt({ command: 'sh fail.sh', cwd: '.', exitCode: 1, source: 'terminal', output: 'Error: connect ECONNREFUSED 127.0.0.1:5432\n' }, settings, redactor, new Date((t += 1000))), settings);
  return data;
}
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const rows = [];
for (const n of [50, 500, 5000]) {
  // frozen, as the store hands memory to the extension host (which is what the Enter gate reads)
  const view = { data: deepFreeze(memory(n)), settings, redact: s => s };
  for (const [what, line] of [['exhausted (denied)', 'sh fail.sh'], ['never seen', 'make deploy'], ['test runner', 'npx jest src/new.test.ts']]) {
    const times = [];
    for (let i = 0; i < 2000; i++) {
      const t0 = performance.now();
      decideGateNow(line, '.', view);
      times.push(performance.now() - t0);
    }
    rows.push(`| ${n} | ${what} | ${pct(times, 0.5).toFixed(3)} ms | ${pct(times, 0.95).toFixed(3)} ms |`);
  }
}
console.log('| approaches | line | median | p95 |\n|---|---|---|---|\n' + rows.join('\n'));
