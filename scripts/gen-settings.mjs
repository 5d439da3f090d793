// node scripts/gen-settings.mjs [--check]
// Every failureMemory.* setting is declared once, in package.json's contributes.configuration (its
// type, default, limits, enum and description). This writes src/core/settingsDeclared.ts, what
// reading the settings needs of that declaration (no description), from which src/core/config.ts
// derives the settings' types and validates their values, and the README's table of settings (each
// one's default and short `description`). Run it after adding or changing a setting;
// test/unit/config.test.ts fails until it has run. --check: exit 1 when a file differs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSettings } from './settingsDoc.mjs';
import { writeGenerated } from './writeGenerated.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'src', 'core', 'settingsDeclared.ts');
const SECTION = 'failureMemory.';
/** What src/core/config.ts knows how to read and validate, and the fields it reads of each. */
const KEPT = ['type', 'enum', 'default', 'minimum', 'maximum'];

/** A JSON value as TypeScript source, on one line. */
const literal = v => (Array.isArray(v) ? `[${v.map(literal).join(', ')}]` : JSON.stringify(v));

const { properties } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).contributes.configuration;
const lines = [];
for (const [name, spec] of Object.entries(properties)) {
  if (!name.startsWith(SECTION)) throw new Error(`package.json: setting ${name} is not under ${SECTION}`);
  const supported = spec.type === 'integer' || spec.type === 'boolean' || spec.type === 'string' || (spec.type === 'array' && spec.items?.type === 'string');
  if (!supported) throw new Error(`package.json: ${name} is of type ${JSON.stringify(spec.type)}${spec.items ? ` of ${JSON.stringify(spec.items.type)}` : ''}, which src/core/config.ts cannot read yet (integer, boolean, string, array of strings)`);
  if (!('default' in spec)) throw new Error(`package.json: ${name} has no default`);
  const fields = KEPT.filter(k => k in spec).map(k => `${k}: ${literal(spec[k])}`);
  lines.push(`  ${literal(name.slice(SECTION.length))}: { ${fields.join(', ')} },`);
}
const text = `// Generated from package.json's contributes.configuration by scripts/gen-settings.mjs: do not edit.
// Each failureMemory.* setting's type, default and limits as declared there (with its description);
// src/core/config.ts derives the settings' types from this and validates their values with it.
export const DECLARED_SETTINGS = {
${lines.join('\n')}
} as const;
`;

writeGenerated(out, text, { what: 'src/core/settingsDeclared.ts (from package.json\'s settings)', run: 'npm run gen:settings' });

// the README's table of settings: each one's default and short description, from the same declaration
const readme = path.join(root, 'README.md');
const table = withSettings(fs.readFileSync(readme, 'utf8'), properties);
if (table === undefined) throw new Error('README.md has no settings markers');
writeGenerated(readme, table, { what: 'README.md (the table of settings, from package.json)', run: 'npm run gen:settings' });
