// The one-gate rule of eslint.config.mjs, run through ESLint's own API on fixture texts placed at
// virtual paths: the policy's entry points are reachable only from src/app/gate.ts (and the rules
// themselves), however they are imported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintWithRule } from '../support/lintRule';

const messages = lintWithRule('local/one-gate');

const HOST = 'src/host/__one_gate_fixture__.ts';

test('a door that imports the policy by name is refused', async () => {
  const said = await messages(HOST, "import { checkCommand } from '../core/rules/check';\nexport const c = checkCommand;");
  assert.equal(said.length, 1);
  assert.match(said[0], /checkCommand is the policy itself: decide through src\/app\/gate\.ts/);
});

test('a namespace import does not get past it, by property or by a literal key', async () => {
  assert.equal((await messages(HOST, "import * as rules from '../core/rules/check';\nexport const c = rules.checkCommand;")).length, 1);
  assert.equal((await messages(HOST, "import * as rules from '../core/rules/policy';\nexport const c = rules['judgeExhausted'];")).length, 1);
  // other members of the same module, and types, stay allowed
  assert.deepEqual(await messages(HOST, "import * as rules from '../core/rules/check';\nexport const c = rules.somethingElse;"), []);
  assert.deepEqual(await messages(HOST, "import type { checkCommand } from '../core/rules/check';\nexport type C = typeof checkCommand;"), []);
});

test('the gate itself may call the policy', async () => {
  assert.deepEqual(await messages('src/app/gate.ts', "import { checkCommand } from '../core/rules/check';\nexport const c = checkCommand;"), []);
});
