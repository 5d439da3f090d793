// TypeScript's parse of a source file (syntax only), once per process: the repository-wide checks of
// the unit tier (dead exports, nested quantifiers in regular expressions) read the same files.
import { readFileSync } from 'node:fs';
import * as ts from 'typescript';

const cache = new Map<string, ts.SourceFile>();

/** The syntax tree of `file` (its `text`, read when not given), without parent links. */
export function parsedSource(file: string, text?: string): ts.SourceFile {
  const cached = cache.get(file);
  if (cached && (text === undefined || cached.text === text)) return cached;
  const sf = ts.createSourceFile(file, text ?? readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  cache.set(file, sf);
  return sf;
}
