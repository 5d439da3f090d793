import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { readConfig, SECTION, SETTING_KEYS, type RawSettings } from '../../src/core/config';
import { TEAM_SETTING_KEYS } from '../../src/store/team/config';

const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
const declared = Object.keys(pkg.contributes.configuration.properties).map(k => k.slice(SECTION.length + 1));

test('the typed settings and package.json declare the same keys', () => {
  // team memory's settings (failureMemory.team.*) are typed beside its store, read by TeamHub and the CLI
  assert.deepEqual([...SETTING_KEYS, ...TEAM_SETTING_KEYS.map(k => `team.${k}`)].sort(), [...declared].sort());
});

test('defaults come out when nothing is set, and match package.json', () => {
  const { config, problems } = readConfig(() => undefined);
  assert.deepEqual(problems, []);
  const def = (k: keyof RawSettings) => pkg.contributes.configuration.properties[`${SECTION}.${k}`].default;
  assert.equal(config.threshold, def('threshold'));
  assert.equal(config.blockMode, def('blockMode'));
  assert.equal(config.shortTermWindow, def('shortTermWindow'));
  assert.equal(config.omega, def('reflection.earlierReflections'));
  assert.equal(config.maxOutputBytes, def('maxOutputBytes'));
  assert.equal(config.notifySameError, def('notifications.sameError'));
});

test('bad values are replaced by defaults with a message saying what is used instead', () => {
  const values: Partial<Record<keyof RawSettings, unknown>> = { threshold: 0, blockMode: 'explode', 'redaction.extraPatterns': ['(unclosed'], 'reflection.earlierReflections': 99, 'embeddings.modelPath': '  /models/x  ' };
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
  assert.match(bad.problems.join('\n'), /gate\.strongestAnswer must be deny, ask or warn/);
});
