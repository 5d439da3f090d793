// node --import tsx scripts/gen-tool-manifest.mjs [--check]
// Writes package.json's contributes.languageModelTools from the tool definitions (src/agents/tools.ts):
// names, descriptions and each input's JSON Schema generated from its zod schema (z.toJSONSchema).
// --check: exit 1 when package.json differs (test/integration/mcp.test.ts asserts the same).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageModelToolsManifest } from '../src/agents/tools.ts';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
const text = fs.readFileSync(file, 'utf8');
const pkg = JSON.parse(text);
pkg.contributes.languageModelTools = languageModelToolsManifest();
const next = `${JSON.stringify(pkg, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error('package.json languageModelTools differ from src/agents/tools.ts: run node --import tsx scripts/gen-tool-manifest.mjs');
    process.exit(1);
  }
} else if (next !== text) {
  fs.writeFileSync(file, next);
  console.log('package.json: languageModelTools written');
}
