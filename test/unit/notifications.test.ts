// A notification renders `[text](command:…)` as a clickable command link, and settings, errors and
// terminal output are untrusted: every text VS Code shows in a notification is a literal, or goes
// through plainText() / inertText() (core/text/plainText, core/text/untrusted) or vscode.l10n.t with such
// arguments. Checked on the source with the TypeScript parser: a raw `${e.message}` fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import * as ts from 'typescript';
import { plainText } from '../../src/core/text/plainText';
import { validatePatterns } from '../../src/core/text/redact';

const SRC = resolve(__dirname, '../../src');
const SHOW = /^show(?:Warning|Error|Information)Message$/;
const SAFE_CALLS = new Set(['plainText', 'inertText', 't', 'String', 'describeApproach']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap(n => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Is this expression a text that cannot carry untrusted markup? */
function safe(e: ts.Expression): boolean {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isNumericLiteral(e)) return true;
  if (ts.isParenthesizedExpression(e)) return safe(e.expression);
  if (ts.isTemplateExpression(e)) return e.templateSpans.every(s => safe(s.expression));
  if (ts.isConditionalExpression(e)) return safe(e.whenTrue) && safe(e.whenFalse);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return safe(e.left) && safe(e.right);
  if (ts.isCallExpression(e)) {
    const callee = ts.isPropertyAccessExpression(e.expression) ? e.expression.name.text : ts.isIdentifier(e.expression) ? e.expression.text : '';
    if (callee === 't') return e.arguments.slice(1).every(safe);
    return SAFE_CALLS.has(callee);
  }
  // numbers and counts: `${n} …`
  if (ts.isPropertyAccessExpression(e) && /^(?:length|size|count|waiting)$/.test(e.name.text)) return true;
  return false;
}

/**
 * Texts built from what the user chose on this machine (a folder's name, a path from a save dialog,
 * a local model folder, a chat model's name) or already defused where they are built (the guard's
 * dialog title: plainText in host/helpDialog.ts, and a modal dialog renders no links).
 */
const TRUSTED = [
  /^host\/agentGates\.ts:\d+ `(?:Failure Memory: agent gates (?:are already )?set up in|Set up agent gates in) \$\{folder\.name\}/,
  /^host\/commands\.ts:\d+ vscode\.l10n\.t\('(?:Clear all Failure Memory of \{0\}\?', names|Memory exported to \{0\}\.', target\.fsPath)\)/,
  /^host\/helpDialog\.ts:\d+ title$/,
  /^host\/lmReflection\.ts:\d+ vscode\.l10n\.t\('Let the chat model/,
  /^host\/modelDownload\.ts:\d+ vscode\.l10n\.t\('The embedding model is already in use/,
];

test('every notification text is a literal or defused', () => {
  const raw: string[] = [];
  for (const file of [...files(join(SRC, 'host')), join(SRC, 'extension.ts')]) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && SHOW.test(n.expression.name.text) && n.arguments.length) {
        const a = n.arguments[0];
        const where = `${relative(SRC, file)}:${sf.getLineAndCharacterOfPosition(a.getStart(sf)).line + 1} ${a.getText(sf).slice(0, 80)}`;
        if (!safe(a) && !TRUSTED.some(re => re.test(where))) raw.push(where);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  assert.deepEqual(raw, []);
});

test('an invalid redaction pattern with a command link reads as plain text in the notification', () => {
  const { errors } = validatePatterns(['[click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)(?=x)']);
  assert.equal(errors.length, 1);
  const shown = plainText(`failureMemory.redaction.extraPatterns: ${errors[0]} (ignored).`, 500);
  assert.doesNotMatch(shown, /\]\(command:/);
  assert.match(shown, /click/);
});
