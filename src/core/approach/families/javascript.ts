// JavaScript and TypeScript CLIs: package managers, runtimes, frameworks and their tools.

import type { FamilyRule } from '../familyTypes';

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

export const JAVASCRIPT_FAMILIES: Record<string, FamilyRule> = {
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
};
