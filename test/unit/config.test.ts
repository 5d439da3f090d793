import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { readConfig, SECTION, SETTINGS_SCHEMA, type SettingKey } from '../../src/core/config';

const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
const declared = Object.keys(pkg.contributes.configuration.properties).map(k => k.slice(SECTION.length + 1));

test('the schema and package.json declare the same keys, types, defaults and limits', () => {
  assert.deepEqual(Object.keys(SETTINGS_SCHEMA).sort(), [...declared].sort());
  for (const [key, spec] of Object.entries(SETTINGS_SCHEMA)) {
    const p = pkg.contributes.configuration.properties[`${SECTION}.${key}`];
    const type = spec.type === 'strings' ? 'array' : spec.type === 'enum' ? 'string' : spec.type;
    assert.equal(p.type, type, key);
    assert.deepEqual(p.default, spec.default, key);
    if (spec.type === 'integer') assert.deepEqual([p.minimum, p.maximum], [spec.min, spec.max], key);
    if (spec.type === 'enum') assert.deepEqual(p.enum, spec.values, key);
    if (spec.type === 'strings') assert.equal(p.items?.type, 'string', key);
  }
});

test('defaults come out when nothing is set, and match package.json', () => {
  const { config, problems } = readConfig(() => undefined);
  assert.deepEqual(problems, []);
  const def = (k: SettingKey) => pkg.contributes.configuration.properties[`${SECTION}.${k}`].default;
  assert.equal(config.threshold, def('threshold'));
  assert.equal(config.blockMode, def('blockMode'));
  assert.equal(config.shortTermWindow, def('shortTermWindow'));
  assert.equal(config.omega, def('reflection.earlierReflections'));
  assert.equal(config.maxOutputBytes, def('maxOutputBytes'));
  assert.equal(config.notifySameError, def('notifications.sameError'));
});

test('bad values are replaced by defaults with a message saying what is used instead', () => {
  const values: Partial<Record<SettingKey, unknown>> = { threshold: 0, blockMode: 'explode', 'redaction.extraPatterns': ['(unclosed'], 'reflection.earlierReflections': 99, 'embeddings.modelPath': '  /models/x  ' };
  const { config, problems } = readConfig(k => values[k]);
  assert.equal(config.threshold, 5);
  assert.equal(config.blockMode, 'interrupt');
  assert.equal(config.omega, 3);
  assert.equal(config.modelPath, '/models/x');
  assert.deepEqual(config.extraRedactionPatterns, []);
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.ok(problems.some(p => p.includes('failureMemory.threshold') && p.includes('using 5')));
  assert.ok(problems.some(p => p.includes('failureMemory.reflection.earlierReflections')));
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
  assert.equal(get(undefined).config.strongestAnswer, 'deny');
  for (const v of ['deny', 'ask', 'warn'] as const) assert.equal(get(v).config.strongestAnswer, v);
  const bad = get('block');
  assert.equal(bad.config.strongestAnswer, 'deny');
  assert.match(bad.problems.join('\n'), /gate\.strongestAnswer must be one of deny, ask, warn, not "block"; using "deny"/);
});
