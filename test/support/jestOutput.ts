// What jest prints for a run: one block per failing test (`● name` and its expectation), then the
// summary line the test-result parser reads. Shared by the tests that feed the engine jest runs.

/**
 * Jest's output for `failing` tests (their full names, e.g. "Calc › adds") and `passed` passing ones;
 * `failed` overrides the failed count of the summary (default: one per failing name).
 */
export function jestOutput(o: { failing?: readonly string[]; passed: number; failed?: number }): string {
  const failing = o.failing ?? [];
  const failed = o.failed ?? failing.length;
  const blocks = failing.map(n => `  ● ${n}\n\n    expect(received).toBe(expected)\n`).join('\n');
  return `${blocks}\nTests:       ${failed ? `${failed} failed, ` : ''}${o.passed} passed, ${o.passed + failed} total\n`;
}
