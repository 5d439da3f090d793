// Finds nested quantifiers in the regular expressions of a TypeScript file: a repeated group whose
// body holds an unbounded repetition that can also eat the characters the group itself starts with
// (`(a+)+`, `(?:-[\w-]+\s+)*`, `(.*a){100}`): the shape that backtracks exponentially. A group that
// starts with a character its inner repetition cannot match (`(?:\.\d+)*`, `(?:,\s*x)*`) is unambiguous
// and not reported. The literals are found with the TypeScript parser; `new RegExp('…')` with a
// literal source too.
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import type { Alternative, CharacterClass, Element, Node, Quantifier } from '@eslint-community/regexpp/ast';
import * as ts from 'typescript';
import { parsedSource } from './parsedSource';

export interface Finding {
  file: string;
  line: number;
  source: string;
  /** The outer quantifier's text. */
  quantifier: string;
}

/** The regular expressions of a source file, with their lines. */
export function regexesOf(file: string, text: string): Array<{ line: number; pattern: string; flags: string }> {
  const sf = parsedSource(file, text);
  const out: Array<{ line: number; pattern: string; flags: string }> = [];
  const visit = (n: ts.Node): void => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const t = n.getText(sf);
      const end = t.lastIndexOf('/');
      out.push({ line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, pattern: t.slice(1, end), flags: t.slice(end + 1) });
    } else if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp' && n.arguments?.length) {
      const a = n.arguments[0];
      if (ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a)) {
        const flags = n.arguments[1] && ts.isStringLiteral(n.arguments[1]) ? n.arguments[1].text : '';
        out.push({ line: sf.getLineAndCharacterOfPosition(a.getStart(sf)).line + 1, pattern: a.text, flags });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const isRepeated = (q: Quantifier) => q.max > 1;
const isUnbounded = (q: Quantifier) => q.max === Infinity;

type OneChar = Extract<Element, { type: 'Character' | 'CharacterClass' | 'CharacterSet' }>;
const oneChar = (e: Element | undefined): OneChar | undefined => (e && (e.type === 'Character' || e.type === 'CharacterClass' || e.type === 'CharacterSet') ? e : undefined);

/** The character an iteration must start (or end) with: a plain one, or a repetition of one with min ≥ 1. */
function edge(alt: Alternative, last: boolean): OneChar | undefined {
  const list = alt.elements.filter(e => e.type !== 'Assertion');
  const e = last ? list[list.length - 1] : list[0];
  if (e?.type === 'Quantifier') return e.min >= 1 ? oneChar(e.element) : undefined;
  return oneChar(e);
}

/** Can this one-character element match code point `cp`? Conservative: true when unsure. */
function canMatch(e: Node, cp: number, ignoreCase: boolean): boolean {
  const ch = String.fromCodePoint(cp);
  switch (e.type) {
    case 'Character':
      return e.value === cp || (ignoreCase && String.fromCodePoint(e.value).toLowerCase() === ch.toLowerCase());
    case 'CharacterSet':
      if (e.kind === 'any') return cp !== 10;
      if (e.kind === 'digit') return /\d/.test(ch) !== e.negate;
      if (e.kind === 'space') return /\s/.test(ch) !== e.negate;
      if (e.kind === 'word') return /\w/.test(ch) !== e.negate;
      return true;
    case 'CharacterClass': {
      const cls = e as CharacterClass;
      const hit = cls.elements.some(x => (x.type === 'CharacterClassRange' ? cp >= x.min.value && cp <= x.max.value : canMatch(x, cp, ignoreCase)));
      return hit !== cls.negate;
    }
    default:
      return true;
  }
}

/** Every code point a one-character element can be, when there are few (undefined: too many or unknown). */
function points(e: OneChar): number[] | undefined {
  if (e.type === 'Character') return [e.value];
  if (e.type === 'CharacterSet') return e.kind === 'digit' && !e.negate ? [...'0123456789'].map(c => c.charCodeAt(0)) : undefined;
  if (e.negate) return undefined;
  const out: number[] = [];
  for (const x of e.elements) {
    if (x.type === 'Character') out.push(x.value);
    else if (x.type === 'CharacterClassRange' && x.max.value - x.min.value < 512) for (let c = x.min.value; c <= x.max.value; c++) out.push(c);
    else if (x.type === 'CharacterSet' && x.kind === 'word' && !x.negate) for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_') out.push(c.charCodeAt(0));
    else if (x.type === 'CharacterSet' && x.kind === 'digit' && !x.negate) for (const c of '0123456789') out.push(c.charCodeAt(0));
    else return undefined;
  }
  return out;
}

/** None of the repetitions can take any character `e` can be: the iteration boundary is fixed there. */
function disjoint(e: OneChar | undefined, inner: Quantifier[], ignoreCase: boolean): boolean {
  const cps = e ? points(e) : undefined;
  return !!cps && inner.every(q => q.element.type !== 'Group' && q.element.type !== 'CapturingGroup' && cps.every(cp => !canMatch(q.element, cp, ignoreCase)));
}

/** Nested quantifiers of one pattern (empty when none, or when it does not parse). */
export function nestedQuantifiers(pattern: string, flags: string): string[] {
  let ast;
  try {
    ast = new RegExpParser({ ecmaVersion: 2025 }).parseLiteral(`/${pattern}/${flags.replace(/[^dgimsuyv]/g, '')}`);
  } catch {
    return [];
  }
  const ignoreCase = flags.includes('i');
  const found: string[] = [];
  visitRegExpAST(ast, {
    onQuantifierEnter(outer) {
      if (!isRepeated(outer) || outer.element.type !== 'Group' && outer.element.type !== 'CapturingGroup') return;
      const group = outer.element;
      const inner: Quantifier[] = [];
      visitRegExpAST(group as never, { onQuantifierEnter: q => void (isUnbounded(q) && q !== outer && inner.push(q)) });
      if (!inner.length) return;
      // each iteration must start or end with a character none of the inner repetitions can take
      const guarded = group.alternatives.every(alt => disjoint(edge(alt, false), inner, ignoreCase) || disjoint(edge(alt, true), inner, ignoreCase));
      if (!guarded) found.push(outer.raw);
    },
  });
  return found;
}

/** Every nested quantifier in `text` (one TypeScript file). */
export function auditFile(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  for (const r of regexesOf(file, text)) {
    for (const q of nestedQuantifiers(r.pattern, r.flags)) out.push({ file, line: r.line, source: r.pattern, quantifier: q });
  }
  return out;
}
