// node --import tsx scripts/gen-rules.mjs [--check]   (npm run gen:rules)
// Writes the list of the gate's rules in docs/agents.md from the rule table (src/core/rules/policy.ts
// RULES): a new rule is one table entry, and its row in the docs follows. --check: exit 1 when the
// docs differ.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULES } from '../src/core/rules/policy.ts';
import { withRules } from './rulesDoc.ts';
import { writeGenerated } from './writeGenerated.mjs';

const file = path.resolve(import.meta.dirname, '..', 'docs', 'agents.md');
const text = withRules(fs.readFileSync(file, 'utf8'), RULES);
if (text === undefined) {
  console.error('docs/agents.md has no rules markers');
  process.exit(1);
}
writeGenerated(file, text, { what: 'docs/agents.md (the rule table)', run: 'npm run gen:rules' });
