// The lesson a fix teaches tells the truth: it names the error of the streak it ends (not the typo an
// edit made on the way), counts a file only when it is part of the fix, finds the changed files in
// the edit events when there is no git, and never counts Failure Memory's own settings or files.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyRun } from '../../src/core/journal';
import { addEdits, changedSinceLastFailure, editsSentence } from '../../src/core/rules/edits';
import { endedStreak, fixedByText, fixLessonText } from '../../src/core/rules/ledger';
import { DEFAULT_SETTINGS, emptyMemory, type GitState, type MemoryData } from '../../src/core/types';
import { isIgnoredFolder, parseStatus } from '../../src/store/gitContext';
import { settingsWithoutOwnKeys } from '../../src/store/workspaceSettings';
import { recorder } from '../support/recorder';

const TYPE_ERROR = "TypeError: Cannot read properties of undefined (reading 'port')\n    at start (/w/app.js:4:20)\n";
const SYNTAX_ERROR = '/w/config.js:3\n  port: 80,,\n           ^\n\nSyntaxError: Unexpected token \',\'\n';

function git(dirty: Record<string, string> = {}, head = 'c1'): GitState {
  return { head, fingerprint: `${head}:${JSON.stringify(dirty)}`, dirty };
}

function scenario() {
  const rec = recorder();
  const data = emptyMemory();
  const ctx = { redact: (t: string) => t, newId: (() => { let n = 0; return () => `l${++n}`; })() };
  const run = (exitCode: number, output: string, state?: GitState) => {
    const a = rec.attempt('node app.js', exitCode, output);
    if (state) a.git = state;
    return applyRun(data, a, [], DEFAULT_SETTINGS, ctx);
  };
  const edit = (path: string) => addEdits(data, [{ path, source: 'save' }], new Date(rec.now() + 30_000).toISOString());
  return { data, run, edit, rec };
}

const fixLesson = (data: MemoryData) => data.learnings.find(l => l.source === 'fix')?.text;

void describe('a fix lesson names the error of the streak it ends', () => {
  void test('TypeError, TypeError, a save with a typo (SyntaxError), then the fix: the lesson says TypeError, the file is the one fixed', () => {
    const { data, run } = scenario();
    run(1, TYPE_ERROR, git({ 'config.js': 'h1' }));
    run(1, TYPE_ERROR, git({ 'config.js': 'h1' }));
    run(1, SYNTAX_ERROR, git({ 'config.js': 'typo' }));
    const r = run(0, 'listening\n', git({ 'config.js': 'fixed' }));
    assert.deepEqual(r.ledger.fix?.files, ['config.js']);
    assert.match(r.ledger.fix!.signature, /TypeError/);
    assert.match(fixLesson(data)!, /^“node app\.js” fixed by changing “config\.js” \(the error was: TypeError: Cannot read properties of undefined/);
    assert.doesNotMatch(fixLesson(data)!, /SyntaxError/);
  });

  void test("the typo's file counts only when it is part of the fix: restored as it was, it is not; left changed, it is", () => {
    const restored = scenario();
    restored.run(1, TYPE_ERROR, git());
    restored.run(1, TYPE_ERROR, git());
    restored.run(1, SYNTAX_ERROR, git({ 'util.js': 'typo' })); // a typo in util.js on the way
    const r1 = restored.run(0, 'ok\n', git({ 'app.js': 'fixed' })); // util.js back as it was, the fix in app.js
    assert.deepEqual(r1.ledger.fix?.files, ['app.js']);

    const kept = scenario();
    kept.run(1, TYPE_ERROR, git());
    kept.run(1, SYNTAX_ERROR, git({ 'util.js': 'typo' }));
    const r2 = kept.run(0, 'ok\n', git({ 'app.js': 'fixed', 'util.js': 'changed' }));
    assert.deepEqual(r2.ledger.fix?.files, ['app.js', 'util.js']);
  });

  void test('the recurring error: the one most failures had, the earliest first on a tie; none when no error came twice', () => {
    const { data, run } = scenario();
    run(1, SYNTAX_ERROR, git({ 'a.js': '1' }));
    run(1, TYPE_ERROR, git({ 'a.js': '2' }));
    run(1, TYPE_ERROR, git({ 'a.js': '3' }));
    const streak = endedStreak(data.approaches['.::node app.js'].ledger!);
    assert.match(streak.signature, /TypeError/);
    assert.equal(streak.runs.length, 3);
    const tie = scenario();
    for (const out of [TYPE_ERROR, SYNTAX_ERROR, TYPE_ERROR, SYNTAX_ERROR]) tie.run(1, out, git());
    assert.match(endedStreak(tie.data.approaches['.::node app.js'].ledger!).signature, /TypeError/);
    // each run failed its own way (work in progress): the fix is what changed since the last failure
    const progress = scenario();
    progress.run(1, "Error: ENOENT: no such file or directory, open 'build.config.json'\n", git());
    progress.run(1, TYPE_ERROR, git({ 'build.config.json': 'c1' }));
    progress.run(1, SYNTAX_ERROR, git({ 'build.config.json': 'c1', 'build.js': 'b1' }));
    const passed = progress.run(0, 'built\n', git({ 'build.config.json': 'c1', 'build.js': 'b2' }));
    assert.equal(endedStreak(progress.data.approaches['.::node app.js'].ledger!.slice(0, -1)).signature, '');
    assert.deepEqual(passed.ledger.fix?.files, ['build.js']);
    assert.match(passed.ledger.fix!.signature, /SyntaxError/);
  });
});

void describe('without git, the changed files come from the edit events', () => {
  void test('the files saved since the last failure are what fixed it (a folder with no repository of its own)', () => {
    const { data, run, edit } = scenario();
    run(1, TYPE_ERROR);
    edit('config.js');
    run(1, TYPE_ERROR);
    edit('config.js');
    edit('src/server.js');
    const r = run(0, 'listening\n');
    assert.deepEqual(r.ledger.fix?.files, ['config.js', 'src/server.js']);
    assert.match(fixLesson(data)!, /fixed by changing “config\.js” and “src\/server\.js” \(the error was: TypeError/);
  });

  void test('an install is worded as work ("installing packages"), never as a file called (packages)', () => {
    const { data, run, edit } = scenario();
    run(1, "Error: Cannot find module 'left-pad'\n");
    edit('(packages)');
    run(0, 'ok\n');
    assert.match(fixLesson(data)!, /fixed by installing packages \(the error was: Error: Cannot find module/);
    assert.equal(fixedByText(['(packages)', 'a.js']), 'installing packages and changing “a.js”');
    assert.equal(fixLessonText({ files: ['(inline script)'], signature: '', at: '' }), 'fixed by running an inline script');
  });

  void test('no edit since the last failure: no lesson (a pass on the same code is no fix)', () => {
    const { data, run, edit } = scenario();
    run(1, TYPE_ERROR);
    edit('a.js');
    run(1, TYPE_ERROR);
    const r = run(0, 'ok\n');
    assert.equal(r.ledger.fix, undefined);
    assert.equal(fixLesson(data), undefined);
  });

  void test('Failure Memory\'s own files saved are never the fix', () => {
    const { run, edit } = scenario();
    run(1, TYPE_ERROR);
    edit('.vscode/failure-memory/memory.json');
    edit('.claude/settings.json');
    assert.equal(run(0, 'ok\n').ledger.fix, undefined);
  });

  void test('the reason a change is seen says it in words', () => {
    assert.equal(editsSentence(['(packages)']), 'packages were installed');
    assert.equal(editsSentence(['(packages)', 'a.js', 'b.js']), 'packages were installed and a.js and b.js changed');
    assert.equal(editsSentence(['a', 'b', 'c', 'd', 'e']), 'a, b, c and 2 more changed');
    const { data, run, edit } = scenario();
    run(1, "Error: Cannot find module 'left-pad'\n");
    edit('(packages)');
    const c = changedSinceLastFailure(data, data.approaches['.::node app.js'], 'node app.js');
    assert.equal(c.what, 'packages were installed since the last failure');
  });
});

void describe("Failure Memory's own settings are no change of the workspace", () => {
  void test('settings.json without failureMemory.* (flat or nested), comments and layout aside', () => {
    const base = settingsWithoutOwnKeys('{ "editor.tabSize": 2 }');
    assert.equal(settingsWithoutOwnKeys('{\n  // mine\n  "editor.tabSize": 2,\n  "failureMemory.threshold": 3,\n}'), base);
    assert.equal(settingsWithoutOwnKeys('{ "failureMemory": { "gate": { "strongestAnswer": "warn" } }, "editor.tabSize": 2 }'), base);
    assert.notEqual(settingsWithoutOwnKeys('{ "editor.tabSize": 4, "failureMemory.threshold": 3 }'), base);
    assert.equal(settingsWithoutOwnKeys('{ "failureMemory.threshold": 3 }'), settingsWithoutOwnKeys('{}'), 'a file holding only ours is as good as none');
    assert.equal(settingsWithoutOwnKeys('not json {'), 'not json {', 'text that does not parse is compared as it is');
  });

  void test('a workspace folder that its repository ignores has no git context (the demo in an ignored folder)', () => {
    const parsed = parseStatus('# branch.oid (initial)\0# branch.head main\0? sub/\0! .try/\0! node_modules/\0');
    assert.deepEqual(parsed.ignored, ['.try/', 'node_modules/']);
    assert.deepEqual(parsed.paths, ['sub/']);
    assert.equal(isIgnoredFolder('.try/workspace', parsed.ignored), true);
    assert.equal(isIgnoredFolder('.try', parsed.ignored), true);
    assert.equal(isIgnoredFolder('sub', parsed.ignored), false);
    assert.equal(isIgnoredFolder('.tryout', parsed.ignored), false);
  });
});
