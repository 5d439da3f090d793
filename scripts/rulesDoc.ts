// The gate's rules as docs/agents.md lists them: one row per reason code, in the order of the table in
// src/core/rules/policy.ts (RULES), with its answer and the behaviour it captures. Written by
// scripts/gen-rules.mjs; test/unit/policy.test.ts fails while the docs differ from the table.

export const RULES_START = '<!-- rules:start (written by npm run gen:rules from src/core/rules/policy.ts) -->';
export const RULES_END = '<!-- rules:end -->';

/** The block between the markers, for the given rules ({ code, answer, captures }). */
export function rulesMarkdown(rules: ReadonlyArray<{ code: string; answer: string; captures: string }>): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  return ['| reason code | answer | what it captures |', '|---|---|---|', ...rules.map(r => `| \`${r.code}\` | ${cell(r.answer)} | ${cell(r.captures)} |`)].join('\n');
}

/** `doc` with the block between the markers replaced (undefined when the markers are missing). */
export function withRules(doc: string, rules: ReadonlyArray<{ code: string; answer: string; captures: string }>): string | undefined {
  const a = doc.indexOf(RULES_START);
  const b = doc.indexOf(RULES_END);
  if (a < 0 || b < a) return undefined;
  return `${doc.slice(0, a + RULES_START.length)}\n${rulesMarkdown(rules)}\n${doc.slice(b)}`;
}
