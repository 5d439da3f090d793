// Loop patterns and progress over an approach's short-term window: the same error twice,
// the same test failing twice, no test passing; and whether more tests pass each time.

import type { Attempt } from '../types';

export type PatternKind = 'same_error' | 'same_test_failure' | 'no_progress';
export type ProgressStatus = 'improving' | 'regressing' | 'mixed' | 'stable' | 'insufficient_data';

export interface Pattern {
  kind: PatternKind;
  message: string;
  /** The repeated error signature or test name. */
  subject?: string;
}

const failed = (a: Attempt) => a.outcome === 'failure';

/** Loop patterns over the short-term window. */
export function detectPatterns(attempts: readonly Attempt[]): Pattern[] {
  const out: Pattern[] = [];
  const counted = attempts.filter(a => a.outcome === 'failure' || a.outcome === 'success');
  const lastTwo = counted.slice(-2);
  if (lastTwo.length === 2 && lastTwo.every(failed)) {
    const [a, b] = lastTwo;
    if (a.errorSignature && a.errorSignature === b.errorSignature) {
      out.push({
        kind: 'same_error',
        subject: b.errorSignature,
        message: 'Same error twice in a row — try a different approach.',
      });
    }
    const namesA = new Set((a.testResults?.failures ?? []).map(f => f.name));
    const repeated = (b.testResults?.failures ?? []).find(f => namesA.has(f.name));
    if (repeated) {
      out.push({
        kind: 'same_test_failure',
        subject: repeated.name,
        message: `The same test failed twice: ${repeated.name}. Focus on that test.`,
      });
    }
  }
  const lastThree = counted.slice(-3);
  if (lastThree.length === 3 && lastThree.every(a => failed(a) && a.testResults && a.testResults.passed === 0)) {
    out.push({
      kind: 'no_progress',
      message: 'No test has passed in the last 3 attempts — step back and try another strategy.',
    });
  }
  return out;
}

/** Progress over the last 3 counted attempts. */
export function computeProgress(attempts: readonly Attempt[]): ProgressStatus {
  const recent = attempts.filter(a => a.outcome === 'failure' || a.outcome === 'success').slice(-3);
  if (recent.length < 2) return 'insufficient_data';
  if (recent.every(a => a.testResults)) {
    const passed = recent.map(a => a.testResults!.passed);
    let up = false;
    let down = false;
    for (let i = 1; i < passed.length; i++) {
      if (passed[i] > passed[i - 1]) up = true;
      if (passed[i] < passed[i - 1]) down = true;
    }
    if (up && !down) return 'improving';
    if (down && !up) return 'regressing';
    if (up && down) return 'mixed';
    return 'stable';
  }
  // Moving from crashes to test failures (or back) is a change of kind, not a flat line.
  const crash = recent.some(a => failed(a) && !a.testResults);
  const testFail = recent.some(a => failed(a) && a.testResults);
  if (crash && testFail) return 'mixed';
  return 'stable';
}
