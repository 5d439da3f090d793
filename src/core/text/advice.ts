// What to do about a failure, per kind of cause (./signature.ts errorCategory): the likely cause,
// the steps worth taking, the lesson, what it means when the same error comes again, and the
// question worth asking before the next run. Written for the cause, so that an assertion bug is not
// told to "change the approach" and a refused connection is not asked about edge cases.

import { errorCategory, type ErrorCategory } from './signature';
import { currentStreak, recurringError, recurringTests } from '../rules/streak';
import type { Approach } from '../types';

/** Reflexion's failure categories (the Reflexion record schema, credit_assignment.failure_category). */
export type FailureCategory =
  | 'hallucination'
  | 'inefficient_planning'
  | 'incorrect_assumption'
  | 'incomplete_implementation'
  | 'edge_case_miss'
  | 'integration_error'
  | 'configuration_error'
  | 'logic_error'
  | 'other';

export interface Advice {
  /** The likely cause, one sentence. */
  rootCause: string;
  category: FailureCategory;
  /** Steps worth taking, most useful first. */
  insights: string[];
  lesson: string;
  /** What the same error twice in a row means for this cause, and what to change. */
  sameError: string;
  /** The cause-specific question asked before the next run. */
  question: string;
}

/** Where the change must be: in the code, in the environment, or on the other side of a connection. */
const IN_CODE = 'The same error twice: the code it points at has not changed in the way it needs. Change that code before the next run.';
const IN_SETUP = 'The same error twice: nothing in the environment changed. Fix the setup first; re-running or adding flags cannot help.';
const ELSEWHERE = 'The same error twice: the other side has not changed. Check it before running again.';

export const ADVICE: Record<ErrorCategory, Advice> = {
  missing_module: {
    rootCause: 'A module or package the command imports is not installed or not resolvable from this folder.',
    category: 'configuration_error',
    insights: [
      'Install the missing package in the project that runs the command (check which package.json / virtualenv is active).',
      'Check the import name and the working folder: a monorepo package may need its own install.',
    ],
    lesson: 'A "cannot find module" error is fixed by installing or linking the dependency, not by re-running.',
    sameError: IN_SETUP,
    question: 'Which project, lockfile or environment does this command resolve its packages from?',
  },
  command_not_found: {
    rootCause: 'The program is not installed or not on PATH in this shell.',
    category: 'configuration_error',
    insights: ['Install the tool or run it through the project (npx, python -m, ./node_modules/.bin).', 'Check PATH in this terminal.'],
    lesson: '"command not found" means the tool is missing; re-running cannot help.',
    sameError: IN_SETUP,
    question: 'Where is this program supposed to come from, and is that on PATH here?',
  },
  port_in_use: {
    rootCause: 'Another process already listens on the port the command needs.',
    category: 'configuration_error',
    insights: ['Find and stop the process holding the port (lsof -i :PORT), or start on another port.'],
    lesson: 'EADDRINUSE: free the port or change it before retrying.',
    sameError: IN_SETUP,
    question: 'Which process holds the port, and should it keep running?',
  },
  permission_denied: {
    rootCause: 'The command lacks permission on a file, folder or device.',
    category: 'configuration_error',
    insights: ['Check ownership and mode of the path named in the error; avoid sudo as a blind fix.'],
    lesson: 'Permission errors need a change of ownership, mode or location, not a retry.',
    sameError: IN_SETUP,
    question: 'Who owns the path in the error, and should this command write there at all?',
  },
  auth_failure: {
    rootCause: 'Authentication failed: missing, expired or wrong credentials.',
    category: 'configuration_error',
    insights: ['Log in again or refresh the token; check which account or registry the command uses.'],
    lesson: 'Auth failures repeat until the credentials change.',
    sameError: IN_SETUP,
    question: 'Which account, token or registry does this command use, and is it still valid?',
  },
  missing_file: {
    rootCause: 'A file or folder the command expects does not exist at that path.',
    category: 'incorrect_assumption',
    insights: ['Check the working folder and the path in the error; generate or create the file first if it is a build output.'],
    lesson: 'ENOENT / "No such file": fix the path or create the file before retrying.',
    sameError: IN_SETUP,
    question: 'Which step is supposed to create that file, and did it run in this folder?',
  },
  type_error: {
    rootCause: 'The code does not type-check: a value is used with a type the compiler rejects.',
    category: 'logic_error',
    insights: ['Read the first type error and fix the code at the position it names; later errors often follow from it.'],
    lesson: 'Type errors are fixed in the code the error names, not by re-running the compiler.',
    sameError: IN_CODE,
    question: 'What type does the code at that position expect, and where does the value come from?',
  },
  syntax_error: {
    rootCause: 'The source or a config file has a syntax error.',
    category: 'incomplete_implementation',
    insights: ['Open the file at the line named in the error and fix the syntax (often the line before it).'],
    lesson: 'Syntax errors point at a line: go there first.',
    sameError: IN_CODE,
    question: 'What did the last edit of that file leave unbalanced or unfinished?',
  },
  runtime_error: {
    rootCause: 'The program starts and then throws while it runs: a value is not what the code expects at the line in the stack trace.',
    category: 'logic_error',
    insights: [
      'Open the top frame of the stack trace that is in your own code and check the value the error names there.',
      'Each run may stop at the next problem: fix them one at a time and expect the error to change.',
    ],
    lesson: 'A runtime error is fixed where the value goes wrong, which is often before the line that throws.',
    sameError: IN_CODE,
    question: 'What value does the failing line receive, and where was it supposed to be set?',
  },
  test_setup: {
    rootCause: 'The tests could not start: their setup, hooks or fixtures fail before any assertion runs.',
    category: 'configuration_error',
    insights: ['Read the setup error (hook, fixture, suite loading) first: no test result means anything until setup passes.', 'Run one test file alone to see the setup error without the noise.'],
    lesson: 'A failing test setup hides every test: fix the setup before reading assertions.',
    sameError: IN_SETUP,
    question: 'What does the setup need (a service, a file, an environment variable) that is missing here?',
  },
  failing_assertion: {
    rootCause: 'A test assertion fails: the code computes a value the test does not expect.',
    category: 'logic_error',
    insights: ['Compare the expected and the actual value in the failing test and trace where the code computes the actual one.'],
    lesson: 'A failing assertion needs a change in logic (or in the test, if the test is wrong); re-running the same code gives the same result.',
    sameError: IN_CODE,
    question: 'Which input gives the wrong value, and which line of the code computes it?',
  },
  test_failure: {
    rootCause: 'Tests fail.',
    category: 'logic_error',
    insights: ['Focus on one failing test at a time, starting with the first.'],
    lesson: 'Fix one failing test at a time and watch the pass count.',
    sameError: IN_CODE,
    question: 'What does the first failing test check, and what does the code do instead?',
  },
  out_of_memory: {
    rootCause: 'The process ran out of memory or was killed.',
    category: 'configuration_error',
    insights: ['Reduce the workload or raise the limit (e.g. NODE_OPTIONS=--max-old-space-size).'],
    lesson: 'Out-of-memory failures need less work or more memory, not a retry.',
    sameError: IN_SETUP,
    question: 'What grows without bound in this run, and does it have to?',
  },
  connection_refused: {
    rootCause: 'Nothing accepts connections at that address: the service is not running, or listens on another host or port.',
    category: 'integration_error',
    insights: ['Start the service (or check that it started and did not exit), then confirm the host and port it listens on match the ones called.'],
    lesson: 'A refused connection repeats until something listens there: start or fix the service before retrying.',
    sameError: 'The same refusal twice: still nothing listens there. Start the service or fix the address; calling it again changes nothing.',
    question: 'Is the service I am calling running right now, on that host and port?',
  },
  dns: {
    rootCause: 'The host name does not resolve: a typo, a name only another network knows, or no DNS here.',
    category: 'integration_error',
    insights: ['Check the host name in the command or its configuration, and whether this machine can resolve it (offline, VPN, container network).'],
    lesson: 'A name that does not resolve will not resolve on retry: fix the name or the network.',
    sameError: ELSEWHERE,
    question: 'Is the host name right, and is it reachable from this machine’s network?',
  },
  tls: {
    rootCause: 'The TLS connection is refused: the certificate is not trusted, expired, or does not match the host.',
    category: 'integration_error',
    insights: ['Read which certificate check failed; install the right CA (or proxy certificate) instead of turning verification off.'],
    lesson: 'Certificate errors are fixed in the trust store or the server’s certificate, not by retrying.',
    sameError: ELSEWHERE,
    question: 'Which certificate does the server present here, and which CA should trust it?',
  },
  network: {
    rootCause: 'The network connection broke (reset, unreachable or timed out).',
    category: 'integration_error',
    insights: ['Check that the other side is reachable from here (proxy, VPN, firewall) and whether it is overloaded.'],
    lesson: 'Network failures depend on the other side: check it before retrying.',
    sameError: ELSEWHERE,
    question: 'Can this machine reach the other side at all right now?',
  },
  timeout: {
    rootCause: 'The command timed out.',
    category: 'integration_error',
    insights: ['Find what it waits on; raise the timeout only when the wait is legitimate.'],
    lesson: 'A timeout usually hides a dependency that never answers.',
    sameError: ELSEWHERE,
    question: 'What is it waiting for, and does that ever answer?',
  },
  dependency_conflict: {
    rootCause: 'Package versions conflict.',
    category: 'configuration_error',
    insights: ['Read which versions conflict and align them; avoid forcing installs blindly.'],
    lesson: 'Dependency conflicts are solved by choosing versions, not by retrying the install.',
    sameError: IN_SETUP,
    question: 'Which package asks for the conflicting version, and which version should win?',
  },
  compilation_error: {
    rootCause: 'The build fails to compile: the compiler or linker rejects the code.',
    category: 'incomplete_implementation',
    insights: ['Fix the first compiler error; later errors often follow from it. Re-run only after a change.'],
    lesson: 'Compile errors need a code change first.',
    sameError: IN_CODE,
    question: 'What does the first compiler error point at, and what did the last edit change there?',
  },
  unknown: {
    rootCause: 'The command fails; the output does not name a known cause.',
    category: 'other',
    insights: ['Run it once with more verbose output to see the real error.', 'Try a different approach rather than repeating this one.'],
    lesson: 'Without a clear error, get more information before retrying.',
    sameError: 'The same error twice, and its cause is not clear: get more information (verbose output, logs) before running it again.',
    question: 'What would tell me more about why it fails (verbose output, a log)?',
  },
};

/** The questions asked before the next run: two about repeating, one about this cause. */
export function questionsFor(category: ErrorCategory, question: string = ADVICE[category].question): string[] {
  return ['What specifically went wrong in the last attempt?', 'Am I repeating the same approach, or did I change what the error points at?', question];
}

/**
 * The cause of an approach's failures, from what recurs across its current streak (not only what
 * the last run printed): the recurring error's category, read from its signature and the end of
 * its output; when that says only "tests failed", the failing tests' own messages (an assertion,
 * a setup error) name the cause.
 */
export function approachCategory(a: Approach): ErrorCategory {
  const streak = currentStreak(a);
  const pool = streak.length ? streak : a.attempts;
  const cause = recurringError(pool);
  const attempt = cause?.attempt ?? [...pool].reverse().find(t => t.outcome === 'failure') ?? pool[pool.length - 1];
  const sig = cause?.signature || a.lastErrorSignature || attempt?.errorSignature || '';
  const tail = attempt?.output ? attempt.output.slice(-4000) : '';
  let category = errorCategory(sig ? `${sig}\n${tail}` : tail);
  const messages = (attempt?.testResults?.failures ?? []).map(f => f.message).filter(Boolean).join('\n');
  if ((category === 'unknown' || category === 'test_failure') && messages) {
    const byMessage = errorCategory(messages);
    if (byMessage !== 'unknown') category = byMessage;
  }
  if (category === 'unknown' && recurringTests(pool).length) category = 'test_failure';
  return category;
}

/** A category as a person names it ("a refused connection", not `connection_refused`). */
export const CATEGORY_NAMES: Record<ErrorCategory, string> = {
  missing_module: 'missing module',
  command_not_found: 'missing command',
  port_in_use: 'port already in use',
  permission_denied: 'permission error',
  auth_failure: 'authentication failure',
  missing_file: 'missing file',
  type_error: 'type error (compile time)',
  syntax_error: 'syntax error',
  runtime_error: 'runtime error',
  test_setup: 'test setup failure',
  failing_assertion: 'failing assertion',
  test_failure: 'test failure',
  out_of_memory: 'out-of-memory failure',
  connection_refused: 'refused connection',
  dns: 'DNS failure',
  tls: 'TLS certificate failure',
  network: 'network failure',
  timeout: 'timeout',
  dependency_conflict: 'dependency conflict',
  compilation_error: 'compile error',
  unknown: 'failure of unknown cause',
};
