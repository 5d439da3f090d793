// Progress is not a loop, part two: a status probe polled while something starts
// (`curl localhost:3000/health` until the dev server answers, `pg_isready` until the database
// accepts connections, `kubectl wait`/`rollout status` while pods come up) fails many times in a
// row by design. Blocking it would stop the very waiting that works.
//
// The rule is deliberately narrow. An exhausted approach is "being polled" (warned, not blocked)
// only when ALL of these hold:
//   1. the command is a read-only status probe (PROBES below: HTTP GETs, port/readiness checks,
//      kubectl/docker status queries, CI run status); anything that changes state is never a poll;
//   2. every failure of the current streak in the short-term window says "not there yet":
//      connection refused/reset, nothing listening, a timeout, an empty reply, HTTP 502/503/504,
//      "not ready"/"starting"/Pending, or (for the silent probes nc -z, pg_isready, redis-cli,
//      mysqladmin) no output at all. An auth error, a 404, "command not found" or a TLS error is a
//      real error that waiting does not fix;
//   3. the polls are close together: at most POLL_MAX_GAP_MS between consecutive failures;
//   4. the streak is young: its first failure (or the latest start of what it waits for, when that came
//      later) is less than POLL_WINDOW_MS old. A service that has not come up after that is not
//      "starting", it is broken: the approach is blocked as usual;
//   5. (checked by the policy, ./policy.ts) something it waits for was started: a background job or a
//      service command. A dead endpoint polled with nothing starting is a loop.
// Failures far apart in time are NOT exempt: a command that has failed every time for days is
// still a loop (rule 3 makes sure of that).

import { parseCommand } from '../approach';
import { errorCategory } from '../text/signature';
import type { Approach, Attempt } from '../types';

/** Longest a failing poll streak counts as "waiting for something to start". */
export const POLL_WINDOW_MS = 10 * 60 * 1000;
/** Longest gap between two polls of one streak. */
export const POLL_MAX_GAP_MS = 2 * 60 * 1000;

export interface PollingVerdict {
  polling: boolean;
  reason: string;
}

/** Probes that fail silently (exit code only) while the service is down. */
const SILENT_PROBES = new Set(['nc', 'ncat', 'pg_isready', 'redis-cli', 'mysqladmin', 'test']);

// Flags that send data or change the method (case matters: curl -f is not -F, -d is not -D).
const CURL_WRITES = /\s-(?!-)[A-Za-z]*[dFT]|\s--(?:data|form|upload-file|json)\b|\s(?:-X\s*|--request[=\s]+)(?!GET\b|HEAD\b)[A-Za-z]/;
const WGET_WRITES = /\s--(?:post-data|post-file|body-data|body-file|method[=\s]+(?!GET\b|HEAD\b))/;

const PIPE_TO_SHELL = /\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\|\s*(?:sudo\s+)?(?:python\d?|node|perl|ruby)\b/;

/** A read-only status probe: checking whether something is up, never changing anything. */
export function isStatusProbe(commandLine: string): boolean {
  const p = parseCommand(commandLine);
  const sub = p.significant.join(' ');
  const line = ` ${commandLine} `;
  switch (p.program) {
    // GET/HEAD only: methods, data and uploads change state; `curl … | sh` runs what it fetches
    case 'curl':
      return !CURL_WRITES.test(line) && !PIPE_TO_SHELL.test(line);
    case 'wget':
      return !WGET_WRITES.test(line) && !PIPE_TO_SHELL.test(line);
    case 'http':
    case 'https':
    case 'xh': {
      // httpie/xh: `[METHOD] URL` only; any request item (a=1, a:=1, @file) makes it a write
      const args = commandLine.trim().split(/\s+/).slice(1).filter(a => !a.startsWith('-'));
      const [first, ...rest] = /^(?:GET|HEAD)$/.test(args[0] ?? '') ? args.slice(1) : args;
      return !!first && rest.length === 0 && !/^[A-Z]+$/.test(first) && !PIPE_TO_SHELL.test(line);
    }
    case 'nc':
    case 'ncat':
      return /\s-\w*z/.test(line);
    case 'pg_isready':
      return true;
    case 'redis-cli':
      return /^ping\b/.test(sub) || /\sping(\s|$)/i.test(line);
    case 'mysqladmin':
      return /\sping(\s|$)/.test(line) || /^ping\b/.test(sub);
    case 'kubectl':
    case 'oc':
      return /^(?:get|describe|wait|top|rollout status|logs)\b/.test(sub) || /\srollout\s+status\s/.test(line);
    case 'docker':
    case 'podman':
      return /^(?:ps|inspect|logs|compose ps|container ls|container inspect|healthcheck)\b/.test(sub) || /\scompose\s+ps(\s|$)/.test(line);
    case 'docker-compose':
      return /^ps\b/.test(sub) || /\sps(\s|$)/.test(line);
    case 'systemctl':
      return /^(?:is-active|status)\b/.test(sub) || /\s(?:is-active|status)(\s|$)/.test(line);
    case 'gh':
      return /^(?:run (?:view|watch|list)|pr checks)\b/.test(sub) || /\s(?:run\s+(?:view|watch|list)|pr\s+checks)(\s|$)/.test(line);
    default:
      return false;
  }
}

/** Errors that mean "not up yet" rather than "wrong". */
const NOT_YET =
  /\bECONNREFUSED\b|Connection refused|\bECONNRESET\b|Connection reset|Failed to connect to|Couldn't connect to server|Could not connect to|connect(?:ion)? timed out|\bETIMEDOUT\b|Operation timed out|timed out waiting for the condition|Empty reply from server|Recv failure|no response|not ready|is starting|starting up|\bPending\b|ContainerCreating|PodInitializing|rejecting connections|Service Unavailable|Bad Gateway|Gateway Time-?out|(?:returned error|HTTP\/[\d.]+|status(?: code)?)[:\s]+50[234]\b|\b50[234] (?:Service Unavailable|Bad Gateway|Gateway Timeout)|is not running|No such container/i;
/** Errors that waiting does not fix, even when NOT_YET also matches. */
const REAL_ERROR = /command not found|not found: |(?:returned error|HTTP\/[\d.]+|status(?: code)?)[:\s]+4\d\d\b|\b4\d\d (?:Bad Request|Unauthorized|Forbidden|Not Found)|Unauthori[sz]ed|Forbidden|certificate|\bSSL\b|\bTLS\b|Could not resolve host|Name or service not known|Unknown option|invalid option|unrecognized option|usage:|error: unknown|exceeded its progress deadline|CrashLoopBackOff|ImagePullBackOff|ErrImagePull/i;

function saysNotYet(t: Attempt, program: string): boolean {
  const text = `${t.errorSignature}\n${t.output.slice(-4000)}`.trim();
  if (!text) return SILENT_PROBES.has(program);
  if (REAL_ERROR.test(text)) return false;
  if (NOT_YET.test(text)) return true;
  const category = errorCategory(text);
  return category === 'timeout';
}

/**
 * Is this exhausted approach a status probe being polled while something starts?
 * Conservative: any doubt answers no (and the approach is blocked as usual).
 */
export function pollingStatus(a: Approach, now: Date = new Date(), startedAt?: number): PollingVerdict {
  const no = (reason: string): PollingVerdict => ({ polling: false, reason });
  if (!isStatusProbe(a.command)) return no('not a read-only status probe');
  // the current failing streak, as far as the short-term window holds it
  const streak: Attempt[] = [];
  for (let i = a.attempts.length - 1; i >= 0; i--) {
    const t = a.attempts[i];
    if (t.outcome === 'success') break;
    if (t.outcome === 'failure') streak.unshift(t);
  }
  // a restart of what it waits for starts the wait again: only the polls since count
  if (startedAt !== undefined) streak.splice(0, streak.length, ...streak.filter(t => Date.parse(t.timestamp) >= startedAt));
  else if (streak.length < 2) return no('too few failures in the window to tell');
  const program = parseCommand(a.command).program;
  if (!streak.every(t => isStatusProbe(t.command) && saysNotYet(t, program))) return no('a failure says something other than "not up yet"');
  const times = streak.map(t => Date.parse(t.timestamp));
  if (times.some(Number.isNaN)) return no('attempt times unknown');
  for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] > POLL_MAX_GAP_MS) return no('the failures are far apart: not a poll');
  const parsedFirst = a.firstFailure ? Date.parse(a.firstFailure) : times[0];
  const first = Number.isNaN(parsedFirst) ? times[0] : parsedFirst;
  // a restart of what it waits for starts the bounded wait again
  const age = now.getTime() - (startedAt !== undefined && startedAt > first ? startedAt : first);
  if (age > POLL_WINDOW_MS) return no(`polled for ${Math.round(age / 60000)} min without success: whatever it waits for is not starting`);
  if (times.length && now.getTime() - times[times.length - 1] > POLL_MAX_GAP_MS) return no('the last poll is old: not a poll in progress');
  return {
    polling: true,
    reason: `a status probe polled while what it waits for starts (${streak.length} "not up yet" failures, ${Math.max(1, Math.round(age / 1000))} s): waiting is not a loop; stopped if still failing after ${POLL_WINDOW_MS / 60000} min`,
  };
}
