// Approach identity: when are two command lines "the same approach" (seed 001: same base command, other flags)?
// Pure TypeScript: no vscode, no fs. Every function here is linear in its input and never throws.
//
// A command line is lexed shell-like, split into list elements (&& || ; & newlines), the first useful stage
// of each pipeline is kept, `cd X` elements become a folder change, and the last remaining element is
// parsed: leading VAR=value words and wrappers (sudo, npx, python -m, uv run, ...) are peeled off, the
// program name is canonicalized, and its family rule (one table entry per CLI) decides which positional
// arguments change WHAT is run. Flags and flag values never do.

export interface ParsedCommand {
  /** Leading VAR=value names (names only, values dropped). */
  env: string[];
  /** Wrappers peeled off, outermost first: 'sudo', 'npx', 'time', 'python -m', './node_modules/.bin/' ... */
  wrappers: string[];
  /** Canonical program name, e.g. 'prisma', 'pytest', 'npm', 'git', 'make' (a script path for `./deploy.sh`). */
  program: string;
  /** Positional args that change WHAT is run (subcommands, package names, script names, make targets). */
  significant: string[];
  /** program + significant joined with a space, e.g. 'prisma generate', 'npm run build'. */
  label: string;
  /** If the line was `cd X && cmd`, the X (several cds are joined), so the caller can fold it into the folder. */
  cwdChange?: string;
}

// ---------------------------------------------------------------------------------------------
// The family table: a new CLI family is one entry.
// ---------------------------------------------------------------------------------------------

/** What later positionals are after a subcommand: install targets (sorted set), make targets (in order), one name. */
type TargetKind = 'packages' | 'ordered' | 'one';

interface FamilyRule {
  /** Leading positionals that name the subcommand (git push -> 1). Default 0. */
  subcommands?: number;
  /** Aliases of the first subcommand word: npm i -> install. */
  aliases?: Record<string, string>;
  /** Extra subcommand depth after a subcommand path: docker { compose: 1 } -> 'docker compose up'. */
  nested?: Record<string, number>;
  /** Subcommand paths ('' = the program itself) whose later positionals are significant. */
  targets?: Record<string, TargetKind>;
  /** Flags that take a separate value, added to GENERAL_VALUE_FLAGS. A trailing '#' = only when the value is a number (make -j 4). */
  valueFlags?: string[];
  /** Flags of GENERAL_VALUE_FLAGS that are booleans for this family (npm -f, git -p). */
  boolFlags?: string[];
  /** Runs a script: the first positional (unless it is one of `builtins`) is significant (node app.js). */
  interpreter?: boolean;
  /** Words that are subcommands rather than scripts (bun test) or package scripts (yarn add). */
  builtins?: string[];
  /** npm-style script runner: `run X`; `lifecycle` scripts are named bare (npm run test -> npm test);
   * `implicit`: a first word that is not a builtin is a script (yarn build -> yarn run build); `bare`: no args. */
  runScripts?: { lifecycle: string[]; implicit?: boolean; bare?: string };
  /** Flags whose value is the script (java -jar app.jar). */
  scriptFlags?: string[];
  /** Flags that mean the positionals are not a script (node -e, node --test). */
  noScriptFlags?: string[];
  /** Flags whose value is a whole command line to parse instead (bash -c "npm test"). */
  innerFlags?: string[];
  /** The inner command line is the rest of the words, not one word (cmd /c npm test). */
  innerRest?: boolean;
  /** Flags are case-insensitive and may start with '/' (PowerShell, cmd). */
  ignoreCase?: boolean;
}

/** Flags that take a value in most CLIs (`-k foo` consumes foo); `--flag=value` is always one token. */
const GENERAL_VALUE_FLAGS = [
  '-m', '-k', '-p', '-o', '-c', '-f', '-C', '-r', '-t',
  '--config', '--prefix', '--project', '--cwd', '--dir', '--directory', '--file', '--filter', '--workspace',
  '--output', '--name', '--namespace', '--profile', '--target', '--tag', '--message', '--env-file',
];

const NPM_ALIASES: Record<string, string> = {
  i: 'install', in: 'install', ins: 'install', inst: 'install', insta: 'install', instal: 'install',
  isnt: 'install', isnta: 'install', isntal: 'install', isntall: 'install', add: 'install',
  t: 'test', tst: 'test', un: 'uninstall', unlink: 'uninstall', remove: 'uninstall', rm: 'uninstall', r: 'uninstall',
  up: 'update', upgrade: 'update', udpate: 'update', 'run-script': 'run', rum: 'run', urn: 'run',
  c: 'config', list: 'ls', la: 'ls', ll: 'ls', 'clean-install': 'ci', ic: 'ci', 'install-clean': 'ci', isntall_clean: 'ci',
  it: 'install-test', cit: 'install-ci-test', s: 'search', se: 'search', find: 'search',
};

const NODE_LIFECYCLE = ['test', 'start', 'stop', 'restart'];

const YARN_BUILTINS = [
  'add', 'audit', 'autoclean', 'bin', 'cache', 'check', 'config', 'constraints', 'create', 'dedupe', 'dlx', 'exec',
  'explain', 'generate-lock-entry', 'global', 'help', 'import', 'info', 'init', 'install', 'licenses', 'link', 'list',
  'login', 'logout', 'node', 'npm', 'outdated', 'owner', 'pack', 'patch', 'patch-commit', 'plugin', 'policies',
  'publish', 'rebuild', 'remove', 'run', 'search', 'set', 'stage', 'tag', 'team', 'unlink', 'unplug', 'up', 'upgrade',
  'upgrade-interactive', 'version', 'versions', 'why', 'workspace', 'workspaces',
];

const PNPM_BUILTINS = [
  'add', 'approve-builds', 'audit', 'bin', 'c', 'cache', 'cat-file', 'cat-index', 'config', 'create', 'dedupe', 'deploy',
  'dlx', 'doctor', 'env', 'exec', 'fetch', 'find-hash', 'help', 'i', 'ignored-builds', 'import', 'info', 'init',
  'install', 'install-test', 'it', 'licenses', 'link', 'list', 'ln', 'login', 'logout', 'ls', 'outdated', 'pack',
  'patch', 'patch-commit', 'patch-remove', 'prune', 'publish', 'rb', 'rebuild', 'recursive', 'remove', 'rm', 'root',
  'run', 'sbom', 'self-update', 'server', 'setup', 'store', 'un', 'uninstall', 'unlink', 'up', 'update', 'upgrade',
  'version', 'view', 'whoami', 'why',
];

const BUN_BUILTINS = [
  'a', 'add', 'audit', 'build', 'create', 'exec', 'i', 'info', 'init', 'install', 'link', 'outdated', 'patch', 'pm',
  'publish', 'remove', 'repl', 'rm', 'run', 'test', 'unlink', 'update', 'upgrade', 'why', 'x',
];

const DENO_BUILTINS = [
  'add', 'bench', 'cache', 'check', 'clean', 'compile', 'completions', 'coverage', 'doc', 'eval', 'fmt', 'info', 'init',
  'install', 'jupyter', 'lint', 'lsp', 'outdated', 'publish', 'remove', 'repl', 'run', 'serve', 'task', 'test', 'types',
  'uninstall', 'upgrade', 'vendor',
];

const DOCKER: FamilyRule = {
  subcommands: 1,
  nested: {
    compose: 1, image: 1, container: 1, network: 1, volume: 1, buildx: 1, system: 1, context: 1, builder: 1,
    swarm: 1, service: 1, stack: 1, plugin: 1, manifest: 1, secret: 1, config: 1, node: 1, trust: 1, scout: 1,
  },
  targets: { run: 'one', pull: 'one', push: 'one', exec: 'one', 'container run': 'one', 'compose run': 'one', 'compose exec': 'one' },
  valueFlags: [
    '-e', '-v', '-w', '-u', '-h', '-l', '-H', '--env', '--volume', '--workdir', '--user', '--hostname', '--label',
    '--publish', '--network', '--net', '--entrypoint', '--mount', '--platform', '--add-host', '--cpus', '--memory',
    '--restart', '--gpus', '--pull', '--ulimit', '--shm-size', '--device', '--cap-add', '--cap-drop', '--security-opt',
    '--log-driver', '--log-opt', '--tmpfs', '--ipc', '--pid', '--dns', '--project-name', '--project-directory',
    '--progress', '--build-arg', '--cache-from', '--cache-to', '--context', '--host', '--log-level', '--scale',
    '--timeout', '--format',
  ],
  boolFlags: ['-t', '-i', '-d', '-k', '-r', '-m'],
};

const KUBECTL: FamilyRule = {
  subcommands: 1,
  nested: {
    get: 1, describe: 1, delete: 1, create: 1, rollout: 1, config: 1, top: 1, edit: 1, auth: 1, certificate: 1, set: 1,
  },
  valueFlags: [
    '-n', '-l', '--selector', '--filename', '--container', '--context', '--kubeconfig', '--cluster', '--user',
    '--kustomize', '--image', '--replicas', '--type', '--port', '--field-selector', '--sort-by', '--since', '--tail',
    '--timeout',
  ],
  boolFlags: ['-p', '-t', '-r', '-m'],
};

const TERRAFORM: FamilyRule = {
  subcommands: 1,
  nested: { workspace: 1, state: 1, providers: 1 },
  valueFlags: ['-var', '-var-file', '-target', '-out', '-lock-timeout', '-parallelism', '-backend-config', '-replace', '-state'],
};

const SHELL: FamilyRule = {
  interpreter: true,
  innerFlags: ['-c'],
  valueFlags: ['-O', '--rcfile', '--init-file'],
  boolFlags: ['-f', '-r', '-t', '-m', '-k', '-p', '-C'],
};

const POWERSHELL: FamilyRule = {
  interpreter: true,
  ignoreCase: true,
  innerFlags: ['-command', '-c', '-encodedcommand'],
  innerRest: true,
  scriptFlags: ['-file', '-f'],
  valueFlags: ['-executionpolicy', '-ep', '-workingdirectory', '-wd', '-configurationname', '-settingsfile',
    '-outputformat', '-inputformat', '-windowstyle', '-version'],
};

const CONDA: FamilyRule = {
  subcommands: 1,
  nested: { env: 1 },
  targets: { install: 'packages', remove: 'packages', uninstall: 'packages', update: 'packages' },
  valueFlags: ['-n', '--channel', '-e'],
};

const PACKAGE_INSTALLER = (verbs: string[], extra: FamilyRule = {}): FamilyRule => ({
  subcommands: 1,
  ...extra,
  targets: { ...Object.fromEntries(verbs.map((v) => [v, 'packages' as TargetKind])), ...extra.targets },
});

/** Programs whose positional arguments never change the approach (test runners, linters, file tools). */
const PLAIN = new Set([
  // test runners: re-running on a subset is still the same approach
  'pytest', 'jest', 'vitest', 'mocha', 'ava', 'jasmine', 'karma', 'tap', 'rspec', 'phpunit', 'pest', 'behave',
  'cucumber', 'cucumber-js', 'unittest', 'nose2', 'tox', 'nox', 'ctest', 'xcodebuild',
  // compilers, linters, formatters
  'tsc', 'eslint', 'prettier', 'stylelint', 'mypy', 'pyright', 'black', 'isort', 'flake8', 'pylint', 'bandit',
  'esbuild', 'tsup', 'swc', 'babel', 'standard', 'xo', 'markdownlint', 'shellcheck', 'hadolint', 'yamllint', 'cmake',
  'gcc', 'g++', 'cc', 'clang', 'clang++', 'javac', 'rustc', 'ghc', 'rollup',
  // file and shell tools
  'ls', 'dir', 'cat', 'rm', 'rmdir', 'cp', 'mv', 'mkdir', 'touch', 'chmod', 'chown', 'ln', 'grep', 'rg', 'ag', 'find',
  'fd', 'curl', 'wget', 'http', 'head', 'tail', 'less', 'more', 'open', 'xdg-open', 'code', 'cursor', 'vim', 'nvim',
  'nano', 'which', 'where', 'whereis', 'file', 'stat', 'du', 'df', 'ps', 'top', 'htop', 'kill', 'killall', 'pkill',
  'lsof', 'netstat', 'ss', 'ping', 'ssh', 'scp', 'rsync', 'tar', 'zip', 'unzip', 'gzip', 'gunzip', 'sed', 'awk', 'jq',
  'yq', 'tee', 'wc', 'sort', 'uniq', 'diff', 'cmp', 'patch', 'tr', 'cut', 'xargs', 'date', 'whoami', 'uname',
  'hostname', 'man', 'tree', 'bat', 'explorer', 'cd', 'echo', 'printf', 'clear', 'cls', 'exit', 'sleep', 'pwd',
]);

const FAMILIES: Record<string, FamilyRule> = {
  // --- JavaScript package managers and runtimes
  npm: {
    subcommands: 1,
    aliases: NPM_ALIASES,
    nested: { cache: 1, config: 1, pkg: 1 },
    targets: { install: 'packages', uninstall: 'packages', update: 'packages', create: 'one', init: 'one' },
    valueFlags: ['-w', '--registry', '--loglevel'],
    boolFlags: ['-f', '-p', '-o', '-r', '-t', '-k', '-m'],
    runScripts: { lifecycle: NODE_LIFECYCLE },
  },
  yarn: {
    subcommands: 1,
    nested: { global: 1, cache: 1, config: 1, plugin: 1, workspaces: 1 },
    targets: { add: 'packages', remove: 'packages', up: 'packages', upgrade: 'packages', 'global add': 'packages', workspace: 'ordered', create: 'one' },
    builtins: YARN_BUILTINS,
    runScripts: { lifecycle: NODE_LIFECYCLE, implicit: true, bare: 'install' },
    boolFlags: ['-f', '-p', '-o', '-r', '-t', '-k', '-m'],
  },
  pnpm: {
    subcommands: 1,
    aliases: { i: 'install', rm: 'remove', un: 'remove', uninstall: 'remove', up: 'update', upgrade: 'update', t: 'test', 'run-script': 'run', ln: 'link', ls: 'list', rb: 'rebuild', it: 'install-test', c: 'config' },
    targets: { add: 'packages', install: 'packages', remove: 'packages', update: 'packages', create: 'one' },
    builtins: PNPM_BUILTINS,
    runScripts: { lifecycle: NODE_LIFECYCLE, implicit: true },
    valueFlags: ['-F'],
    boolFlags: ['-r', '-f', '-p', '-o', '-t', '-k', '-m'],
  },
  bun: {
    subcommands: 1,
    interpreter: true,
    builtins: BUN_BUILTINS,
    aliases: { i: 'install', a: 'add', rm: 'remove' },
    targets: { add: 'packages', install: 'packages', remove: 'packages', update: 'packages', run: 'one', create: 'one' },
    boolFlags: ['-p', '-t', '-k', '-m', '-f', '-o', '-c', '-C'],
  },
  deno: {
    subcommands: 1,
    interpreter: true,
    builtins: DENO_BUILTINS,
    targets: { run: 'one', task: 'one', serve: 'one', compile: 'one', add: 'packages', install: 'packages', remove: 'packages' },
    boolFlags: ['-r', '-f', '-p', '-t', '-k', '-m', '-o', '-C'],
  },
  node: {
    interpreter: true,
    valueFlags: ['-r', '--require', '-e', '--eval', '--print', '--import', '--loader', '--experimental-loader', '--conditions', '--inspect-port', '--title', '--input-type', '--run'],
    noScriptFlags: ['-e', '--eval', '-p', '--print', '--test', '--run', '-v', '--version', '-h', '--help'],
  },
  'ts-node': { interpreter: true, valueFlags: ['-P', '-O', '--compiler-options', '-e', '--eval'], noScriptFlags: ['-e', '--eval'] },
  tsx: { interpreter: true, builtins: ['watch'], subcommands: 1, targets: { watch: 'one' }, valueFlags: ['--tsconfig', '--import'] },
  turbo: {
    subcommands: 1,
    builtins: ['run', 'prune', 'login', 'logout', 'link', 'unlink', 'daemon', 'gen', 'generate', 'info', 'ls', 'query', 'scan', 'telemetry', 'watch', 'boundaries'],
    runScripts: { lifecycle: [], implicit: true },
    valueFlags: ['-F', '--concurrency', '--cache-dir'],
  },
  nx: {
    subcommands: 1,
    targets: { run: 'one', build: 'one', test: 'one', serve: 'one', lint: 'one', e2e: 'one' },
    valueFlags: ['-t', '--targets', '--projects', '--configuration', '--base', '--head'],
  },
  ng: { subcommands: 1, aliases: { b: 'build', s: 'serve', t: 'test', g: 'generate', e: 'e2e', l: 'lint', n: 'new', d: 'doc' }, nested: { generate: 1 } },

  // --- JavaScript frameworks and tools with subcommands
  prisma: { subcommands: 1, nested: { migrate: 1, db: 1 }, valueFlags: ['--schema'] },
  'drizzle-kit': { subcommands: 1 },
  playwright: { subcommands: 1 },
  cypress: { subcommands: 1, valueFlags: ['-s', '--spec', '-b', '--browser', '-e', '--env'] },
  next: { subcommands: 1 },
  vite: { subcommands: 1 },
  nuxi: { subcommands: 1 },
  nuxt: { subcommands: 1 },
  astro: { subcommands: 1 },
  webpack: { subcommands: 1 },
  expo: { subcommands: 1 },
  'react-native': { subcommands: 1 },
  eas: { subcommands: 1, nested: { build: 0 } },
  wrangler: { subcommands: 1, nested: { d1: 1, r2: 1, pages: 1, kv: 1, queues: 1 } },
  vercel: { subcommands: 1 },
  netlify: { subcommands: 1 },
  firebase: { subcommands: 1 },
  supabase: { subcommands: 1, nested: { db: 1, functions: 1, migration: 1, gen: 1 } },
  biome: { subcommands: 1 },
  ruff: { subcommands: 1 },
  'golangci-lint': { subcommands: 1 },
  sequelize: { subcommands: 1 },
  typeorm: { subcommands: 1 },
  knex: { subcommands: 1 },
  lerna: { subcommands: 1, targets: { run: 'one' } },

  // --- Python
  python: {
    interpreter: true,
    valueFlags: ['-c', '-W', '-X'],
    noScriptFlags: ['-c', '-V', '--version', '-h', '--help'],
    boolFlags: ['-m', '-k', '-p', '-o', '-f', '-C', '-r', '-t'],
  },
  pip: PACKAGE_INSTALLER(['install', 'uninstall', 'download'], {
    nested: { cache: 1, config: 1 },
    valueFlags: ['--requirement', '--constraint', '-e', '--editable', '-i', '--index-url', '--extra-index-url', '--find-links', '--python-version', '--platform', '--only-binary', '--no-binary', '--root'],
  }),
  uv: {
    subcommands: 1,
    nested: { pip: 1, python: 1, tool: 1, cache: 1, self: 1 },
    targets: { add: 'packages', remove: 'packages', 'pip install': 'packages', 'pip uninstall': 'packages', 'tool install': 'packages', 'python install': 'ordered' },
    valueFlags: ['--python', '--with', '--group', '--extra', '--index-url', '--index', '--package', '--from', '-e', '--editable', '--requirement', '--constraint'],
  },
  poetry: {
    subcommands: 1,
    nested: { env: 1, self: 1, cache: 1, source: 1 },
    targets: { add: 'packages', remove: 'packages' },
    valueFlags: ['-G', '--group', '-E', '--extras', '--source', '-P'],
  },
  pipenv: PACKAGE_INSTALLER(['install', 'uninstall']),
  pipx: PACKAGE_INSTALLER(['install', 'uninstall'], { targets: { inject: 'ordered' }, valueFlags: ['--python', '--spec'] }),
  pdm: PACKAGE_INSTALLER(['add', 'remove']),
  conda: CONDA,
  mamba: CONDA,
  micromamba: CONDA,
  alembic: { subcommands: 1 },
  'django-admin': { subcommands: 1, valueFlags: ['--settings'] },
  flask: { subcommands: 1, valueFlags: ['--app', '-A'] },
  streamlit: { subcommands: 1, targets: { run: 'one' } },
  coverage: { subcommands: 1 },

  // --- Go, Rust, JVM, .NET, native
  go: {
    subcommands: 1,
    nested: { mod: 1, work: 1, tool: 1 },
    targets: { get: 'packages', install: 'packages', run: 'one' },
    valueFlags: ['-run', '-bench', '-count', '-timeout', '-tags', '-ldflags', '-gcflags', '-coverprofile', '-covermode', '-coverpkg', '-cpu', '-parallel', '-benchtime', '-modfile', '-exec', '-skip'],
    boolFlags: ['-c', '-k', '-m', '-f', '-r', '-t'],
  },
  cargo: {
    subcommands: 1,
    aliases: { b: 'build', c: 'check', t: 'test', r: 'run', d: 'doc', rm: 'remove' },
    targets: { add: 'packages', remove: 'packages', install: 'packages', uninstall: 'packages' },
    valueFlags: ['--package', '--bin', '--example', '--test', '--bench', '--features', '-F', '--manifest-path', '-j', '--jobs', '-Z', '--color', '--message-format', '--target-dir'],
    boolFlags: ['-r', '-t', '-k', '-m', '-f', '-o', '-c'],
  },
  make: {
    targets: { '': 'ordered' },
    valueFlags: ['--makefile', '-j#', '--jobs', '-l#', '--load-average', '--old-file', '-W', '--what-if', '-I', '--include-dir'],
    boolFlags: ['-k', '-t', '-p', '-r', '-m', '-c'],
  },
  just: { targets: { '': 'one' }, valueFlags: ['--justfile', '-d', '--working-directory'] },
  task: { targets: { '': 'ordered' }, valueFlags: ['-d', '-t', '--taskfile'] },
  rake: { targets: { '': 'ordered' }, valueFlags: ['-f', '--rakefile', '-C'] },
  ninja: { targets: { '': 'ordered' }, valueFlags: ['-j#', '-l#', '-k#', '-d'] },
  mvn: {
    targets: { '': 'ordered' },
    valueFlags: ['-pl', '--projects', '-P', '--activate-profiles', '-s', '--settings', '-gs', '-T', '--threads', '-rf', '--resume-from', '-l', '--log-file'],
    boolFlags: ['-o', '-c', '-C', '-k', '-m', '-p', '-r'],
  },
  gradle: {
    targets: { '': 'ordered' },
    valueFlags: ['-x', '--exclude-task', '--tests', '--project-dir', '-b', '--build-file', '--settings-file', '-g', '--gradle-user-home', '-I', '--init-script', '--console', '--warning-mode', '--max-workers', '--priority'],
    boolFlags: ['-t', '-m', '-k', '-o', '-r', '-f', '-C'],
  },
  sbt: { targets: { '': 'ordered' } },
  bazel: { subcommands: 1, targets: { build: 'ordered', run: 'one' } },
  dotnet: {
    subcommands: 1,
    nested: { add: 1, remove: 1, tool: 1, ef: 2, nuget: 1, workload: 1, sln: 1, 'dev-certs': 1, 'user-secrets': 1 },
    targets: { 'add package': 'packages', 'remove package': 'packages', 'tool install': 'packages', 'workload install': 'packages', new: 'one' },
    valueFlags: ['--configuration', '--framework', '--runtime', '-v', '--verbosity', '-s', '--source', '--version', '-l', '--logger', '-a', '--arch', '--settings', '--collect', '--results-directory'],
  },
  java: { interpreter: true, scriptFlags: ['-jar', '-m', '--module'], valueFlags: ['-cp', '-classpath', '--class-path', '-p', '--module-path'], noScriptFlags: ['-version', '--version'] },
  swift: { subcommands: 1, nested: { package: 1 } },
  flutter: { subcommands: 1, nested: { build: 1, pub: 1 } },
  dart: { subcommands: 1, nested: { pub: 1 }, targets: { 'pub add': 'packages' } },
  pod: { subcommands: 1 },
  zig: { subcommands: 1 },
  mix: { subcommands: 1 },
  rebar3: { subcommands: 1 },
  stack: { subcommands: 1 },
  cabal: { subcommands: 1 },
  lein: { subcommands: 1 },

  // --- Ruby, PHP, Perl, others
  ruby: { interpreter: true, valueFlags: ['-I', '-r', '-e', '-C'], noScriptFlags: ['-e', '-v', '--version'] },
  perl: { interpreter: true, valueFlags: ['-I', '-e', '-E'], noScriptFlags: ['-e', '-E', '-v'] },
  php: { interpreter: true, scriptFlags: ['-f'], valueFlags: ['-d', '-c', '-r'], noScriptFlags: ['-r', '-v', '-m', '-i'] },
  lua: { interpreter: true, valueFlags: ['-e', '-l'], noScriptFlags: ['-e', '-v'] },
  rscript: { interpreter: true, valueFlags: ['-e'], noScriptFlags: ['-e'] },
  julia: { interpreter: true, valueFlags: ['-e', '--project', '-t', '--threads'], noScriptFlags: ['-e'] },
  elixir: { interpreter: true, valueFlags: ['-e', '-r'], noScriptFlags: ['-e'] },
  'ansible-playbook': { interpreter: true, valueFlags: ['-i', '--inventory', '-e', '--extra-vars', '-l', '--limit', '-u', '--tags', '--skip-tags', '--vault-password-file'] },
  rails: { subcommands: 1, aliases: { s: 'server', c: 'console', g: 'generate', d: 'destroy', t: 'test', db: 'dbconsole' }, nested: { generate: 1, destroy: 1 } },
  bundle: PACKAGE_INSTALLER(['add', 'remove'], { aliases: { i: 'install' } }),
  gem: PACKAGE_INSTALLER(['install', 'uninstall'], { aliases: { i: 'install' } }),
  composer: PACKAGE_INSTALLER(['require', 'remove'], { aliases: { i: 'install', u: 'update', req: 'require', rm: 'remove' }, nested: { global: 1 }, targets: { 'global require': 'packages' }, valueFlags: ['-d', '--working-dir'] }),

  // --- System package managers
  'apt-get': PACKAGE_INSTALLER(['install', 'remove', 'purge', 'reinstall'], { boolFlags: ['-f', '-m', '-k', '-p', '-r'] }),
  apt: PACKAGE_INSTALLER(['install', 'remove', 'purge', 'reinstall'], { boolFlags: ['-f', '-m', '-k', '-p', '-r'] }),
  dnf: PACKAGE_INSTALLER(['install', 'remove', 'erase', 'reinstall']),
  yum: PACKAGE_INSTALLER(['install', 'remove', 'erase', 'reinstall']),
  zypper: PACKAGE_INSTALLER(['install', 'in', 'remove', 'rm']),
  apk: PACKAGE_INSTALLER(['add', 'del']),
  brew: PACKAGE_INSTALLER(['install', 'uninstall', 'reinstall', 'upgrade', 'link', 'unlink'], {
    aliases: { remove: 'uninstall', rm: 'uninstall' },
    nested: { services: 1 },
    targets: { tap: 'one' },
    boolFlags: ['-f', '-m', '-k', '-p', '-r', '-t'],
  }),
  choco: PACKAGE_INSTALLER(['install', 'uninstall', 'upgrade']),
  scoop: PACKAGE_INSTALLER(['install', 'uninstall', 'update']),
  winget: { subcommands: 1, valueFlags: ['--id', '-s', '--source', '-v', '--version'] },

  // --- Version control, containers, cloud, infrastructure
  git: {
    subcommands: 1,
    nested: { remote: 1, stash: 1, submodule: 1, worktree: 1, bisect: 1, lfs: 1, notes: 1, 'sparse-checkout': 1, flow: 2 },
    valueFlags: ['-b', '-B', '-F', '-X', '--author', '--date', '--depth', '--branch', '--format', '--grep', '--since', '--until', '--git-dir', '--work-tree'],
    boolFlags: ['-p', '-f', '-r', '-t', '-k'],
  },
  gh: { subcommands: 2 },
  docker: DOCKER,
  podman: DOCKER,
  nerdctl: DOCKER,
  kubectl: KUBECTL,
  oc: KUBECTL,
  helm: {
    subcommands: 1,
    nested: { repo: 1, dependency: 1, dep: 1, plugin: 1, registry: 1, search: 1, show: 1, get: 1 },
    valueFlags: ['--values', '--set', '--set-string', '--set-file', '-n', '--version', '--kube-context', '--repo', '--timeout'],
  },
  terraform: TERRAFORM,
  tofu: TERRAFORM,
  terragrunt: { ...TERRAFORM, nested: { ...TERRAFORM.nested, 'run-all': 1, run: 1 } },
  pulumi: { subcommands: 1, nested: { stack: 1, config: 1, plugin: 1 }, valueFlags: ['-s', '--stack'] },
  aws: { subcommands: 2, valueFlags: ['--region', '--query', '--endpoint-url'] },
  gcloud: { subcommands: 3, valueFlags: ['--region', '--zone', '--format'] },
  az: { subcommands: 3, valueFlags: ['-g', '--resource-group', '-n', '--subscription', '--query'] },
  cdk: { subcommands: 1 },
  sam: { subcommands: 1 },
  serverless: { subcommands: 1 },
  vagrant: { subcommands: 1 },
  heroku: { subcommands: 1, valueFlags: ['-a', '--app'] },

  // --- Shells: a script is significant, `-c "cmd"` is parsed as the command it runs
  bash: SHELL,
  sh: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  fish: SHELL,
  pwsh: POWERSHELL,
  powershell: POWERSHELL,
  cmd: { ignoreCase: true, innerFlags: ['/c', '/k'], innerRest: true },
};

/** How a wrapper is peeled off: `sudo -u x CMD`, `pnpm exec CMD`, `python -m MOD`, `timeout 30 CMD`. */
interface WrapperRule {
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

const WRAPPERS: Record<string, WrapperRule> = {
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
const PROGRAM_ALIASES: Record<string, string> = {
  py: 'python', nodejs: 'node', gradlew: 'gradle', mvnw: 'mvn', yarnpkg: 'yarn', 'py.test': 'pytest',
  'docker-compose': 'docker compose', 'podman-compose': 'podman compose', 'cucumber-js': 'cucumber',
  sls: 'serverless', 'webpack-cli': 'webpack', rtx: 'mise',
};

/** Commands that do not define the approach when something else runs on the same line (npm test && echo ok). */
const NOISE = new Set([
  'echo', 'printf', 'true', ':', 'exit', 'return', 'export', 'set', 'unset', 'source', '.', 'clear', 'cls', 'sleep',
  'pwd', 'popd', 'read', 'wait', 'write-host', 'write-output', 'echo.', 'rem', '@echo', 'setlocal', 'endlocal',
  'title', 'deactivate', 'activate', 'then', 'do', 'done', 'fi', 'else', '{', '}', '!', 'alias', 'shopt', 'trap',
  'ulimit', 'umask', 'hash', 'history', 'reset', 'tput', 'local', 'declare', 'typeset',
]);

/** Folder changes, folded into the approach's folder. */
const CD = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl']);

/** First pipeline stages that only feed the real command (echo y | npx prisma migrate reset). */
const FEEDERS = new Set(['echo', 'printf', 'yes', 'cat', 'type', 'get-content', 'gc', 'write-output']);

const MAX_SIGNIFICANT = 12;
const MAX_TOKEN_CHARS = 100;
const MAX_DEPTH = 4;
const MAX_PEELS = 16;

const ASSIGNMENT_RE = /^[A-Za-z_][A-Za-z0-9_]*\+?=(?!=)/; // not numpy==1.26
/** Subcommand word of a known family: git push, rails db:migrate, dotnet app.dll, mix deps.get. */
const WORD_RE = /^[a-z0-9][a-z0-9._:+@-]*$/i;
/** Subcommand word of an unknown program or a script: lowercase letters, digits, dashes (flask run, uvicorn main:app). */
const STRICT_WORD_RE = /^[a-z][a-z0-9-]*(?::[a-z0-9-]+)*$/;
const NUMBER_RE = /^\d+([.:]\d+)*$/;
const ABSOLUTE_RE = /^(\/|~|[A-Za-z]:|\$)/;
const BIN_DIR_RE = /(^|\/)(\.bin|bin|sbin|Scripts)\/$/;
const SCRIPT_EXT_RE = /\.(sh|bash|zsh|ps1|py|js|mjs|cjs|ts|mts|cts|rb|pl|php)$/i;
const PROGRAM_EXT_RE = /\.(exe|cmd|bat|com)$/;

function own<T>(table: Record<string, T> | undefined, key: string): T | undefined {
  return table !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

interface Token {
  kind: 'word' | 'op' | 'redir';
  text: string;
  /** A redirection that needs no target word (2>&1, >&-). */
  complete?: boolean;
}

/** Characters a backslash escapes outside quotes; before anything else the backslash is kept (C:\Users\me). */
const ESCAPABLE = new Set([...' \t\n\'"\\$`&|;<>()#*?[]{}!~']);

function lex(input: string): Token[] {
  const out: Token[] = [];
  const n = input.length;
  let word = '';
  let inWord = false;
  let quoted = false;
  let heredocNext: boolean | null = null; // the next word is a heredoc delimiter (true: <<- strips tabs)
  const heredocs: { delim: string; stripTabs: boolean }[] = [];

  const flush = (): void => {
    if (!inWord) return;
    if (heredocNext !== null) {
      heredocs.push({ delim: word, stripTabs: heredocNext });
      heredocNext = null;
    }
    out.push({ kind: 'word', text: word });
    word = '';
    inWord = false;
    quoted = false;
  };
  const op = (text: string): void => {
    flush();
    out.push({ kind: 'op', text });
  };
  /** End index (exclusive) of a balanced `(...)` starting at the '(' at `open`; quotes inside are skipped. */
  const balanced = (open: number): number => {
    let depth = 0;
    let j = open;
    while (j < n) {
      const ch = input[j];
      if (ch === '(') depth++;
      else if (ch === ')') {
        depth--;
        if (depth === 0) return j + 1;
      } else if (ch === "'" || ch === '"' || ch === '`') {
        const close = input.indexOf(ch, j + 1);
        if (close < 0) return n;
        j = close;
      }
      j++;
    }
    return n;
  };

  let i = 0;
  while (i < n) {
    const c = input[i];
    const code = input.charCodeAt(i);
    if (c === '\n') {
      op(';');
      i++;
      if (heredocs.length) {
        // skip heredoc bodies up to their delimiter lines
        for (const doc of heredocs) {
          while (i < n) {
            const end = input.indexOf('\n', i);
            const stop = end < 0 ? n : end;
            let line = input.slice(i, stop).replace(/\r$/, '');
            if (doc.stripTabs) line = line.replace(/^\t+/, '');
            i = stop + 1;
            if (line === doc.delim) break;
          }
        }
        heredocs.length = 0;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || code < 32 || code === 127) {
      flush();
      i++;
      continue;
    }
    if (c === '#' && !inWord) {
      const end = input.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === "'") {
      inWord = quoted = true;
      const close = input.indexOf("'", i + 1);
      const stop = close < 0 ? n : close;
      word += input.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      inWord = quoted = true;
      i++;
      while (i < n && input[i] !== '"') {
        if (input[i] === '\\' && i + 1 < n && '"\\$`\n'.includes(input[i + 1])) {
          if (input[i + 1] !== '\n') word += input[i + 1];
          i += 2;
        } else {
          word += input[i];
          i++;
        }
      }
      i++;
      continue;
    }
    if (c === '$' && input[i + 1] === "'") {
      // ANSI-C quoting: $'a\tb'
      inWord = quoted = true;
      i += 2;
      while (i < n && input[i] !== "'") {
        if (input[i] === '\\' && i + 1 < n) {
          word += input[i + 1];
          i += 2;
        } else {
          word += input[i];
          i++;
        }
      }
      i++;
      continue;
    }
    if (c === '$' && input[i + 1] === '(') {
      const end = balanced(i + 1);
      word += input.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '`') {
      const close = input.indexOf('`', i + 1);
      const stop = close < 0 ? n : close + 1;
      word += input.slice(i, stop);
      inWord = true;
      i = stop;
      continue;
    }
    if (c === '\\') {
      const next = input[i + 1];
      if (next === '\n') {
        i += 2; // line continuation
      } else if (next === '\r' && input[i + 2] === '\n') {
        i += 3;
      } else if (next !== undefined && ESCAPABLE.has(next)) {
        word += next;
        inWord = true;
        i += 2;
      } else {
        word += '\\';
        inWord = true;
        i++;
      }
      continue;
    }
    if (c === '&') {
      if (input[i + 1] === '&') {
        op('&&');
        i += 2;
      } else if (input[i + 1] === '>') {
        flush();
        const append = input[i + 2] === '>';
        out.push({ kind: 'redir', text: append ? '&>>' : '&>' });
        i += append ? 3 : 2;
      } else {
        op('&');
        i++;
      }
      continue;
    }
    if (c === '|') {
      if (input[i + 1] === '|') {
        op('||');
        i += 2;
      } else {
        op('|');
        i += input[i + 1] === '&' ? 2 : 1;
      }
      continue;
    }
    if (c === ';') {
      op(';');
      i += input[i + 1] === ';' || input[i + 1] === '&' ? 2 : 1;
      continue;
    }
    if ((c === '<' || c === '>') && input[i + 1] === '(') {
      // process substitution <(cmd): one word
      const end = balanced(i + 1);
      word += input.slice(i, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '(' || c === ')') {
      op(c);
      i++;
      continue;
    }
    if (c === '<' || c === '>') {
      let fd = '';
      if (inWord && !quoted && /^\d{1,2}$/.test(word)) {
        fd = word;
        word = '';
        inWord = false;
      } else {
        flush();
      }
      let text: string;
      let complete = false;
      let heredoc: boolean | null = null;
      if (c === '>') {
        const next = input[i + 1];
        text = next === '>' || next === '|' || next === '&' ? '>' + next : '>';
      } else if (input.startsWith('<<<', i)) {
        text = '<<<';
      } else if (input.startsWith('<<-', i)) {
        text = '<<-';
        heredoc = true;
      } else if (input.startsWith('<<', i)) {
        text = '<<';
        heredoc = false;
      } else {
        const next = input[i + 1];
        text = next === '&' || next === '>' ? '<' + next : '<';
      }
      i += text.length;
      if (text.endsWith('&')) {
        // >&2, 2>&1, <&- : the target is part of the operator
        let j = i;
        while (j < n && j - i < 3 && input[j] >= '0' && input[j] <= '9') j++;
        if (j === i && input[i] === '-') j++;
        if (j > i) {
          text += input.slice(i, j);
          i = j;
          complete = true;
        }
      }
      out.push({ kind: 'redir', text: fd + text, complete });
      if (heredoc !== null) heredocNext = heredoc;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  flush();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/**
 * The folder of an approach: relative to the workspace folder, '.' for the root ('', '.', './', undefined),
 * forward slashes, no trailing slash, `.` and `..` resolved ('./a/../b' -> 'b'). Absolute paths stay absolute
 * (a lowercase drive letter on Windows); leading '..' that leave the workspace are kept.
 */
export function normalizeCwd(cwd: string | undefined): string {
  if (typeof cwd !== 'string') return '.';
  let s = cwd.trim().replace(/\\/g, '/');
  if (!s) return '.';
  let prefix = '';
  const drive = /^([A-Za-z]):(\/|$)/.exec(s);
  if (drive) {
    prefix = drive[1].toLowerCase() + ':/';
    s = s.slice(2);
  } else if (s.startsWith('//')) {
    prefix = '//';
  } else if (s.startsWith('/')) {
    prefix = '/';
  } else if (s === '~' || s.startsWith('~/')) {
    prefix = '~/';
    s = s.slice(1);
  }
  const parts: string[] = [];
  for (const part of s.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (parts.length && parts[parts.length - 1] !== '..') parts.pop();
      else if (!prefix) parts.push('..');
      continue;
    }
    parts.push(part);
  }
  const body = parts.join('/');
  if (prefix === '~/') return body ? '~/' + body : '~';
  if (prefix) return prefix + body;
  return body || '.';
}

function isAbsolutePath(p: string): boolean {
  return ABSOLUTE_RE.test(p) || p.startsWith('\\');
}

function joinCwd(base: string | undefined, change: string): string {
  return normalizeCwd(isAbsolutePath(change) ? change : `${base ?? '.'}/${change}`);
}

/** A script path as written, with Windows separators and leading './' dropped (./scripts/x.sh -> scripts/x.sh). */
function scriptPath(raw: string): string {
  const s = raw.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  return s || '.';
}

function clip(s: string): string {
  return s.length > MAX_TOKEN_CHARS ? s.slice(0, MAX_TOKEN_CHARS) : s;
}

// ---------------------------------------------------------------------------------------------
// Program names
// ---------------------------------------------------------------------------------------------

interface ProgramName {
  /** Canonical name; may contain a space for aliases that add an argument ('docker compose'). */
  name: string;
  /** Directory peeled off ('./node_modules/.bin/', '/usr/bin/'), '' when none. */
  prefix: string;
  /** A script run directly (./deploy.sh): the name is its path, case kept. */
  script: boolean;
}

function baseProgramName(base: string): string {
  const lower = base.toLowerCase().replace(PROGRAM_EXT_RE, '');
  const alias = own(PROGRAM_ALIASES, lower);
  if (alias !== undefined) return alias;
  if (/^python\d+(\.\d+)*$/.test(lower)) return 'python';
  if (/^pip\d+(\.\d+)*$/.test(lower)) return 'pip';
  return lower;
}

function isKnownProgram(name: string): boolean {
  return own(FAMILIES, name) !== undefined || own(WRAPPERS, name) !== undefined || PLAIN.has(name) || name.includes(' ');
}

function canonicalProgram(raw: string): ProgramName {
  const s = raw.replace(/\\/g, '/');
  if (!s.startsWith('@')) {
    const slash = s.lastIndexOf('/');
    if (slash >= 0) {
      const prefix = s.slice(0, slash + 1);
      const base = s.slice(slash + 1);
      const name = baseProgramName(base);
      if (base && (ABSOLUTE_RE.test(prefix) || BIN_DIR_RE.test(prefix) || isKnownProgram(name))) {
        return { name, prefix, script: false };
      }
      return { name: scriptPath(s), prefix: '', script: true };
    }
  }
  const name = baseProgramName(s);
  if (!isKnownProgram(name) && SCRIPT_EXT_RE.test(name)) return { name: s, prefix: '', script: true };
  return { name, prefix: '', script: false };
}

/** prisma@5.1 -> prisma, @scope/cli@2 -> @scope/cli. */
function stripVersion(raw: string): string {
  const at = raw.indexOf('@', raw.startsWith('@') ? 1 : 0);
  return at > 0 ? raw.slice(0, at) : raw;
}

function isFlag(w: string): boolean {
  return w.length > 1 && (w[0] === '-' || w[0] === '+') && w !== '--';
}

// ---------------------------------------------------------------------------------------------
// Family rules
// ---------------------------------------------------------------------------------------------

interface FlagSets {
  value: Set<string>;
  numeric: Set<string>;
}
const flagCache = new WeakMap<FamilyRule, FlagSets>();

function flagSets(rule: FamilyRule): FlagSets {
  let sets = flagCache.get(rule);
  if (!sets) {
    const value = new Set<string>();
    const numeric = new Set<string>();
    for (const f of [...GENERAL_VALUE_FLAGS, ...(rule.valueFlags ?? [])]) {
      const name = rule.ignoreCase ? f.toLowerCase() : f;
      if (name.endsWith('#')) numeric.add(name.slice(0, -1));
      else value.add(name);
    }
    for (const f of rule.boolFlags ?? []) {
      value.delete(f);
      numeric.delete(f);
    }
    sets = { value, numeric };
    flagCache.set(rule, sets);
  }
  return sets;
}

interface RuleResult {
  significant: string[];
  /** `bash -c "cmd"`: the inner command, parsed. */
  inner?: ParsedCommand;
  innerVia?: string;
  /** The words from this index (of args) are another program run by this one (node node_modules/.bin/jest, yarn jest). */
  delegateAt?: number;
  /** ... and it runs under this name when it differs from the word (node_modules/jest/bin/jest.js -> jest). */
  delegateName?: string;
}

const UNKNOWN_RULE: FamilyRule = { subcommands: 1 };
const PLAIN_RULE: FamilyRule = {};

function applyRule(rule: FamilyRule, args: string[], depth: number): RuleResult {
  const { value, numeric } = flagSets(rule);
  const positionals: string[] = [];
  const positionIndex: number[] = [];
  let noScript = false;
  for (let j = 0; j < args.length; j++) {
    const a = args[j];
    const key = rule.ignoreCase ? a.toLowerCase() : a;
    if (rule.innerFlags && (rule.innerFlags.includes(key) || (rule.innerFlags.includes('-c') && /^-[a-z]+c$/i.test(a) && !a.startsWith('--')))) {
      const inner = rule.innerRest ? args.slice(j + 1).join(' ') : args[j + 1];
      if (inner !== undefined && depth < MAX_DEPTH) {
        return { significant: [], inner: parseLine(inner, depth + 1), innerVia: key };
      }
      break;
    }
    if (rule.scriptFlags && rule.scriptFlags.includes(key)) {
      const script = args[j + 1];
      return { significant: script === undefined ? [] : [clip(scriptPath(script))] };
    }
    if (a === '--') break;
    if (isFlag(a) || (rule.ignoreCase && /^\/[a-z?]$/i.test(a))) {
      const eq = key.indexOf('=');
      const name = eq > 0 ? key.slice(0, eq) : key;
      // only the interpreter's own flags count, not the script's (node x.js -p)
      if (rule.noScriptFlags && !positionals.length && rule.noScriptFlags.includes(name)) noScript = true;
      if (eq < 0 && j + 1 < args.length) {
        if (value.has(name) || (numeric.has(name) && NUMBER_RE.test(args[j + 1]))) j++;
      }
      continue;
    }
    if (ASSIGNMENT_RE.test(a)) continue; // make CC=gcc, rake VAR=x
    positionals.push(a);
    positionIndex.push(j);
    if (positionals.length >= 64) break;
  }

  // interpreters: the script is what runs
  if (rule.interpreter) {
    if (noScript) return { significant: [] };
    const first = positionals[0];
    if (first === undefined) return { significant: [] };
    if (!(rule.builtins && rule.builtins.includes(first.toLowerCase()))) {
      const path = scriptPath(first);
      const bin = /(^|\/)node_modules\/(.+\/)?([^/]+)$/.exec(path);
      if (bin) return { significant: [], delegateAt: positionIndex[0], delegateName: bin[3].replace(/\.[cm]?js$/, '') };
      const sig = [clip(path)];
      const second = positionals[1];
      // a subcommand of the script (manage.py migrate) directly follows it; after a flag it may be the flag's value
      if (second !== undefined && positionIndex[1] === positionIndex[0] + 1 && STRICT_WORD_RE.test(second) && second.length <= 40) sig.push(second);
      return { significant: sig };
    }
  }

  // npm-style script runners
  if (rule.runScripts) {
    const rs = rule.runScripts;
    const first = positionals[0];
    if (first === undefined) return { significant: rs.bare ? [rs.bare] : [] };
    const lower = first.toLowerCase();
    const w = own(rule.aliases, lower) ?? lower;
    if (w === 'run') {
      const script = positionals[1];
      if (script === undefined) return { significant: ['run'] };
      return { significant: rs.lifecycle.includes(script) ? [script] : ['run', clip(script)] };
    }
    if (rs.lifecycle.includes(w)) return { significant: [w] };
    if (rs.implicit && !(rule.builtins && rule.builtins.includes(w))) {
      // yarn jest / pnpm prisma generate run a binary; yarn build runs a script
      if (isKnownProgram(baseProgramName(first))) return { significant: [], delegateAt: positionIndex[0] };
      return { significant: ['run', clip(first)] };
    }
  }

  const sig: string[] = [];
  let p = 0;
  let depthLeft = rule.subcommands ?? 0;
  // unknown program: a word after a flag may be that flag's value (psql -U postgres), so only a leading word counts
  if (rule === UNKNOWN_RULE && positionIndex[0] !== 0) depthLeft = 0;
  const wordRe = rule === UNKNOWN_RULE ? STRICT_WORD_RE : WORD_RE;
  while (depthLeft > 0 && p < positionals.length) {
    const raw = positionals[p];
    if (!wordRe.test(raw) || NUMBER_RE.test(raw) || raw.length > 40) break;
    let w = raw.toLowerCase();
    if (sig.length === 0) w = own(rule.aliases, w) ?? w;
    sig.push(w);
    p++;
    depthLeft--;
    depthLeft += own(rule.nested, sig.join(' ')) ?? 0;
  }
  const kind = own(rule.targets, sig.join(' '));
  if (kind !== undefined && p < positionals.length) {
    const rest = positionals.slice(p, p + MAX_SIGNIFICANT).map(clip);
    if (kind === 'one') sig.push(rest[0]);
    else if (kind === 'ordered') sig.push(...rest);
    else sig.push(...[...new Set(rest)].sort());
  }
  return { significant: sig.slice(0, MAX_SIGNIFICANT) };
}

// ---------------------------------------------------------------------------------------------
// One simple command: env, wrappers, program, significant
// ---------------------------------------------------------------------------------------------

/** Where a wrapper's wrapped program starts in `words` (from `start`), words.length if nothing follows, -1 if not wrapping. */
function peelWrapper(words: string[], start: number, rule: WrapperRule): { next: number; sub: string } {
  let j = start;
  let sub = '';
  let subMatched = !rule.sub;
  let skip = rule.skip ?? 0;
  const values = rule.valueFlags ?? [];
  while (j < words.length) {
    const w = words[j];
    if (w === '--') return subMatched ? { next: j + 1, sub } : { next: -1, sub };
    if (rule.programFlag && w === rule.programFlag) {
      return subMatched && j + 1 < words.length ? { next: j + 1, sub: sub || rule.programFlag } : { next: -1, sub };
    }
    if (isFlag(w)) {
      if (!w.includes('=') && values.includes(w)) j++;
      j++;
      continue;
    }
    if (!subMatched) {
      const match = (rule.sub ?? []).find((s) => s.split(' ').every((part, k) => (words[j + k] ?? '').toLowerCase() === part));
      if (match === undefined) return { next: -1, sub };
      sub = match;
      subMatched = true;
      j += match.split(' ').length;
      continue;
    }
    if (skip > 0) {
      skip--;
      j++;
      continue;
    }
    if (rule.programFlag && !rule.sub) return { next: -1, sub }; // python app.py: python is the program
    if (rule.doubleDash) {
      const dd = words.indexOf('--', j);
      if (dd >= 0) return { next: dd + 1, sub };
    }
    return { next: j, sub };
  }
  return subMatched ? { next: words.length, sub } : { next: -1, sub };
}

type Simple = Omit<ParsedCommand, 'label'>;

function parseSimple(words: string[], depth: number): Simple {
  const env: string[] = [];
  const wrappers: string[] = [];
  let versioned = false;
  let i = 0;
  let lastWrapper: { at: number; prog: ProgramName; wrappersBefore: number } | undefined;
  for (let guard = 0; guard < MAX_PEELS && i < words.length; guard++) {
    while (i < words.length && (ASSIGNMENT_RE.test(words[i]) || words[i] === '')) {
      if (words[i] !== '') env.push(words[i].slice(0, words[i].indexOf('=')).replace(/\+$/, ''));
      i++;
    }
    if (i >= words.length) break;
    const prog = canonicalProgram(versioned ? stripVersion(words[i]) : words[i]);
    const wrapper = prog.script ? undefined : own(WRAPPERS, prog.name);
    if (wrapper) {
      const { next, sub } = peelWrapper(words, i + 1, wrapper);
      if (next >= 0) {
        lastWrapper = { at: i, prog, wrappersBefore: wrappers.length };
        if (prog.prefix) wrappers.push(prog.prefix);
        wrappers.push(sub ? `${prog.name} ${sub}` : prog.name);
        versioned = wrapper.versioned === true;
        i = next;
        continue;
      }
    }
    if (prog.prefix) wrappers.push(prog.prefix);
    return finish(env, wrappers, prog, words.slice(i + 1), depth);
  }
  if (i < words.length) {
    // more nested wrappers than MAX_PEELS: take the current word as the program
    return finish(env, wrappers, canonicalProgram(words[i]), words.slice(i + 1), depth, true);
  }
  if (lastWrapper) {
    // a wrapper with nothing to wrap (`sudo`, `npx`, `python -m`) is the program itself
    wrappers.length = lastWrapper.wrappersBefore;
    if (lastWrapper.prog.prefix) wrappers.push(lastWrapper.prog.prefix);
    return finish(env, wrappers, lastWrapper.prog, words.slice(lastWrapper.at + 1), depth, true);
  }
  return { env, wrappers, program: '', significant: [] };
}

function finish(env: string[], wrappers: string[], prog: ProgramName, args: string[], depth: number, noDelegate = false): Simple {
  let name = prog.name;
  let rest = args;
  if (name.includes(' ')) {
    const parts = name.split(' ');
    name = parts[0];
    rest = [...parts.slice(1), ...args];
  }
  if (prog.script) {
    const sig = applyRule(UNKNOWN_RULE, rest, depth).significant;
    return { env, wrappers, program: clip(name), significant: sig };
  }
  const rule = own(FAMILIES, name) ?? (PLAIN.has(name) ? PLAIN_RULE : UNKNOWN_RULE);
  const result = applyRule(rule, rest, depth);
  if (result.inner && result.inner.program) {
    const inner = result.inner;
    return {
      env: [...env, ...inner.env],
      wrappers: [...wrappers, `${name} ${result.innerVia ?? ''}`.trim(), ...inner.wrappers],
      program: inner.program,
      significant: inner.significant,
      ...(inner.cwdChange !== undefined ? { cwdChange: inner.cwdChange } : {}),
    };
  }
  if (result.delegateAt !== undefined && !noDelegate && depth < MAX_DEPTH) {
    const delegated = rest.slice(result.delegateAt);
    if (result.delegateName) delegated[0] = result.delegateName;
    const inner = parseSimple(delegated, depth + 1);
    if (inner.program) {
      return {
        env: [...env, ...inner.env],
        wrappers: [...wrappers, name, ...inner.wrappers],
        program: inner.program,
        significant: inner.significant,
      };
    }
  }
  return { env, wrappers, program: clip(name), significant: result.significant };
}

// ---------------------------------------------------------------------------------------------
// A whole line: lists, pipelines, cd folding
// ---------------------------------------------------------------------------------------------

function firstProgramWord(words: string[]): string | undefined {
  for (const w of words) {
    if (!ASSIGNMENT_RE.test(w) && w !== '') return baseProgramName(w.replace(/\\/g, '/').replace(/^.*\//, ''));
  }
  return undefined;
}

/** Shell keywords that open or close a compound command: `if npm test; then ...; fi`, `{ make; }`. */
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', 'esac']);

function stripReserved(words: string[]): string[] {
  let k = 0;
  while (k < words.length && RESERVED.has(words[k])) k++;
  return k ? words.slice(k) : words;
}

/** The words of each list element (split on && || ; & newlines and parentheses), redirections dropped. */
function listElements(tokens: Token[]): string[][] {
  const lists: string[][] = [];
  let stages: string[][] = [[]];
  let skipTarget = false;
  const endList = (): void => {
    const useful = stages.map(stripReserved).filter((s) => s.length > 0);
    if (useful.length) {
      const real = useful.find((s) => !FEEDERS.has(firstProgramWord(s) ?? ''));
      lists.push(real ?? useful[0]);
    }
    stages = [[]];
  };
  for (const tok of tokens) {
    if (tok.kind === 'redir') {
      skipTarget = !tok.complete;
      continue;
    }
    if (tok.kind === 'op') {
      skipTarget = false;
      if (tok.text === '|') stages.push([]);
      else endList();
      continue;
    }
    if (skipTarget) {
      skipTarget = false;
      continue;
    }
    stages[stages.length - 1].push(tok.text);
  }
  endList();
  return lists;
}

type ElementKind = 'cd' | 'noise' | 'real';

function classify(words: string[]): ElementKind {
  const first = firstProgramWord(words);
  if (first === undefined) return 'noise';
  if (CD.has(first)) return 'cd';
  if (NOISE.has(first)) return 'noise';
  return 'real';
}

/** The folder of `cd X` (X, '~' for a bare cd), undefined when it cannot be known (cd -). */
function cdTarget(words: string[]): string | undefined {
  let k = 0;
  while (k < words.length && ASSIGNMENT_RE.test(words[k])) k++;
  for (let j = k + 1; j < words.length; j++) {
    const w = words[j];
    const lower = w.toLowerCase();
    if (lower === '-path' || lower === '-literalpath') return words[j + 1];
    if (lower === '/d') continue;
    if (w === '-') return undefined;
    if (isFlag(w)) continue;
    return w;
  }
  return '~';
}

function emptyParsed(): ParsedCommand {
  return { env: [], wrappers: [], program: '', significant: [], label: '' };
}

function parseLine(line: string, depth: number): ParsedCommand {
  const elements = listElements(lex(line));
  if (!elements.length) return emptyParsed();
  const kinds = elements.map(classify);
  let chosen = kinds.lastIndexOf('real');
  if (chosen < 0) chosen = kinds.lastIndexOf('noise');
  if (chosen < 0) chosen = elements.length - 1; // only cds: the cd itself is the command
  // collect the cd targets and normalize once (a line of 10,000 cds stays linear)
  let cwdParts: string[] = [];
  const moveTo = (target: string): void => {
    if (isAbsolutePath(target)) cwdParts = [target];
    else cwdParts.push(target);
  };
  for (let k = 0; k < chosen; k++) {
    if (kinds[k] !== 'cd') continue;
    const target = cdTarget(elements[k]);
    if (target !== undefined) moveTo(target);
  }
  const simple = parseSimple(elements[chosen], depth);
  if (simple.cwdChange !== undefined) moveTo(simple.cwdChange);
  const cwd = cwdParts.length ? normalizeCwd(cwdParts.join('/')) : undefined;
  const label = simple.program ? [simple.program, ...simple.significant].join(' ') : '';
  const parsed: ParsedCommand = {
    env: simple.env,
    wrappers: simple.wrappers,
    program: simple.program,
    significant: simple.significant,
    label,
  };
  if (cwd !== undefined && cwd !== '.') parsed.cwdChange = cwd;
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** Shell-like words: quotes ('...', "..."), backslash escapes, whitespace; && || ; | & ( ) and redirections are separate tokens. */
export function tokenize(commandLine: string): string[] {
  try {
    return typeof commandLine === 'string' ? lex(commandLine).map((t) => t.text) : [];
  } catch {
    return [];
  }
}

export function parseCommand(commandLine: string): ParsedCommand {
  try {
    return typeof commandLine === 'string' ? parseLine(commandLine, 0) : emptyParsed();
  } catch {
    return emptyParsed();
  }
}

/** Human label of the approach: 'prisma generate', 'npm run build', 'make clean'; '' for an empty line. */
export function approachLabel(commandLine: string): string {
  return parseCommand(commandLine).label;
}

/** `${folder}::${label}`: same base command in the same folder is the same approach. A leading `cd X &&` moves the folder. */
export function approachKey(commandLine: string, cwd?: string): string {
  const parsed = parseCommand(commandLine);
  const folder = parsed.cwdChange !== undefined ? joinCwd(normalizeCwd(cwd), parsed.cwdChange) : normalizeCwd(cwd);
  return `${folder}::${parsed.label}`;
}

/** Wildcard match: `*` any characters, `?` one; case-insensitive. Greedy with one backtrack point: O(n·m) worst case, no regex. */
function wildcard(text: string, pattern: string): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      t++;
      p++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** For the ignoreCommands setting: does any glob match the trimmed command line or its approach label? */
export function matchesGlob(commandLine: string, globs: string[]): boolean {
  try {
    if (typeof commandLine !== 'string' || !Array.isArray(globs) || !globs.length) return false;
    const line = commandLine.trim().toLowerCase();
    let label: string | undefined;
    for (const glob of globs) {
      if (typeof glob !== 'string') continue;
      const pattern = glob.trim().toLowerCase();
      if (!pattern) continue;
      if (wildcard(line, pattern)) return true;
      label ??= approachLabel(commandLine).toLowerCase();
      if (wildcard(label, pattern)) return true;
    }
    return false;
  } catch {
    return false;
  }
}
