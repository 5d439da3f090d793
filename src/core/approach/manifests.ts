// The scripts a project's manifests name, read from their text or their parsed JSON: package.json's
// `scripts` (npm, yarn, pnpm, bun), a Makefile's targets and their recipes, pyproject.toml's
// `[tool.pdm.scripts]`, composer.json's `scripts`. Pure: the store reads the files (bounded, cached by
// their modification time) and hands the tables to the approach identity (./scripts.ts) as data.

/** Which runner a table is for. */
export type ScriptKind = 'npm' | 'make' | 'pdm' | 'composer';

/** A manifest's scripts: what `npm run NAME`, `make NAME`, `pdm run NAME` or `composer NAME` runs. */
export interface ScriptTable {
  kind: ScriptKind;
  /** The folder the manifest is in (relative to the workspace, normalized): where its scripts run. */
  folder: string;
  /** Name → the command lines it runs, in order (one line: the script is that command). */
  scripts: Record<string, string[]>;
  /** make: the target a bare `make` builds. */
  first?: string;
}

/** Scripts kept per manifest, and characters per command line. */
export const MAX_SCRIPTS = 500;
const MAX_LINE = 2000;
const MAX_LINES = 32;

function table(): Record<string, string[]> {
  return Object.create(null) as Record<string, string[]>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON manifest's `scripts` object (only that field is read), each entry made command lines by `lines` (none: left out). */
function jsonScripts(doc: unknown, lines: (value: unknown) => string[]): Record<string, string[]> {
  const out = table();
  const scripts = isObject(doc) ? doc.scripts : undefined;
  if (!isObject(scripts)) return out;
  for (const [name, value] of Object.entries(scripts).slice(0, MAX_SCRIPTS)) {
    const cmds = lines(value).slice(0, MAX_LINES);
    if (cmds.length) out[name] = cmds.map(l => l.slice(0, MAX_LINE));
  }
  return out;
}

/** package.json's `scripts`: each a command line. */
export function packageScripts(pkg: unknown): Record<string, string[]> {
  return jsonScripts(pkg, cmd => (typeof cmd === 'string' && cmd.trim() ? [cmd] : []));
}

/**
 * composer.json's `scripts`: a command, or a list of them; `@php x` and `@composer x` run those programs,
 * `@other` runs another script, `@putenv` only sets a variable, a PHP callback (Vendor\Class::method)
 * runs no command line.
 */
export function composerScripts(doc: unknown): Record<string, string[]> {
  return jsonScripts(doc, value => {
    const list = (typeof value === 'string' ? [value] : Array.isArray(value) ? value : []).filter((x): x is string => typeof x === 'string');
    const lines: string[] = [];
    for (const cmd of list.slice(0, MAX_LINES)) {
      const c = cmd.trim();
      if (!c || c.startsWith('@putenv') || /^[\w\\]+::\w+$/.test(c)) continue;
      if (/^@(?:php|composer)\b/.test(c)) lines.push(c.slice(1));
      else lines.push(c.startsWith('@') ? `composer run-script ${c.slice(1)}` : c);
    }
    return lines;
  });
}

/** A Makefile's variable references expanded from its own simple assignments; undefined when one stays unknown. */
function expand(text: string, vars: ReadonlyMap<string, string>, target: string, depth = 0): string | undefined {
  const out = text.replace(/\$\$/g, '\u0000').replace(/\$(?:\(([A-Za-z_][\w.-]*)\)|\{([A-Za-z_][\w.-]*)\}|([@<^*?]))/g, (m, a?: string, b?: string, auto?: string) => {
    if (auto === '@') return target;
    if (auto) return m;
    const name = (a ?? b)!;
    if (name === 'MAKE') return 'make';
    const v = vars.get(name);
    return v === undefined ? m : depth < 4 ? (expand(v, vars, target, depth + 1) ?? m) : m;
  });
  if (/\$[({@<^*?]/.test(out)) return undefined;
  return out.replace(/\u0000/g, '$');
}

/** A Makefile line without its comment (a `#` not escaped). */
function withoutComment(line: string): string {
  for (let i = line.indexOf('#'); i >= 0; i = line.indexOf('#', i + 1)) if (line[i - 1] !== '\\') return line.slice(0, i);
  return line;
}

/** `targets: prerequisites ; recipe` (also `targets:: …`); undefined for another line (a target-specific variable too). */
function ruleOf(line: string): { targets: string; prereqs: string; recipe?: string } | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0 || line[colon + 1] === '=' || /^[\t=]/.test(line) || line.slice(0, colon).includes('=')) return undefined;
  const rest = line.slice(colon + (line[colon + 1] === ':' ? 2 : 1));
  const semi = rest.indexOf(';');
  const prereqs = (semi < 0 ? rest : rest.slice(0, semi)).trim();
  if (prereqs.includes('=')) return undefined;
  const recipe = semi < 0 ? undefined : rest.slice(semi + 1).trim();
  return { targets: line.slice(0, colon).trim(), prereqs, ...(recipe ? { recipe } : {}) };
}

/**
 * A Makefile's targets: each one's prerequisites that are targets here (`make X` for each) and its
 * recipe lines (`@`, `-`, `+` prefixes dropped, simple variables expanded); a recipe line that keeps a
 * reference it cannot expand (`$(shell …)`, `$<`) is left out. Pattern and special targets are skipped.
 */
export function makeTargets(text: string): { scripts: Record<string, string[]>; first?: string } {
  const vars = new Map<string, string>();
  const rules: Array<{ names: string[]; prereqs: string[]; recipe: string[] }> = [];
  let current: (typeof rules)[number] | undefined;
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const raw of lines) {
    if (raw.startsWith('\t')) {
      if (current && current.recipe.length < MAX_LINES) current.recipe.push(raw.slice(1));
      continue;
    }
    const line = withoutComment(raw).trimEnd();
    if (!line.trim()) continue;
    const assign = /^(?:export[ \t]+|override[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*(:{1,3}=|\?=|\+=|!=|=)/.exec(line);
    if (assign) {
      const [name, op] = [assign[1], assign[2]];
      const value = line.slice(assign[0].length).trim();
      if (op === '?=' && vars.has(name)) continue;
      if (op !== '!=') vars.set(name, op === '+=' ? `${vars.get(name) ?? ''} ${value}`.trim() : value);
      current = undefined;
      continue;
    }
    const rule = ruleOf(line);
    if (!rule) {
      current = undefined;
      continue;
    }
    const names = rule.targets.split(/[ \t]+/).filter(n => n && !n.includes('%') && !n.includes('$'));
    current = { names, prereqs: rule.prereqs.split(/[ \t]+/).filter(Boolean), recipe: rule.recipe ? [rule.recipe] : [] };
    if (rules.length < MAX_SCRIPTS) rules.push(current);
  }
  const scripts = table();
  let first: string | undefined;
  const isTarget = new Set(rules.flatMap(r => r.names));
  for (const r of rules) {
    for (const name of r.names) {
      if (name.startsWith('.')) continue;
      first ??= name;
      const body: string[] = [];
      for (const p of r.prereqs) if (isTarget.has(p) && !p.startsWith('.')) body.push(`make ${p}`);
      for (const cmd of r.recipe) {
        const line = expand(cmd.replace(/^[@+\-\s]+/, ''), vars, name);
        if (line?.trim()) body.push(line.slice(0, MAX_LINE));
      }
      // a target named twice: its recipes add up (make warns and keeps the last; either way both ran once)
      scripts[name] = [...(scripts[name] ?? []), ...body].slice(0, MAX_LINES);
    }
  }
  return first === undefined ? { scripts } : { scripts, first };
}

/** A TOML basic or literal string at the start of `s`, and what follows it. */
function tomlString(s: string): { value: string; rest: string } | undefined {
  const m = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(s);
  if (!m) return undefined;
  const value = m[1] !== undefined ? m[1].replace(/\\(["\\])/g, '$1').replace(/\\n/g, '\n').replace(/\\t/g, '\t') : m[2];
  return { value, rest: s.slice(m[0].length) };
}

/** A TOML array of strings (`["pytest", "-x"]`), its items. */
function tomlStrings(s: string): string[] | undefined {
  if (!s.startsWith('[')) return undefined;
  const items: string[] = [];
  let rest = s.slice(1).trimStart();
  while (rest && !rest.startsWith(']')) {
    const str = tomlString(rest);
    if (!str) return undefined;
    items.push(str.value);
    rest = str.rest.replace(/^\s*,?\s*/, '');
  }
  return items;
}

/** A pdm script's value: a command (string or argv), `{cmd = …}`, `{shell = …}`, `{composite = […]}`; a `call` runs no command line. */
function pdmValue(value: string): string[] | undefined {
  const v = value.trim();
  const str = tomlString(v);
  if (str) return [str.value];
  const arr = tomlStrings(v);
  if (arr) return [arr.map(a => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ')];
  const inline = /^\{(.*)\}$/s.exec(v);
  if (!inline) return undefined;
  const field = /(?:^|,)[ \t]*(cmd|shell|composite)[ \t]*=/.exec(inline[1]);
  if (!field) return undefined;
  let rest = inline[1].slice((field.index ?? 0) + field[0].length);
  const other = /,[ \t]*(?:env|env_file|help|working_dir|site_packages|keep_going)[ \t]*=/.exec(rest);
  if (other) rest = rest.slice(0, other.index);
  rest = rest.trim();
  if (field[1] === 'composite') return tomlStrings(rest)?.map(n => `pdm run ${n}`);
  return pdmValue(rest);
}

/** A TOML value as written after `=`: trimmed, its comment (a `#` outside quotes) left out. */
function tomlValue(text: string): string {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return text.slice(0, i).trim();
  }
  return text.trim();
}

/** pyproject.toml's `[tool.pdm.scripts]` (also written as `[tool.pdm.scripts.NAME]` tables). */
export function pdmScripts(text: string): Record<string, string[]> {
  const out = table();
  let section = '';
  let pending = '';
  let pendingName: string | undefined;
  const put = (name: string, value: string) => {
    const lines = pdmValue(value);
    if (lines && name !== '_' && Object.keys(out).length < MAX_SCRIPTS) out[name] = lines.slice(0, MAX_LINES).map(l => l.slice(0, MAX_LINE));
  };
  for (const textLine of text.split(/\r?\n/)) {
    const line = textLine.trim();
    if (pendingName !== undefined) {
      const value = tomlValue(line);
      pending += ` ${value}`;
      if (value.endsWith(']') || value.endsWith('}')) {
        put(pendingName, pending);
        pendingName = undefined;
      }
      continue;
    }
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1].split('.').map(p => p.trim().replace(/"/g, '')).join('.');
      continue;
    }
    const kv = /^("[^"]+"|'[^']+'|[\w.-]+)[ \t]*=/.exec(line);
    if (!kv) continue;
    const key = kv[1].replace(/^["']|["']$/g, '');
    const raw = tomlValue(line.slice(kv[0].length));
    if (section === 'tool.pdm.scripts') {
      const dotted = /^([\w-]+)\.(cmd|shell|composite)$/.exec(key);
      const name = dotted ? dotted[1] : key;
      const value = dotted ? `{${dotted[2]} = ${raw}}` : raw;
      if (/^[[{]/.test(raw) && !/[\]}]$/.test(raw)) {
        pendingName = name;
        pending = value;
      } else put(name, value);
    } else if (section.startsWith('tool.pdm.scripts.') && /^(cmd|shell|composite)$/.test(key)) {
      put(section.slice('tool.pdm.scripts.'.length), `{${key} = ${raw}}`);
    }
  }
  return out;
}
