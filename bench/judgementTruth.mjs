// Ground truth of the judgement benchmark (bench/judgement.mjs): command families, error lines and
// stuck runs, defined from the corpus alone, independently of the product's approach keys (src/core).
// See the definitions in the header of bench/judgement.mjs.

const INTERRUPTS = new Set([129, 130, 131, 143, 148]);

export const outcome = code => (code === null || code === undefined ? 'unknown' : code === 0 ? 'success' : INTERRUPTS.has(code) ? 'interrupted' : 'failure');

const BOOKKEEPING = new Set(['cd', 'pushd', 'popd', 'echo', 'printf', 'export', 'source', '.', 'set', 'unset', 'true', ':', 'sleep', 'clear', 'pwd', 'exit', 'wait']);
const PEEL = new Set(['sudo', 'env', 'time', 'nohup', 'timeout', 'command', 'exec', 'stdbuf', 'xvfb-run']);
const INTERPRETERS = new Set(['python', 'node', 'bash', 'sh', 'zsh', 'ruby', 'perl', 'php', 'deno', 'bun', 'ts-node', 'tsx']);
const TEST_RUNNERS = new Set(['pytest', 'jest', 'vitest', 'mocha', 'rspec', 'phpunit']);
const SUBCOMMANDS = new Set(['git', 'npm', 'npx', 'yarn', 'pnpm', 'pip', 'uv', 'poetry', 'cargo', 'go', 'docker', 'kubectl', 'apt', 'apt-get', 'conda', 'make', 'dotnet', 'gradle', 'mvn', 'brew', 'systemctl', 'service', 'django-admin', 'flask', 'rails', 'bundle', 'gem', 'helm', 'terraform', 'jupyter']);

function splitTop(line) {
  // split on && || ; newlines (outside quotes); keep only the first stage of each pipeline
  const elements = [];
  let cur = '';
  let quote = '';
  let inPipeTail = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      if (!inPipeTail) cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      if (!inPipeTail) cur += c;
      continue;
    }
    const two = line.slice(i, i + 2);
    if (two === '&&' || two === '||' || c === ';' || c === '\n') {
      elements.push(cur);
      cur = '';
      inPipeTail = false;
      if (two === '&&' || two === '||') i++;
      continue;
    }
    if (c === '|') {
      inPipeTail = true;
      continue;
    }
    if (!inPipeTail) cur += c;
  }
  elements.push(cur);
  return elements;
}

function programHead(element) {
  const words = element.trim().split(/\s+/).filter(Boolean).map(w => w.replace(/^['"]|['"]$/g, ''));
  let i = 0;
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || PEEL.has(words[i]) || (words[i - 1] === 'timeout' && /^\d/.test(words[i])))) i++;
  if (i >= words.length) return '';
  let prog = words[i].replace(/^.*\//, '').toLowerCase().replace(/^(python|pip)\d+(\.\d+)*$/, '$1');
  let rest = words.slice(i + 1);
  if (prog === 'python' && words[i + 1] === '-m' && words[i + 2]) {
    // python -m MODULE runs the module as a program
    prog = words[i + 2].toLowerCase();
    rest = words.slice(i + 3);
  }
  if (BOOKKEEPING.has(prog) || prog === '' || prog.startsWith('<') || prog.startsWith('>')) return '';
  if (INTERPRETERS.has(prog)) {
    const first = rest.find(w => !w.startsWith('-') || w === '-c' || w === '-e');
    return first ? `${prog} ${first === '-c' || first === '-e' ? first : first.replace(/^\.\//, '')}` : prog;
  }
  if (TEST_RUNNERS.has(prog)) {
    // for a test runner the test files are what runs, as the script is for an interpreter
    const files = [...new Set(rest.filter(w => !w.startsWith('-') && /\.[a-z]+(::|$)/i.test(w)).map(w => w.split('::')[0]))].sort();
    return [prog, ...files].join(' ');
  }
  if (SUBCOMMANDS.has(prog)) {
    const sub = rest.find(w => !w.startsWith('-'));
    return sub && /^[a-z][\w:.-]*$/i.test(sub) ? `${prog} ${sub}` : prog;
  }
  return prog;
}

export function family(command) {
  const heads = splitTop(command).map(programHead).filter(Boolean);
  return heads.join(' ; ') || command.trim().split(/\s+/)[0] || '';
}

const ERRORISH = /error|exception|traceback|failed|failure|fatal|not found|no such file|cannot|can't|could not|denied|refused|invalid|undefined|timed out|abort|segmentation|killed|unable/i;

/** Rulers and test-count summary lines (pytest's bar, unittest's `FAILED (errors=1)`): never an error line. */
const SUMMARY_BAR = /^[=_-]{3,}|^FAILED \((?:failures|errors|skipped|expected failures)=[^)]*\)$|^Ran \d+ tests? in |^(?:\d+ (?:failed|passed|errors?|skipped|warnings?)[, ]*)+(?:in [\d.]+s)?$/i;

export function errorLine(output) {
  const lines = (output ?? '').split('\n').map(l => l.trim()).filter(Boolean);
  let pick = '';
  for (let i = lines.length - 1; i >= 0; i--) {
    // a test run's summary bar ("=== 2 failed, 5 passed in 0.3s ===") says that tests failed, not which error
    if (SUMMARY_BAR.test(lines[i])) continue;
    if (ERRORISH.test(lines[i])) {
      pick = lines[i];
      break;
    }
  }
  if (!pick) pick = lines[lines.length - 1] ?? '';
  return pick
    .toLowerCase()
    .replace(/\/tmp\/[^\s'"]*/g, '/tmp/<p>')
    .replace(/0x[0-9a-f]+/g, '<h>')
    .replace(/\d+(\.\d+)*/g, '<n>')
    .replace(/\s+/g, ' ')
    .slice(0, 200);
}

/** Indices of the stuck runs of one trajectory at threshold n. */
export function stuckRuns(commands, n) {
  const history = new Map(); // family -> outcomes since the last success: [{error}]
  const stuck = new Set();
  commands.forEach((c, index) => {
    const o = outcome(c.exitCode);
    if (o !== 'success' && o !== 'failure') return;
    const fam = family(c.command);
    const streak = history.get(fam) ?? [];
    if (o === 'success') {
      history.set(fam, []);
      return;
    }
    const err = errorLine(c.output);
    // the budget of n failures is spent, and this error is the one of the previous failure and was seen twice already
    if (err && streak.length >= n && streak[streak.length - 1] === err && streak.filter(e => e === err).length >= 2) stuck.add(index);
    streak.push(err);
    history.set(fam, streak);
  });
  return stuck;
}


// ---- waiting on a background job (`sleep 30; tail log`: not a failure streak), defined from the corpus alone ----

/** Programs that only look (at a job's log, its process, its output file) or wait. */
const INSPECTORS = new Set(['ps', 'pgrep', 'tail', 'head', 'cat', 'less', 'ls', 'grep', 'egrep', 'fgrep', 'rg', 'wc', 'date', 'sleep', 'echo', 'printf', 'find', 'du', 'df', 'stat', 'nvidia-smi', 'jq', 'watch', 'free', 'uptime', 'top', 'pwd', 'cd', 'true', 'test', '[', 'sort', 'uniq', 'awk', 'cut', 'tr', 'wait']);

/** A line that only inspects or waits: every program of it is an inspector, and nothing is written with `>`. */
export function inspectsOnly(command) {
  if (/(^|[^>&2])>(?!&)\s*(?!\/dev\/null)[^\s&|;]/.test(command.replace(/2>&1|>&2|&>\/dev\/null|>\s*\/dev\/null/g, ''))) return false;
  const stages = command.split(/&&|\|\||[;\n|]/).map(s => s.trim()).filter(Boolean);
  return stages.length > 0 && stages.every(s => {
    const words = s.split(/\s+/).filter(w => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    const prog = (words[0] ?? '').replace(/^.*\//, '');
    return INSPECTORS.has(prog);
  });
}

/** A line that launches something in the background: `cmd &`, nohup, setsid, or a run whose end the harness never saw. */
export function launchesJob(c) {
  if (c.exitCode === null || c.exitCode === undefined) return !inspectsOnly(c.command);
  return /(^|[^&>|])&\s*($|\n|;|echo|disown)/m.test(c.command.replace(/&&|&>|>&\d?|\d?>&\d/g, ' ')) || /\b(nohup|setsid|disown)\b|screen -dm|tmux new(-session)? -d/.test(c.command);
}

/** Commands of the replay per 10 minutes (its clock moves 10 s per event): the wait the issue bounds. */
export const WAIT_COMMANDS = 60;

/** A line that waits before it looks: `sleep 30`, `wait`, `watch`, `tail -f`. */
export function waitsFirst(command) {
  return /(^|[;&|\n]\s*)(sleep\s+\d*\.?\d+[smh]?\b|wait\b|watch\b)|\btail\s+(-[a-zA-Z]*[fF]|--follow)/.test(command);
}

/** Indices of the runs that wait, then inspect a job launched within the WAIT_COMMANDS commands before them. */
export function waitingRuns(commands) {
  const waiting = new Set();
  let lastLaunch = -Infinity;
  commands.forEach((c, i) => {
    if (inspectsOnly(c.command) && waitsFirst(c.command) && i - lastLaunch <= WAIT_COMMANDS) waiting.add(i);
    if (launchesJob(c)) lastLaunch = i;
  });
  return waiting;
}
