// node --import tsx scripts/gen-tool-manifest.mjs [--check]
// Writes package.json's contributes.languageModelTools from the tool definitions (src/agents/tools.ts):
// names, descriptions and each input's JSON Schema generated from its zod schema (z.toJSONSchema).
// --check: exit 1 when package.json differs (test/integration/mcp.test.ts asserts the same).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageModelToolsManifest } from '../src/agents/tools.ts';
import { writeGenerated } from './writeGenerated.mjs';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
const text = fs.readFileSync(file, 'utf8');
const pkg = JSON.parse(text);
pkg.contributes.languageModelTools = languageModelToolsManifest();
const next = `${JSON.stringify(pkg, null, 2)}\n`;
writeGenerated(file, next, { what: 'package.json\'s languageModelTools (from src/agents/tools.ts)', run: 'node --import tsx scripts/gen-tool-manifest.mjs' });
