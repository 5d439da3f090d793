// Fills a memory up to a number of approaches, as a long-used workspace has them: a fifth exhausted
// (five failures each), the rest failing one to four times, with realistic error output. Written
// through the store (its lock, its memory.json and index), so a running VS Code picks it up as it
// would any other writer's. For the end-to-end tests and benchmarks at the default limit.
//   node --import tsx test/support/seedMemory.ts <workspace> <memory dir> <approaches>
import { openWorkspaceMemory } from '../../src/app/openMemory';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS } from '../../src/core/types';

const ERRORS = [
  (i: number) => `Error: Cannot find module '@scope/pkg${i}'\nRequire stack:\n- /app/src/index${i}.js`,
  (i: number) => `src/file${i}.ts(${i},5): error TS2322: Type 'string' is not assignable to type 'number'.`,
  (i: number) => `FAIL src/test${i}.spec.ts\n  ● adds ${i}\n    expect(received).toBe(expected)\nTests:       ${(i % 9) + 1} failed, 40 passed, ${(i % 9) + 41} total`,
  (i: number) => `npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/pkg-${i}`,
];

export async function seedMemory(workspace: string, dir: string, approaches: number): Promise<number> {
  const { memory } = openWorkspaceMemory({ workspace, dir, git: false });
  const settings = { ...DEFAULT_SETTINGS };
  const redactor = createRedactor();
  return memory.store.update(data => {
    let t = Date.now() - 3 * 24 * 3600 * 1000;
    for (let a = 0; Object.keys(data.approaches).length < approaches; a++) {
      const failures = a % 5 === 0 ? 5 : 1 + (a % 4);
      for (let k = 0; k < failures; k++) {
        const output = `${'building…\n'.repeat(10)}${ERRORS[a % ERRORS.length](a)}\n`;
        applyAttempt(data, prepareAttempt({ command: `job${a} run --step ${k}`, cwd: a % 3 ? '.' : `pkg${a % 5}`, exitCode: 1, source: 'agent', output }, settings, redactor, new Date((t += 1000))), settings);
      }
    }
    return Object.keys(data.approaches).length;
  });
}

if (process.argv[1] && /seedMemory\.ts$/.test(process.argv[1])) {
  const [workspace, dir, count] = process.argv.slice(2);
  seedMemory(workspace, dir, Number(count)).then(
    n => console.log(`${n} approaches in ${dir}`),
    e => {
      console.error(e);
      process.exit(1);
    },
  );
}
