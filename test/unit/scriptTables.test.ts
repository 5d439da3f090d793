// A project's script tables: read from its manifests (src/core/approach/manifests.ts, pure) by the store
// (src/store/scriptTables.ts: the nearest package.json or pyproject.toml at or above a folder, the folder's
// Makefile or composer.json; bounded, cached while the file is unchanged, a bad manifest is no table).
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { composerScripts, makeTargets, packageScripts, pdmScripts } from '../../src/core/approach/manifests';
import { scriptReader } from '../../src/store/scriptTables';
import { tempFolders } from '../support/tempFolders';

const tempDir = tempFolders('fm-script-tables-');

describe('the scripts a manifest names', () => {
  test("package.json: only `scripts`, only string commands", () => {
    assert.deepEqual({ ...packageScripts({ name: 'x', scripts: { test: 'jest', bad: 5, empty: ' ' }, dependencies: { jest: '1' } }) }, { test: ['jest'] });
    assert.deepEqual({ ...packageScripts({ scripts: ['jest'] }) }, {});
    assert.deepEqual({ ...packageScripts(null) }, {});
    // a script named like an object's own property is a script, not a prototype
    assert.deepEqual(packageScripts({ scripts: { constructor: 'make', __proto__: 'x' } }).constructor, ['make']);
  });

  test('a Makefile: targets, their recipes with simple variables expanded, prerequisites that are targets, the default target', () => {
    const mk = makeTargets([
      'PY ?= python3',
      'PYTEST := $(PY) -m pytest',
      '.PHONY: all test lint',
      'all: lint test  # everything',
      'test:',
      '\t@$(PYTEST) -x tests/',
      'lint: ; ruff check .',
      'deploy: build',
      '\t./deploy.sh $(shell date)',
      'build: obj/main.o',
      '\t-cc -o app main.c \\',
      '\t  -O2',
      '%.o: %.c',
      '\tcc -c $<',
      'target: VAR = value',
    ].join('\n'));
    assert.equal(mk.first, 'all');
    assert.deepEqual({ ...mk.scripts }, {
      all: ['make lint', 'make test'],
      test: ['python3 -m pytest -x tests/'],
      lint: ['ruff check .'],
      deploy: ['make build'],
      build: ['cc -o app main.c  \t  -O2'],
    });
  });

  test("pyproject.toml: `[tool.pdm.scripts]` as strings, argv lists, cmd/shell/composite tables (inline, dotted, sub-tables), comments", () => {
    const pdm = pdmScripts([
      '[project]',
      'name = "app"',
      '[tool.pdm.scripts]',
      'test = "pytest -x"  # the tests',
      'lint = {cmd = ["ruff", "check", "."], help = "lint it"}',
      'all = {composite = ["lint", "test"]}',
      'serve.shell = "uvicorn app:app --reload"',
      'slow = [',
      '  "pytest",',
      '  "-k", "slow and not flaky",',
      ']',
      'hello = {call = "app:main"}',
      '[tool.pdm.scripts.docs]',
      'cmd = "mkdocs build"',
      '[tool.ruff]',
      'line-length = 100',
    ].join('\n'));
    assert.deepEqual({ ...pdm }, {
      test: ['pytest -x'],
      lint: ['ruff check .'],
      all: ['pdm run lint', 'pdm run test'],
      serve: ['uvicorn app:app --reload'],
      slow: ["pytest -k 'slow and not flaky'"],
      docs: ['mkdocs build'],
    });
  });

  test('composer.json: a command or a list, `@php`/`@composer` run those programs, `@other` another script, callbacks and `@putenv` run no command line', () => {
    assert.deepEqual({ ...composerScripts({ scripts: { test: 'phpunit', check: ['@putenv X=1', '@test', '@php artisan lint', 'App\\Hooks::run'] } }) }, {
      test: ['phpunit'],
      check: ['composer run-script test', 'php artisan lint'],
    });
  });
});

describe('the store reads them, bounded and cached', () => {
  test('the nearest package.json at or above the folder (npm walks up), the folder a key names its scripts from', () => {
    const ws = realpathSync(tempDir());
    mkdirSync(join(ws, 'packages', 'api', 'src'), { recursive: true });
    writeFileSync(join(ws, 'package.json'), JSON.stringify({ scripts: { test: 'turbo test' } }));
    writeFileSync(join(ws, 'packages', 'api', 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    const read = scriptReader(ws);
    const api = read({ kind: 'npm', folder: 'packages/api/src' });
    assert.deepEqual({ ...api, scripts: { ...api?.scripts } }, { kind: 'npm', folder: 'packages/api', scripts: { test: ['vitest run'] } });
    assert.equal(read({ kind: 'npm', folder: 'packages' })?.folder, '.');
    assert.equal(read({ kind: 'make', folder: 'packages/api' }), null, 'make reads the folder\'s own Makefile only');
    assert.equal(read({ kind: 'npm', folder: '/' }), null, 'a folder outside the workspace names no scripts of the project');
    assert.equal(read({ kind: 'npm', folder: '..' }), null);
  });

  test('a changed manifest is read again; a broken or too large one is no table', () => {
    const ws = realpathSync(tempDir());
    const file = join(ws, 'package.json');
    writeFileSync(file, JSON.stringify({ scripts: { test: 'jest' } }));
    const read = scriptReader(ws);
    assert.deepEqual(read({ kind: 'npm', folder: '.' })?.scripts.test, ['jest']);
    writeFileSync(file, JSON.stringify({ scripts: { test: 'vitest' } }));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.deepEqual(read({ kind: 'npm', folder: '.' })?.scripts.test, ['vitest']);
    writeFileSync(file, '{ "scripts": ');
    utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    assert.equal(read({ kind: 'npm', folder: '.' }), null);
    writeFileSync(file, `{"scripts":{"test":"jest"},"x":"${'a'.repeat(1024 * 1024)}"}`);
    assert.equal(read({ kind: 'npm', folder: '.' }), null, 'over 1 MB: not read');
  });

  test('a Makefile (GNUmakefile, makefile, Makefile), pyproject.toml and composer.json', () => {
    const ws = realpathSync(tempDir());
    writeFileSync(join(ws, 'Makefile'), 'test:\n\tpytest\n');
    writeFileSync(join(ws, 'pyproject.toml'), '[tool.pdm.scripts]\nlint = "ruff check ."\n');
    writeFileSync(join(ws, 'composer.json'), JSON.stringify({ scripts: { test: 'phpunit' } }));
    const read = scriptReader(ws);
    const make = read({ kind: 'make', folder: '.' });
    assert.deepEqual({ ...make, scripts: { ...make?.scripts } }, { kind: 'make', folder: '.', scripts: { test: ['pytest'] }, first: 'test' });
    assert.deepEqual({ ...read({ kind: 'pdm', folder: '.' })?.scripts }, { lint: ['ruff check .'] });
    assert.deepEqual({ ...read({ kind: 'composer', folder: '.' })?.scripts }, { test: ['phpunit'] });
    assert.equal(read({ kind: 'npm', folder: '.' }), null);
  });
});
