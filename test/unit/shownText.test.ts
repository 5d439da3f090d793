// One renderer for what a person reads (src/core/text/shownText.ts): a normalized signature
// (`port <port> after <dur>`, two lines joined by ` | `) is a matching key and never reaches a
// person — every surface shows the latest real line, or the signature made readable when no output
// was kept — and Markdown goes only where it renders (no literal backticks in plain-text places).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildBrief } from '../../src/core/prompts/brief';
import { checkCommand } from '../../src/core/rules/check';
import { helpFacts } from '../../src/core/rules/guardVerdict';
import { fixLessonText, ledgerLines } from '../../src/core/rules/ledger';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { approachView, buildSnapshot, recallView } from '../../src/views/panelModel';
import { recall } from '../../src/core/recall';
import { createRedactor } from '../../src/core/text/redact';
import { buildReflection } from '../../src/core/reflection';
import { reflectionDoc } from '../../src/views/reflectionDoc';
import { errorTextOf, hasPlaceholder, plainFromMarkdown, readableSignature, shownError } from '../../src/core/text/shownText';
import { DEFAULT_SETTINGS, emptyMemory, type EngineSettings, type MemoryData } from '../../src/core/types';
import type { Line } from '../../src/shared/reflectionDoc';

const redactor = createRedactor();
const CURL = (ms: number) => `curl: (7) Failed to connect to 127.0.0.1 port 9 after ${ms} ms: Couldn't connect to server\n`;
const TAP = (actual: number) =>
  `TAP version 13\n# Subtest: total sums price times quantity\nnot ok 1 - total sums price times quantity\n  ---\n  duration_ms: 1.9\n  failureType: 'testCodeFailure'\n  error: |-\n    Expected values to be strictly equal:\n    \n    ${actual} !== 13\n    \n  code: 'ERR_ASSERTION'\n  name: 'AssertionError'\n  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n`;

function memoryOf(settings: EngineSettings): MemoryData {
  const data = emptyMemory();
  let t = Date.parse('2026-11-25T09:00:00Z');
  const run = (command: string, exitCode: number, output: string) =>
    applyAttempt(data, prepareAttempt({ command, exitCode, output, source: 'terminal' }, settings, redactor, new Date((t += 1000))), settings);
  for (let i = 0; i < 6; i++) run('curl -sS 127.0.0.1:9/health', 7, CURL(i));
  for (let i = 0; i < 3; i++) run('npm test', 1, TAP(6 + i));
  return data;
}

/** Every text a person reads about the memory, from every core surface. */
function personTexts(data: MemoryData): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (where: string, text: string | undefined) => text && out.push([where, text]);
  for (const a of Object.values(data.approaches)) {
    const v = approachView('f', a, 5);
    add(`${a.key} panel lastError`, v.lastError);
    add(`${a.key} panel summary`, v.summary);
    add(`${a.key} panel badge`, v.badgeLabel);
    for (const p of v.patterns) add(`${a.key} panel pattern`, p);
    for (const l of ledgerLines(a)) add(`${a.key} history`, l);
    const check = checkCommand(data, a.command, '.', DEFAULT_SETTINGS);
    add(`${a.key} dialog last error`, helpFacts(check, a).lastErrorLine);
    add(`${a.key} dialog came`, helpFacts(check, a).lastErrorCame);
    const r = buildReflection({ data, approach: a, threshold: 5, similar: [], id: 'r' });
    add(`${a.key} reflection text`, r.self_reflection.reflection_text);
    add(`${a.key} causal reasoning`, r.self_reflection.causal_reasoning);
    for (const i of r.self_reflection.actionable_insights) add(`${a.key} insight`, i);
    const doc = reflectionDoc(r);
    add(`${a.key} reflection summary`, doc.summary);
    const lines: Line[] = doc.blocks.flatMap(b => (b.kind === 'list' ? b.items : b.kind === 'attempt' ? [b.title, ...b.details] : [b.line]));
    for (const l of lines) add(`${a.key} reflection view`, l.map(s => s.text).join(''));
  }
  return out;
}

void describe('what a person reads', () => {
  void test('a signature made readable: its lines joined as the output had them, masked values as “…”', () => {
    assert.equal(readableSignature('curl: (7) Failed to connect to 127.0.0.1 port <port> after <dur>: Couldn\'t connect to server'), "curl: (7) Failed to connect to 127.0.0.1 port … after …: Couldn't connect to server");
    assert.equal(readableSignature('AssertionError: Expected values to be strictly equal: | <n> !== <n>'), 'AssertionError: Expected values to be strictly equal: … !== …');
    assert.equal(shownError('Error: a | b'), 'Error: a b', 'a signature-shaped text is made readable');
    assert.equal(shownError('Error: port 5432 refused'), 'Error: port 5432 refused', 'a real line passes as it is');
    assert.equal(hasPlaceholder('port <port>'), true);
    assert.equal(hasPlaceholder('x | y'), true);
    assert.equal(hasPlaceholder("Error: Cannot find module '@prisma/client'"), false);
  });

  void test('an attempt’s error: the real line when output was kept, the readable signature when not', () => {
    const [kept, none] = [DEFAULT_SETTINGS, { ...DEFAULT_SETTINGS, storeOutput: false }].map(s =>
      prepareAttempt({ command: 'curl -sS 127.0.0.1:9/health', exitCode: 7, output: CURL(12), source: 'terminal' }, s, redactor),
    );
    assert.match(kept.errorSignature, /<port>|<dur>/, 'the signature is masked (it is a key)');
    assert.equal(errorTextOf(kept), CURL(12).trim());
    assert.equal(errorTextOf(none), "curl: (7) Failed to connect to 127.0.0.1 port … after …: Couldn't connect to server");
  });

  for (const [name, settings] of [
    ['output kept', DEFAULT_SETTINGS],
    ['no output kept (failureMemory.storeOutput off, or VS Code read none)', { ...DEFAULT_SETTINGS, storeOutput: false }],
  ] as const) {
    void test(`no placeholder and no signature join on any surface (${name})`, () => {
      const texts = personTexts(memoryOf(settings));
      assert.ok(texts.length > 30, `${texts.length} texts gathered`);
      for (const [where, text] of texts) assert.ok(!hasPlaceholder(text), `${where}: ${text}`);
    });
  }

  void test('the latest real text: the dialog, the panel and the reflection show the line as printed, with its real port and numbers', () => {
    const data = memoryOf(DEFAULT_SETTINGS);
    const curl = data.approaches[Object.keys(data.approaches).find(k => k.includes('curl'))!];
    assert.equal(approachView('f', curl, 5).lastError, CURL(5).trim());
    assert.equal(helpFacts(checkCommand(data, 'curl -sS 127.0.0.1:9/health', '.', DEFAULT_SETTINGS), curl).lastErrorLine, CURL(5).trim());
    const tests = data.approaches['.::npm test'];
    assert.equal(approachView('f', tests, 5).lastError, 'Expected values to be strictly equal: 8 !== 13', 'TAP: the assertion, not its "error: |-" header');
  });

  void test('plain-text surfaces carry no Markdown: panel, dialog, reflection text, lessons and history', async () => {
    const data = memoryOf(DEFAULT_SETTINGS);
    for (const [where, text] of personTexts(data).filter(([w]) => !w.endsWith('reflection view'))) assert.doesNotMatch(text, /`|\*\*/, `${where}: ${text}`);
    assert.equal(fixLessonText({ files: ['src/cart.js'], signature: 'x', at: '' }), 'fixed by changing “src/cart.js” (the error was: x)');
    // a lesson stored by an older version with backticks is shown with quotes
    const a = data.approaches['.::npm test'];
    a.fix = { files: ['src/cart.js'], signature: '', at: '' };
    data.learnings.push({ id: 'l1', type: 'learning', text: '`npm test` fixed by changing `src/cart.js`', key: a.key, source: 'fix', createdAt: a.updatedAt });
    const hits = await recall(data, 'Expected values to be strictly equal', 5);
    const view = recallView('f', hits.find(h => h.key === a.key)!);
    assert.equal(view.lesson, '“npm test” fixed by changing “src/cart.js”');
    assert.equal(view.errorText, 'Expected values to be strictly equal: 8 !== 13');
    const snapshot = buildSnapshot([{ uri: 'f', name: 'ws', private: false, data, threshold: 5 }], { terminal: true, tasks: true, terminalsWithIntegration: 1, terminals: 1 });
    assert.equal(snapshot.learnings[0].text, '“npm test” fixed by changing “src/cart.js”');
    assert.equal(plainFromMarkdown('run `npm ci` then **retry**'), 'run “npm ci” then retry');
  });

  void test('the brief (Markdown, for a chat or an issue) fences the real error, never the signature', () => {
    const data = memoryOf({ ...DEFAULT_SETTINGS, storeOutput: false });
    const a = data.approaches[Object.keys(data.approaches).find(k => k.includes('curl'))!];
    const brief = buildBrief({ approach: a, threshold: 5, similar: [], redact: s => s });
    assert.ok(!hasPlaceholder(brief.replace(/ \| /g, ' ')), brief);
    assert.doesNotMatch(brief, /<port>|<dur>/);
    assert.match(brief, /exhausted: failed 6 times in a row \(the limit is 5\)/);
  });
});
