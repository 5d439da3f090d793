// Advice for this failure, not for its kind: the port, module, file, address or program the error
// names goes into the steps ("lsof -i :8080", not ":PORT"; install “left-pad”), and the repeat is
// counted as it came ("The same error 5 times", not "twice" when it came five times). Where the
// error names nothing, the kind's own words (./advice.ts) are used as they are: never a placeholder.

import { ADVICE, approachCategory, type Advice } from './advice';
import { approachCounts } from '../rules/counts';
import type { ErrorCategory } from './signature';
import type { Approach } from '../types';

/** What an error names: the port in use, the module or file missing, the address refused, the program not found. */
export interface ErrorSubject {
  port?: string;
  module?: string;
  file?: string;
  address?: string;
  program?: string;
}

const first = (text: string, res: RegExp[]): string | undefined => {
  for (const re of res) {
    const m = re.exec(text);
    if (m) return m.slice(1).filter(Boolean).join(':');
  }
  return undefined;
};

/** The subject of an error, from its printed lines (bounded: each pattern reads one line). */
export function errorSubject(text: string): ErrorSubject {
  const s: ErrorSubject = {};
  const port = first(text, [/EADDRINUSE[^\n]{0,80}?:(\d{2,5})\b/, /address already in use[^\n]{0,80}?:(\d{2,5})\b/i, /\bport (\d{2,5}) is (?:already )?(?:in use|allocated)/i, /\bbind[^\n]{0,40}?:(\d{2,5})\b[^\n]{0,40}in use/i]);
  if (port) s.port = port;
  const module = first(text, [/Cannot find (?:module|package) ['"]([^'"\n]{1,200})['"]/, /No module named ['"]?([\w.-]{1,200})/, /Module not found: (?:Error: )?Can't resolve ['"]([^'"\n]{1,200})['"]/, /cannot load such file -- ([^\s]{1,200})/]);
  if (module) s.module = module;
  const file = first(text, [/ENOENT[^\n]{0,80}?['"]([^'"\n]{1,300})['"]/, /EACCES[^\n]{0,80}?['"]([^'"\n]{1,300})['"]/, /can't open file ['"]([^'"\n]{1,300})['"]/, /(?:^|\n)(?:[\w.-]+: )?([^\s:'"][^\n:'"]{0,300}): No such file or directory/, /(?:^|\n)(?:[\w.-]+: )?([^\s:'"][^\n:'"]{0,300}): Permission denied/]);
  if (file) s.file = file;
  const address = first(text, [/ECONNREFUSED ([\w.:[\]-]{1,200}:\d{1,5})\b/, /Failed to connect to ([\w.:[\]-]{1,200}) port (\d{1,5})/, /Connection refused[^\n]{0,40}?([\w.-]{1,200}):(\d{1,5})/]);
  if (address) s.address = address;
  const program = first(text, [/(?:^|\n)(?:[\w/.-]+: (?:line \d+: )?)?([\w.+-]{1,100}): (?:command )?not found/, /command not found: ([\w.+-]{1,100})/, /'([\w.+-]{1,100})' is not recognized as an internal or external command/]);
  if (program) s.program = program;
  return s;
}

/** The steps and the question of a kind of failure, with what this error names put in. */
function specific(category: ErrorCategory, s: ErrorSubject): Partial<Advice> {
  switch (category) {
    case 'port_in_use':
      return s.port
        ? {
            insights: [`Find and stop the process holding port ${s.port} (lsof -i :${s.port}), or start on another port.`],
            lesson: `EADDRINUSE: free port ${s.port} or change it before retrying.`,
            question: `Which process holds port ${s.port}, and should it keep running?`,
          }
        : { insights: ['Find the process holding the port the error names (lsof -i followed by that port) and stop it, or start on another port.'] };
    case 'missing_module':
      return s.module
        ? {
            insights: [`Install “${s.module}” in the project that runs the command (check which package.json / virtualenv is active).`, ADVICE.missing_module.insights[1]],
            question: `Which project, lockfile or environment should “${s.module}” be installed in?`,
          }
        : {};
    case 'missing_file':
      return s.file
        ? {
            insights: [`Check the path “${s.file}” and the working folder; generate or create the file first if it is a build output.`],
            question: `Which step is supposed to create “${s.file}”, and did it run in this folder?`,
          }
        : {};
    case 'permission_denied':
      return s.file ? { insights: [`Check the ownership and mode of “${s.file}”; avoid sudo as a blind fix.`], question: `Who owns “${s.file}”, and should this command write there at all?` } : {};
    case 'connection_refused':
      return s.address
        ? {
            insights: [`Start the service that should listen on ${s.address} (or check that it started and did not exit), then confirm that it listens on that host and port.`],
            question: `Is the service I am calling running right now, on ${s.address}?`,
          }
        : {};
    case 'command_not_found':
      return s.program
        ? {
            insights: [`Install “${s.program}” or run it through the project (npx, python -m, ./node_modules/.bin).`, 'Check PATH in this terminal.'],
            question: `Where is “${s.program}” supposed to come from, and is that on PATH here?`,
          }
        : {};
    default:
      return {};
  }
}

const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/** The repeat worded for its cause, counted as it came: "The same error 5 times: …". */
export function sameErrorText(category: ErrorCategory, count: number): string {
  return ADVICE[category].sameError.replace(/^The same (error|refusal) twice\b/, (_, what: string) => `The same ${what} ${times(Math.max(2, count))}`);
}

/**
 * The advice for an approach's failures: its kind's (./advice.ts, from what recurs across the
 * streak), with what the error names put into the steps and the question, and the repeat counted.
 */
export function adviceFor(a: Approach, threshold: number): Advice & { errorCategory: ErrorCategory } {
  const category = approachCategory(a);
  const counts = approachCounts(a, threshold);
  const lastFailure = [...a.attempts].reverse().find(t => t.outcome === 'failure');
  const text = [counts.recurring?.text, counts.last?.text, lastFailure?.output.slice(-4000)].filter(Boolean).join('\n');
  const base = ADVICE[category] ?? ADVICE.unknown;
  return { ...base, ...specific(category, errorSubject(text)), sameError: sameErrorText(category, counts.recurring?.times ?? 2), errorCategory: category };
}
