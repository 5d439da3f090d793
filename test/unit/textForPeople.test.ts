// What people read is the command they typed and the error they got: labels are the line as typed
// (shortened, never a key's own words), advice names the real port, module, file, address or
// program, repeats are counted as they came, the terminal's reflection has no Markdown escapes, and
// an open reflection follows its approach.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyLabel, shortLine, shownLabel } from '../../src/core/approach';
import { buildReflection, followReflection } from '../../src/core/reflection';
import { reactionTo } from '../../src/core/rules/guardVerdict';
import { adviceFor, errorSubject, sameErrorText } from '../../src/core/text/specificAdvice';
import { DEFAULT_SETTINGS, emptyMemory, type MemoryData } from '../../src/core/types';
import { reflectionToMarkdown, reflectionToText } from '../../src/views/reflectionDoc';
import { recorder } from '../support/recorder';

describe('labels are the command as typed', () => {
  test('a label made of words typed stays (wrappers and flags dropped); one with a key\'s own words becomes the typed line', () => {
    assert.equal(shownLabel('npx prisma generate'), 'prisma generate');
    assert.equal(shownLabel('npm run build -- --watch'), 'npm run build');
    assert.equal(shownLabel(`node -e "require('left-pad')"`), `node -e "require('left-pad')"`);
    assert.equal(shownLabel(`node -e "import('left-pad')"`), `node -e import('left-pad')`, 'a snippet keyed by its own words is shown as typed, unquoted');
    assert.equal(shownLabel('curl -sS localhost:3000/health'), 'curl http://localhost:3000/health', 'a URL written out whole still reads as typed');
    assert.equal(shownLabel('ssh deploy@host1 uptime'), 'ssh deploy@host1 uptime', 'a host without its user is a key\'s own word');
    assert.equal(shownLabel('curl -sS http://127.0.0.1:9/health'), 'curl http://127.0.0.1:9/health');
    assert.doesNotMatch(shownLabel(`python -c "import numpy; print(numpy.__version__)"`), /import:/);
  });

  test('a long or many-line command is cut short, visibly', () => {
    assert.equal(shortLine(`node -e "${'x'.repeat(100)}"`).length, 60);
    assert.ok(shortLine(`node -e "${'x'.repeat(100)}"`).endsWith('…'));
    assert.equal(shortLine('python - <<EOF\nimport x\nEOF'), 'python - <<EOF …');
  });

  test('recording names the approach as last typed; judgement keeps comparing the key', () => {
    const rec = recorder();
    const data = emptyMemory();
    rec.run(data, `node -e "require('left-pad')"`, 1, "Error: Cannot find module 'left-pad'\n");
    const [a] = Object.values(data.approaches);
    assert.equal(a.label, `node -e "require('left-pad')"`);
    assert.equal(keyLabel(a.key), 'node -e import:left-pad');
    rec.run(data, `node -e "const p = require('left-pad'); p('x', 3)"`, 1, "Error: Cannot find module 'left-pad'\n");
    assert.equal(Object.keys(data.approaches).length, 1, 'the same approach');
    assert.equal(data.approaches[a.key].label, `node -e "const p = require('left-pad'); p('x', 3)"`);
  });
});

describe('advice with the real port, module, file, address and program', () => {
  test('errorSubject reads what the error names', () => {
    assert.equal(errorSubject('Error: listen EADDRINUSE: address already in use :::8080').port, '8080');
    assert.equal(errorSubject("Error: Cannot find module 'left-pad'\nRequire stack:").module, 'left-pad');
    assert.equal(errorSubject("ModuleNotFoundError: No module named 'numpy'").module, 'numpy');
    assert.equal(errorSubject("Error: ENOENT: no such file or directory, open 'config/app.json'").file, 'config/app.json');
    assert.equal(errorSubject("curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server").address, '127.0.0.1:9');
    assert.equal(errorSubject('Error: connect ECONNREFUSED 127.0.0.1:5432').address, '127.0.0.1:5432');
    assert.equal(errorSubject('bash: prisma: command not found').program, 'prisma');
    assert.deepEqual(errorSubject('Tests: 1 failed'), {});
  });

  function loop(command: string, output: string, times = 3): MemoryData {
    const rec = recorder();
    const data = emptyMemory();
    for (let i = 0; i < times; i++) rec.run(data, command, 1, output);
    return data;
  }

  test('a port in use: "lsof -i :8080", never ":PORT"', () => {
    const data = loop('npm start', 'Error: listen EADDRINUSE: address already in use :::8080\n    at Server.setupListenHandle\n');
    const advice = adviceFor(Object.values(data.approaches)[0], 5);
    assert.match(advice.insights[0], /port 8080 \(lsof -i :8080\)/);
    assert.match(advice.question, /port 8080/);
    const r = buildReflection({ data, approach: Object.values(data.approaches)[0], threshold: 5, similar: [], id: 'r1' });
    const all = JSON.stringify(r);
    assert.doesNotMatch(all, /:PORT|\bPORT\b/);
    assert.match(all, /lsof -i :8080/);
  });

  test('a missing module and a refused address are named in the steps', () => {
    const mod = adviceFor(Object.values(loop(`node -e "import('left-pad')"`, "Error: Cannot find module 'left-pad'\n").approaches)[0], 5);
    assert.match(mod.insights[0], /Install “left-pad”/);
    const refused = adviceFor(Object.values(loop('curl -sS http://127.0.0.1:9/health', "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n").approaches)[0], 5);
    assert.match(refused.insights[0], /listen on 127\.0\.0\.1:9/);
  });

  test('the repeat is counted as it came: "5 times", not "twice"', () => {
    assert.match(sameErrorText('type_error', 5), /^The same error 5 times: /);
    assert.match(sameErrorText('connection_refused', 3), /^The same refusal 3 times: /);
    assert.match(sameErrorText('unknown', 2), /^The same error twice, and its cause/);
    const data = loop('npx tsc -p .', "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n", 5);
    const a = Object.values(data.approaches)[0];
    assert.match(adviceFor(a, 5).sameError, /^The same error 5 times/);
    const r = reactionTo({ approach: { ...a, status: 'active' }, becameExhausted: false, resolved: false, stored: true }, true);
    assert.equal(r.kind, 'sameError');
    if (r.kind === 'sameError') assert.equal(r.times, 5);
  });
});

describe('the reflection for a terminal and an open reflection', () => {
  const ASSERTION = 'node:assert:128\n  throw new AssertionError(obj);\n\nAssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n1 !== 2\n';

  test('text for a terminal has no Markdown escapes; Markdown keeps them', () => {
    const rec = recorder();
    const data = emptyMemory();
    for (let i = 0; i < 3; i++) rec.run(data, 'node test_sum.js', 1, ASSERTION);
    const r = buildReflection({ data, approach: Object.values(data.approaches)[0], threshold: 5, similar: [], id: 'r1' });
    const text = reflectionToText(r);
    assert.match(text, /^Reflection: node test_sum\.js\n/);
    assert.match(text, /AssertionError \[ERR_ASSERTION\]/);
    assert.doesNotMatch(text, /\\[[\]_*`#<>!\\]/, 'no Markdown escape');
    assert.doesNotMatch(text, /^#|\*\*/m, 'no Markdown markup');
    assert.match(reflectionToMarkdown(r), /AssertionError \\\[ERR\\_ASSERTION\\\]/);
  });

  test('a reflection written at two failures follows its approach to exhausted; a model\'s words are kept with a note', () => {
    const rec = recorder();
    const data = emptyMemory();
    rec.run(data, 'node app.js', 1, ASSERTION);
    rec.run(data, 'node app.js', 1, ASSERTION);
    const approach = () => Object.values(data.approaches)[0];
    const early = buildReflection({ data, approach: approach(), threshold: 5, similar: [], id: 'r1' });
    assert.match(early.self_reflection.reflection_text, /failed twice/);
    for (let i = 0; i < 3; i++) rec.run(data, 'node app.js', 1, ASSERTION);
    const now = followReflection(early, { data, approach: approach(), threshold: 5 });
    assert.equal(now.failure_memory.id, 'r1', 'the same reflection');
    assert.equal(now.failure_memory.status, 'exhausted');
    assert.equal(now.failure_memory.attempts, 5);
    assert.doesNotMatch(now.self_reflection.reflection_text, /failed twice/);
    assert.match(reflectionToText(now), /Failed 5 times in a row \(the limit is 5\) · exhausted/);
    const byModel = { ...early, failure_memory: { ...early.failure_memory, produced_by: 'language-model' as const, model: 'test-model' }, self_reflection: { ...early.self_reflection, reflection_text: 'The model says: check the fixture.' } };
    const followed = followReflection(byModel, { data, approach: approach(), threshold: DEFAULT_SETTINGS.threshold });
    assert.equal(followed.self_reflection.reflection_text, 'The model says: check the fixture.');
    assert.equal(followed.failure_memory.status, 'exhausted');
    assert.equal(followed.failure_memory.produced_by, 'language-model');
    assert.match(followed.failure_memory.warnings[0], /^Written by the language model when it failed twice in a row \(the limit is 5\); it has now failed 5 times in a row/);
  });
});
