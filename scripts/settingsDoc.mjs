// The README's table of settings, from package.json's declaration: one row per failureMemory.* setting
// (its name, its default, its `description`: the short text; VS Code shows the `markdownDescription`),
// the team's settings in one row that names them. Written by scripts/gen-settings.mjs between the
// markers; test/unit/config.test.ts fails while the README differs.

export const SETTINGS_START = '<!-- settings:start (written by npm run gen:settings from package.json) -->';
export const SETTINGS_END = '<!-- settings:end -->';
const SECTION = 'failureMemory.';
const TEAM = `${SECTION}team.`;

const shownDefault = v => (v === '' ? 'none' : `\`${Array.isArray(v) ? JSON.stringify(v) : String(v)}\``);
const cell = s => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The table for package.json's `contributes.configuration.properties`; throws when a setting has no short description. */
export function settingsMarkdown(properties) {
  const rows = ['| Setting | Default | What it does |', '|---|---|---|'];
  const entries = Object.entries(properties).map(([name, spec], i) => ({ name, spec, i }));
  entries.sort((a, b) => (a.spec.order ?? 1e9) - (b.spec.order ?? 1e9) || a.i - b.i);
  for (const { name, spec } of entries.filter(e => !e.name.startsWith(TEAM))) {
    if (typeof spec.description !== 'string' || !spec.description.trim()) throw new Error(`package.json: ${name} has no description (the short text of the README's table)`);
    rows.push(`| \`${name}\` | ${shownDefault(spec.default)} | ${cell(spec.description)} |`);
  }
  const team = entries.filter(e => e.name.startsWith(TEAM)).map(e => `\`${e.name.slice(TEAM.length)}\``);
  if (team.length) rows.push(`| \`${TEAM}*\` | off | [Team memory](#team-memory-postgresql-optional): ${team.join(', ')} |`);
  return rows.join('\n');
}

/** `doc` with the table between the markers replaced (undefined when the markers are missing). */
export function withSettings(doc, properties) {
  const a = doc.indexOf(SETTINGS_START);
  const b = doc.indexOf(SETTINGS_END);
  if (a < 0 || b < a) return undefined;
  return `${doc.slice(0, a + SETTINGS_START.length)}\n${settingsMarkdown(properties)}\n${doc.slice(b)}`;
}
