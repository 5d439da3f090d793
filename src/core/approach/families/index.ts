// The family table: a new CLI family is one entry in one of the files of this folder.

import type { FamilyRule } from '../familyTypes';
import { JAVASCRIPT_FAMILIES } from './javascript';
import { NATIVE_FAMILIES } from './native';
import { PYTHON_FAMILIES } from './python';
import { SYSTEM_FAMILIES } from './system';

export const FAMILIES: Record<string, FamilyRule> = {
  ...JAVASCRIPT_FAMILIES,
  ...PYTHON_FAMILIES,
  ...NATIVE_FAMILIES,
  ...SYSTEM_FAMILIES,
};

/** Programs whose positional arguments never change the approach (test runners, linters, file tools). */
export const PLAIN = new Set([
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
