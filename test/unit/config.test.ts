import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SETTINGS, readConfig, SECTION, type SettingKey } from '../../src/core/config';
import { DECLARED_SETTINGS } from '../../src/core/settingsDeclared';

const settingsDoc = import('../../scripts/settingsDoc.mjs');
const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
const properties: Record<string, Record<string, unknown>> = pkg.contributes.configuration.properties;

test('src/core/settingsDeclared.ts is package.json\'s declaration of every setting (else: node scripts/gen-settings.mjs)', () => {
  const declared = Object.fromEntries(Object.entries(properties).map(([name, p]) => [
    name.slice(SECTION.length + 1),
    Object.fromEntries(['type', 'enum', 'default', 'minimum', 'maximum'].filter(k => k in p).map(k => [k, p[k]])),
  ]));
  assert.deepEqual(JSON.parse(JSON.stringify(DECLARED_SETTINGS)), declared);
  for (const [name, p] of Object.entries(properties)) if (p.type === 'array') assert.deepEqual(p.items, { type: 'string' }, name);
});

test('the README\'s table of settings is package.json\'s declaration (else: npm run gen:settings)', async () => {
  const { withSettings } = await settingsDoc;
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  assert.equal(withSettings(readme, properties), readme);
  for (const name of Object.keys(properties)) if (!name.startsWith(`${SECTION}.team.`)) assert.ok(readme.includes(`| \`${name}\` |`), name);
});

test('nothing set: every setting is its declared default, by its declared name', () => {
  const { config, problems } = readConfig(() => undefined);
  assert.deepEqual(problems, []);
  const expected = Object.fromEntries(Object.entries(properties).filter(([name]) => !name.startsWith(`${SECTION}.team.`)).map(([name, p]) => [name.slice(SECTION.length + 1), p.default]));
  assert.deepEqual(config, expected);
  // what the engine runs with when nothing is set is the same, with the caps
  assert.deepEqual({ ...DEFAULT_SETTINGS, limits: undefined }, { ...expected, limits: undefined });
});

test('bad values are replaced by defaults with a message saying what is used instead', () => {
  const values: Partial<Record<SettingKey, unknown>> = { threshold: 0, blockMode: 'explode', 'redaction.extraPatterns': ['(unclosed'], 'reflection.earlierReflections': 99, 'embeddings.modelPath': '  /models/x  ' };
  const { config, problems } = readConfig(k => values[k]);
  assert.equal(config.threshold, 5);
  assert.equal(config.blockMode, 'interrupt');
  assert.equal(config['reflection.earlierReflections'], 3);
  assert.equal(config['embeddings.modelPath'], '/models/x');
  assert.deepEqual(config['redaction.extraPatterns'], []);
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.ok(problems.some(p => p.includes('failureMemory.threshold') && p.includes('using 5')));
  assert.ok(problems.some(p => p.includes('failureMemory.reflection.earlierReflections') && p.includes('a number from 1 to 10')));
});

test('palette titles are the help dialog\'s button words', () => {
  const titles = Object.fromEntries(pkg.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]));
  assert.equal(titles['failureMemory.reflect'], 'Reflect on Failures');
  assert.equal(titles['failureMemory.showMemory'], 'Show Memory');
  assert.equal(titles['failureMemory.markResolved'], 'Mark Resolved');
  assert.equal(titles['failureMemory.runAnywayOnce'], 'Run Anyway Once');
});

test('the strongest answer of the gate: deny by default; deny, ask and warn are read; anything else is reported and the default used', () => {
  const get = (v: unknown) => readConfig(k => (k === 'gate.strongestAnswer' ? v : undefined));
  assert.equal(get(undefined).config['gate.strongestAnswer'], 'deny');
  for (const v of ['deny', 'ask', 'warn'] as const) assert.equal(get(v).config['gate.strongestAnswer'], v);
  const bad = get('block');
  assert.equal(bad.config['gate.strongestAnswer'], 'deny');
  assert.match(bad.problems.join('\n'), /gate\.strongestAnswer must be one of deny, ask, warn, not "block"; using "deny"/);
});
