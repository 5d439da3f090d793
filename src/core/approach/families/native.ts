// Compiled-language toolchains and build tools (Go, Rust, JVM, .NET, native), and Ruby, PHP, Perl and other interpreters.

import { PACKAGE_INSTALLER, type FamilyRule } from '../familyTypes';

export const NATIVE_FAMILIES: Record<string, FamilyRule> = {
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

};
