// Wrappers (sudo, npx, python -m, uv run, timeout 30 ...), program aliases and the shell's bookkeeping words.

/** How a wrapper is peeled off: `sudo -u x CMD`, `pnpm exec CMD`, `python -m MOD`, `timeout 30 CMD`. */
export interface WrapperRule {
  /** It only wraps when followed by one of these words (pnpm exec, uv run, uv tool run). */
  sub?: string[];
  /** The wrapped program comes after this flag (python -m pytest); without `sub`, the flag is required. */
  programFlag?: string;
  /** Flags of the wrapper that take a value (sudo -u root). */
  valueFlags?: string[];
  /** Positionals of the wrapper itself before the program (timeout 30, direnv exec DIR). */
  skip?: number;
  /** Positionals before a later `--` belong to the wrapper (mise exec node@20 -- npm test). */
  doubleDash?: boolean;
  /** The wrapped program may be `name@version` (npx prisma@5). */
  versioned?: boolean;
}

const RUNNER: WrapperRule = { sub: ['run'] };

export const WRAPPERS: Record<string, WrapperRule> = {
  sudo: { valueFlags: ['-u', '-g', '-h', '-p', '-C', '-D', '-U', '-T', '-r', '-t', '--user', '--group', '--prompt', '--chdir', '--host'] },
  doas: { valueFlags: ['-u', '-C'] },
  time: { valueFlags: ['-f', '-o', '--format', '--output'] },
  env: { valueFlags: ['-u', '-C', '--unset', '--chdir'] },
  nice: { valueFlags: ['-n', '--adjustment'] },
  nohup: {},
  timeout: { skip: 1, valueFlags: ['-s', '-k', '--signal', '--kill-after'] },
  stdbuf: { valueFlags: ['-i', '-o', '-e'] },
  ionice: { valueFlags: ['-c', '-n'] },
  command: {},
  exec: { valueFlags: ['-a'] },
  caffeinate: { valueFlags: ['-t', '-w'] },
  chronic: {},
  unbuffer: {},
  winpty: {},
  xargs: { valueFlags: ['-n', '-I', '-L', '-P', '-d', '-s', '-a', '-E', '--max-args', '--replace', '--max-lines', '--max-procs', '--delimiter', '--arg-file', '--eof'] },
  'xvfb-run': { valueFlags: ['-s', '-n', '-e', '-f', '-p', '--server-args', '--server-num'] },
  npx: { versioned: true, valueFlags: ['-p', '--package', '-c', '--call', '-w', '--workspace'] },
  pnpx: { versioned: true },
  bunx: { versioned: true, valueFlags: ['-p', '--package'] },
  uvx: { versioned: true, valueFlags: ['--from', '--with', '--python', '-p'] },
  npm: { sub: ['exec', 'x'], versioned: true, valueFlags: ['-p', '--package', '-c', '--call', '-w', '--workspace', '--prefix'] },
  pnpm: { sub: ['exec', 'dlx'], versioned: true, valueFlags: ['--filter', '-F', '-C', '--dir', '--package'] },
  yarn: { sub: ['dlx', 'exec'], versioned: true, valueFlags: ['-p', '--package', '--cwd'] },
  bun: { sub: ['x'], versioned: true },
  python: { programFlag: '-m', valueFlags: ['-W', '-X'] },
  uv: { sub: ['run', 'tool run'], versioned: true, valueFlags: ['--with', '--python', '-p', '--directory', '--project', '--package', '--extra', '--group', '--env-file', '--index', '--index-url', '--from'] },
  poetry: { sub: ['run'], valueFlags: ['-C', '--directory', '-P', '--project'] },
  pipenv: RUNNER,
  pdm: RUNNER,
  hatch: RUNNER,
  rye: RUNNER,
  pipx: { sub: ['run'], versioned: true, valueFlags: ['--spec', '--python'] },
  conda: { sub: ['run'], valueFlags: ['-n', '--name', '-p', '--prefix', '--cwd'] },
  mamba: { sub: ['run'], valueFlags: ['-n', '--name', '-p', '--prefix', '--cwd'] },
  micromamba: { sub: ['run'], valueFlags: ['-n', '--name', '-p', '--prefix', '--cwd'] },
  coverage: { sub: ['run'], programFlag: '-m', valueFlags: ['--source', '--rcfile', '--omit', '--include'] },
  bundle: { sub: ['exec'] },
  dotenv: { valueFlags: ['-e', '-c', '-v', '-f'] },
  dotenvx: { sub: ['run'], valueFlags: ['-f', '--env-file', '-e', '--env'] },
  'cross-env': {},
  'cross-env-shell': {},
  op: { sub: ['run'], valueFlags: ['--env-file'] },
  doppler: { sub: ['run'], valueFlags: ['-p', '--project', '-c', '--config'] },
  infisical: { sub: ['run'], valueFlags: ['--env', '--path'] },
  mise: { sub: ['exec', 'x'], doubleDash: true },
  direnv: { sub: ['exec'], skip: 1 },
  nvm: { sub: ['exec'], skip: 1 },
  nyc: { valueFlags: ['-r', '--reporter', '--report-dir', '-n', '--include', '-x', '--exclude'] },
  c8: { valueFlags: ['-r', '--reporter', '--reports-dir', '-o', '-n', '--include', '-x', '--exclude'] },
};

/** Program name aliases (after lowercasing and stripping .exe/.cmd/.bat). A space adds a leading argument. */
export const PROGRAM_ALIASES: Record<string, string> = {
  py: 'python', nodejs: 'node', gradlew: 'gradle', mvnw: 'mvn', yarnpkg: 'yarn', 'py.test': 'pytest',
  'docker-compose': 'docker compose', 'podman-compose': 'podman compose', 'cucumber-js': 'cucumber',
  sls: 'serverless', 'webpack-cli': 'webpack', rtx: 'mise',
};

/** Commands that do not define the approach when something else runs on the same line (npm test && echo ok). */
export const NOISE = new Set([
  'echo', 'printf', 'true', ':', 'exit', 'return', 'export', 'set', 'unset', 'source', '.', 'clear', 'cls', 'sleep',
  'pwd', 'popd', 'read', 'wait', 'write-host', 'write-output', 'echo.', 'rem', '@echo', 'setlocal', 'endlocal',
  'title', 'deactivate', 'activate', 'then', 'do', 'done', 'fi', 'else', '{', '}', '!', 'alias', 'shopt', 'trap',
  'ulimit', 'umask', 'hash', 'history', 'reset', 'tput', 'local', 'declare', 'typeset',
]);

/** Folder changes, folded into the approach's folder. */
export const CD = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl']);

/** First pipeline stages that only feed the real command (echo y | npx prisma migrate reset). */
export const FEEDERS = new Set(['echo', 'printf', 'yes', 'cat', 'type', 'get-content', 'gc', 'write-output']);
