// Python CLIs: interpreters, installers, environment managers, frameworks.

import { PACKAGE_INSTALLER, type FamilyRule } from '../familyTypes';

const CONDA: FamilyRule = {
  subcommands: 1,
  nested: { env: 1 },
  targets: { install: 'packages', remove: 'packages', uninstall: 'packages', update: 'packages' },
  valueFlags: ['-n', '--channel', '-e'],
};

export const PYTHON_FAMILIES: Record<string, FamilyRule> = {
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

};
