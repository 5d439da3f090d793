// The arguments that are the work: flags, wrappers, env and quoting fold together, but
// WHAT a run acts on stays in its approach key when it changes the outcome. Each rule names the
// behaviour it captures; all are measured on real agent histories (bench/judgement.mjs).

import { trimTrailing } from './paths';
/** Test runners whose positional file arguments name the tests run. */
const TEST_RUNNERS = new Set(['pytest', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'rspec', 'phpunit', 'pest', 'behave', 'jasmine']);
/** A test file argument (a file, not a folder): tests/test_api.py, test/api.test.ts, spec/models/user_spec.rb. */
const TEST_FILE_RE = /(^|\/)(test_[^/]*|[^/]*_test|[^/]*[._](test|spec)|[^/]*_spec)\.[a-z]+$|(^|\/)(tests?|spec|__tests__)\/(.*\/)?[^/]+\.[a-z]+$/i;
/** Charge marker for approachKey: the failure belongs to the line's test step (`npm test && npm run build` with failing tests). */
export const CHARGE_TESTS = '@tests';

/** A test command: a test runner, a `test` subcommand (npm test, cargo test, go test), a test script (runtests.py). */
export function isTestCommand(program: string, significant: readonly string[]): boolean {
  if (TEST_RUNNERS.has(program)) return true;
  if (significant[0] === 'test' || (significant[0] === 'run' && /test/i.test(significant[1] ?? ''))) return true;
  return /(^|\/)(run)?tests?[^/]*\.[a-z]+$|_test\.[a-z]+$/i.test(significant[0] ?? '');
}

const HELP_FLAGS = new Set(['--help', '-h', '-help', 'help', '--version', '-V', '--usage']);
const MAX_WORK = 3;

function isFlagWord(w: string): boolean {
  return w.length > 1 && w[0] === '-';
}

/** `--help`/`-h`/`--version` runs ask about the tool; they never count with real runs of it. */
export function isHelpRun(args: readonly string[]): boolean {
  return args.some(a => HELP_FLAGS.has(a)) && args.filter(a => !isFlagWord(a)).length <= 2;
}

/** Modules a `python -c` / `node -e` payload imports (sorted), else its first statement, cut short. */
export function payloadKey(payload: string): string {
  const mods = new Set<string>();
  for (const m of payload.matchAll(/(?:^|[;\n]|\s)(?:from\s+([\w.]+)\s+import|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))/g)) {
    const names = m[1] ?? m[2] ?? '';
    for (const n of names.split(',')) if (n.trim()) mods.add(n.trim().split('.')[0]);
  }
  for (const m of payload.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)|from\s+['"]([^'"]+)['"]/g)) mods.add(m[1] ?? m[2]);
  if (mods.size) return `import:${[...mods].sort().slice(0, 6).join(',')}`;
  const first = payload.trim().split(/[;\n]/)[0].replace(/\s+/g, ' ').trim();
  return first.slice(0, 40);
}

/** Ports a URL need not name: its scheme's own. */
const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443', ws: '80', wss: '443', ftp: '21' };

/**
 * `https://host:8080/a/b?q=1` -> `https://host:8080/a/b`: the scheme, host, port and path are where a
 * call goes (a refused :9 and a listening :3000 are two approaches; a pass on one says nothing of the
 * other); the query, the fragment, a user and the scheme's default port fold. No scheme: http, as curl.
 */
export function urlWork(arg: string): string | undefined {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/\s:?#@]+@)?([A-Za-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}))?(\/[^?#\s]*)?/i.exec(arg);
  if (!m) return undefined;
  const [, rawScheme, , rawHost, port, urlPath] = m;
  const host = rawHost.toLowerCase();
  if (!rawScheme && !host.includes('.') && host !== 'localhost' && !port) return undefined;
  if (!/[.:]|^localhost$/.test(host) && !port) return undefined;
  const scheme = (rawScheme ?? 'http').toLowerCase();
  const shownPort = port && port.replace(/^0+(?=\d)/, '') !== DEFAULT_PORT[scheme] ? `:${port.replace(/^0+(?=\d)/, '')}` : '';
  return `${scheme}://${host}${shownPort}${trimTrailing(urlPath ?? '')}`.slice(0, 120);
}

function positionals(args: readonly string[], valueFlags: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') continue;
    if (isFlagWord(a)) {
      if (!a.includes('=') && valueFlags.includes(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * Extra significant words for `program` run with `args` (after the family rule), or [] when the
 * family's own significant words say it all.
 */
export function workArguments(program: string, args: readonly string[], significant: readonly string[]): string[] {
  // test runners: another test file is another approach (an exhausted test_api.py does not block test_models.py)
  if (TEST_RUNNERS.has(program)) {
    const files = [...new Set(positionals(args, ['-k', '-m', '-p', '-c', '-o', '--config', '-t', '--testNamePattern', '--reporter']).map(a => a.split('::')[0]).filter(a => TEST_FILE_RE.test(a)))];
    return files.sort().slice(0, MAX_WORK);
  }
  switch (program) {
    // python -c / node -e: the snippet's imports are the work (a diagnostic `import sys` is not the failing `import foo`)
    case 'python':
    case 'node':
    case 'ruby':
    case 'perl':
    case 'deno':
    case 'bun': {
      const i = args.findIndex(a => a === '-c' || a === '-e' || a === '--eval' || a === '-p' || a === '--print' || a === '-E');
      return i >= 0 && args[i + 1] !== undefined ? [args[i], payloadKey(args[i + 1])] : [];
    }
    // curl/wget: the URL's scheme, host, port and path are the work (curl URL_A and curl URL_B are two approaches)
    case 'curl':
    case 'wget':
    case 'http':
    case 'https':
    case 'xh': {
      const url = positionals(args, ['-o', '-O', '-H', '-d', '-X', '-u', '-A', '-e', '-b', '-c', '-w', '-m', '--output', '--header', '--data', '--request', '--user', '--max-time', '--connect-timeout', '--retry', '-T', '--form', '-F']).map(urlWork).find(Boolean);
      return url ? [url] : [];
    }
    // ssh/scp/rsync: the host is the work (ssh host1 and ssh host2 are two approaches)
    case 'ssh': {
      const host = positionals(args, ['-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-E', '-c', '-m', '-b', '-S', '-W', '-w', '-Q', '-O'])[0];
      return host ? [host.replace(/^[^@]*@/, '').slice(0, 60)] : [];
    }
    default:
      break;
  }
  // kubectl/oc apply|create|delete -f FILE: the applied file is the work
  if ((program === 'kubectl' || program === 'oc') && ['apply', 'create', 'delete', 'replace'].includes(significant[0] ?? '')) {
    const i = args.findIndex(a => a === '-f' || a === '--filename' || a.startsWith('--filename=') || a.startsWith('-f='));
    const f = i >= 0 ? (args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1]) : undefined;
    return f ? [f.slice(0, 100)] : [];
  }
  // git push REMOTE BRANCH: where it pushes is the work (origin main and origin feature are two approaches)
  if (program === 'git' && significant[0] === 'push') {
    return positionals(args, ['-o', '--push-option', '--repo', '--receive-pack', '--exec']).slice(1, 3);
  }
  return [];
}
