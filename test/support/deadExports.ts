// Finds exports no other file uses: the files are read with the TypeScript parser alone (no type
// check, no program: about a second for the repository), their imports resolved by path. An export
// counts as used when another file imports it by name, reads it through a namespace import
// (`ns.name`), re-exports it to a file where it is used (`export { x } from`, `export * from`), or
// loads its module whole (`import('./m')`, `typeof import('./m')`, a namespace passed on as a
// value). An entry's exports (what a bundle or VS Code calls) are used by definition.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';
import { parsedSource } from './parsedSource';

export interface DeadExport {
  /** The file, relative to the root, with forward slashes. */
  file: string;
  line: number;
  name: string;
  /** Still used inside its own file: only the `export` is dead, not the code. */
  local: boolean;
}

interface ModuleInfo {
  /** Exported name → line of its declaration (re-exports included). */
  exports: Map<string, number>;
  /** How many times each identifier appears in the file (declarations included). */
  mentions: Map<string, number>;
  /** `export { a as b } from './m'`: b here is a of m. */
  reexports: Array<{ name: string; from: string; as: string }>;
  /** `export * from './m'`. */
  stars: string[];
}

/** Every .ts, .mts and .mjs file under `dirs` (relative to `root`), node_modules aside. */
export function sourceFiles(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(?:m?ts|mjs)$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) out.push(p);
    }
  };
  for (const d of dirs) if (existsSync(join(root, d))) walk(join(root, d));
  return out.sort();
}

/** The file a relative specifier names, as Node16 and tsx resolve it; undefined for a package or a file not read. */
function resolveSpecifier(from: string, spec: string, known: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(?:[cm]?js)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.mts`, `${base}.ts`, `${base}.mts`, `${base}.mjs`, join(base, 'index.ts')]) if (known.has(c)) return c;
  return undefined;
}

const isExported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some(m => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some(m => m.kind === ts.SyntaxKind.DefaultKeyword);

/**
 * The exports of `files` (absolute paths) that no other file of `consumers` uses. `entries`: files
 * whose exports are used from outside (bundle entries, a VS Code extension's activate).
 */
export function deadExports(root: string, files: string[], consumers: string[], entries: string[] = []): DeadExport[] {
  const known = new Set([...files, ...consumers]);
  const modules = new Map<string, ModuleInfo>();
  /** file → names used from it by other files; '*' = all of them. */
  const used = new Map<string, Set<string>>();
  const use = (file: string | undefined, name: string) => {
    if (!file) return;
    if (!used.has(file)) used.set(file, new Set());
    used.get(file)!.add(name);
  };

  for (const file of known) {
    const sf = parsedSource(file);
    const line = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
    const info: ModuleInfo = { exports: new Map(), mentions: new Map(), reexports: [], stars: [] };
    modules.set(file, info);
    /** Namespace imports of this file: local name → module. */
    const namespaces = new Map<string, string | undefined>();

    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
        const target = resolveSpecifier(file, st.moduleSpecifier.text, known);
        const clause = st.importClause;
        if (!clause) continue;
        if (clause.name) use(target, 'default');
        const b = clause.namedBindings;
        if (b && ts.isNamespaceImport(b)) namespaces.set(b.name.text, target);
        else if (b) for (const el of b.elements) use(target, (el.propertyName ?? el.name).text);
      } else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference) && ts.isStringLiteral(st.moduleReference.expression)) {
        namespaces.set(st.name.text, resolveSpecifier(file, st.moduleReference.expression.text, known));
      } else if (ts.isExportDeclaration(st)) {
        const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? resolveSpecifier(file, st.moduleSpecifier.text, known) : undefined;
        if (!st.exportClause) {
          if (from) info.stars.push(from);
        } else if (ts.isNamedExports(st.exportClause)) {
          for (const el of st.exportClause.elements) {
            info.exports.set(el.name.text, line(el));
            if (from) info.reexports.push({ name: (el.propertyName ?? el.name).text, from, as: el.name.text });
          }
        } else if (from) {
          // export * as ns from './m'
          info.exports.set(st.exportClause.name.text, line(st));
          info.reexports.push({ name: '*', from, as: st.exportClause.name.text });
        }
      } else if (ts.isExportAssignment(st)) {
        info.exports.set('default', line(st));
      } else if (isExported(st)) {
        if (isDefault(st)) info.exports.set('default', line(st));
        else if (ts.isVariableStatement(st)) {
          for (const d of st.declarationList.declarations) for (const n of boundNames(d.name)) info.exports.set(n, line(d));
        } else if ('name' in st && st.name && ts.isIdentifier(st.name as ts.Node)) info.exports.set((st.name as ts.Identifier).text, line(st));
      }
    }

    // the rest of the file: namespace members read, modules loaded whole
    const visit = (n: ts.Node, parent: ts.Node): void => {
      if (ts.isIdentifier(n)) info.mentions.set(n.text, (info.mentions.get(n.text) ?? 0) + 1);
      if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && namespaces.has(n.expression.text)) {
        use(namespaces.get(n.expression.text), n.name.text);
        return;
      }
      if (ts.isQualifiedName(n) && ts.isIdentifier(n.left) && namespaces.has(n.left.text)) {
        use(namespaces.get(n.left.text), n.right.text);
        return;
      }
      // the namespace itself passed on as a value (not the name its import declares)
      if (ts.isIdentifier(n) && namespaces.has(n.text) && !ts.isNamespaceImport(parent) && !ts.isImportEqualsDeclaration(parent)) use(namespaces.get(n.text), '*');
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) {
        use(resolveSpecifier(file, n.arguments[0].text, known), '*');
      }
      if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
        const target = resolveSpecifier(file, n.argument.literal.text, known);
        if (n.qualifier && ts.isIdentifier(n.qualifier)) use(target, n.qualifier.text);
        else use(target, '*');
      }
      ts.forEachChild(n, child => visit(child, n));
    };
    visit(sf, sf);
  }

  for (const e of entries) use(e, '*');
  // a name used from a file that re-exports it is used where it comes from; to a fixed point
  for (let changed = true; changed; ) {
    changed = false;
    for (const [file, info] of modules) {
      const names = used.get(file);
      if (!names) continue;
      const before = (f: string) => used.get(f)?.size ?? 0;
      for (const r of info.reexports) {
        if (!names.has(r.as) && !names.has('*')) continue;
        const n = before(r.from);
        use(r.from, r.name);
        changed ||= before(r.from) !== n;
      }
      for (const from of info.stars) {
        const n = before(from);
        for (const name of names) if (name === '*' || !info.exports.has(name)) use(from, name);
        changed ||= before(from) !== n;
      }
    }
  }

  const dead: DeadExport[] = [];
  for (const file of files) {
    const names = used.get(file) ?? new Set<string>();
    if (names.has('*')) continue;
    const info = modules.get(file)!;
    const reexported = new Set(info.reexports.map(r => r.as));
    for (const [name, line] of info.exports) {
      if (names.has(name)) continue;
      // used in its own file (a type in an exported signature, a constant): the export may be dropped, the code stays
      const local = !reexported.has(name) && name !== 'default' && (info.mentions.get(name) ?? 0) > 1;
      dead.push({ file: relative(root, file).split('\\').join('/'), line, name, local });
    }
  }
  return dead;
}

function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap(e => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}
