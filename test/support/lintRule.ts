// One rule of eslint.config.mjs run through ESLint's own API on fixture texts placed at virtual
// paths (no real source file is touched). The fixtures are not part of a tsconfig project, so the
// type-aware rules (and the project service that feeds them) are switched off for them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** Lints `source` as if it were `file` (relative to the repository) with only `ruleId` on: that rule's messages. */
export function lintWithRule(ruleId: string): (file: string, source: string) => Promise<string[]> {
  const eslint = new ESLint({
    cwd: REPO_ROOT,
    overrideConfigFile: path.join(REPO_ROOT, 'eslint.config.mjs'),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: r => r.ruleId === ruleId,
  });
  return async (file, source) => {
    const [result] = await eslint.lintText(source, { filePath: path.join(REPO_ROOT, file) });
    assert.equal(result.fatalErrorCount, 0, result.messages.map(m => m.message).join('\n'));
    return result.messages.filter(m => m.ruleId === ruleId).map(m => m.message);
  };
}
