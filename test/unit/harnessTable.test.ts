import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { HARNESS_IDS, HARNESS_TABLE, harnessFacts } from '../../src/agents/hooks/harnessTable';
import { HARNESSES } from '../../src/agents/hooks/index';
import { harnessPrograms, harnessSignNames, parseHarnessList, targetFor } from '../../src/agents/setup';

test('every harness of the table has its adapter and its setup target, and nothing else does', () => {
  assert.deepEqual(Object.keys(HARNESSES).sort(), [...HARNESS_IDS].sort());
  for (const h of HARNESS_IDS) {
    assert.equal(HARNESSES[h].id, h);
    assert.ok(targetFor(h), h);
    assert.ok(harnessFacts(h).signs.length > 0, `${h} has a sign`);
  }
  assert.deepEqual(parseHarnessList(HARNESS_IDS.join(',')), [...HARNESS_IDS]);
  assert.throws(() => parseHarnessList('claude,aider'), /unknown harness aider \(one of vscode, claude/);
});

test('the lists setup-agents says come from the table', () => {
  assert.deepEqual(harnessPrograms(), ['claude', 'copilot', 'cursor-agent', 'gemini', 'codex', 'cline']);
  assert.ok(harnessSignNames().includes('.claude') && harnessSignNames().includes('.github'));
  assert.equal(Object.keys(HARNESS_TABLE)[0], 'vscode');
});
