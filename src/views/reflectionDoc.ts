// The reflection record laid out for people: blocks of plain text for the read-only reflection view,
// and Markdown for the CLI. A view of core's record: core keeps the record, this file only shows it.

import { CATEGORY_NAMES } from '../core/text/advice';
import { removeHidden } from '../core/text/hidden';
import type { ReflectionRecord } from '../core/reflection';
import { failedText, plainFromMarkdown, shownError } from '../core/text/shownText';
import type { Attempt } from '../core/types';
import type { Block, Line, ReflectionDoc } from '../shared/reflectionDoc';

const OUTCOME_WORD: Record<Attempt['outcome'], string> = { success: 'Succeeded', failure: 'Failed', interrupted: 'Interrupted', unknown: 'Exit unknown' };

/**
 * The reflection laid out in blocks of plain text: rendered as Markdown for the
 * CLI and as text in the read-only reflection view. Interrupted runs are not listed.
 */
export function reflectionDoc(r: ReflectionRecord): ReflectionDoc {
  const fm = r.failure_memory;
  // what a person reads: no invisible characters (core/text/hidden.ts)
  const t = (text: string) => ({ text: removeHidden(text) });
  const c = (text: string) => ({ text: removeHidden(text), code: true });
  const b = (text: string) => ({ text: removeHidden(text), strong: true });
  const blocks: Block[] = [];
  for (const w of fm.warnings) blocks.push({ kind: 'warning', line: [t(w)] });
  blocks.push({ kind: 'heading', level: 2, line: [t('Recent attempts')] });
  const recent = (fm.recent ?? []).filter(x => x.outcome !== 'interrupted');
  if (!recent.length) blocks.push({ kind: 'paragraph', line: [t('No finished run is left in the short-term window.')] });
  for (const x of recent) {
    const details: Line[] = [];
    if (x.tests) details.push([t(`Tests: ${x.tests.passed} of ${x.tests.total} passed`)]);
    if (x.failingTests.length) details.push([t(x.failingTests.length === 1 ? 'Failed test: ' : 'Failed tests: '), ...x.failingTests.flatMap((n, i) => (i ? [t(', '), c(n)] : [c(n)]))]);
    if (x.error) details.push([t('Error: '), c(x.error)]);
    blocks.push({
      kind: 'attempt',
      outcome: x.outcome,
      title: [b(`Attempt ${x.number}`), t(` · ${OUTCOME_WORD[x.outcome] ?? x.outcome}${x.exitCode !== null ? ` (exit ${x.exitCode})` : ''} · `), c(x.command)],
      details,
    });
  }
  const by = fm.produced_by === 'language-model' ? `by a language model${fm.model ? ` (${fm.model})` : ''}` : 'by Failure Memory';
  blocks.push({ kind: 'heading', level: 2, line: [t(`Self-reflection, ${by}`)] });
  blocks.push({ kind: 'paragraph', line: [t(r.self_reflection.reflection_text)] });
  blocks.push({
    kind: 'list',
    ordered: false,
    items: [
      [b('Root cause:'), t(` ${r.self_reflection.credit_assignment.root_cause}`)],
      [b('Category:'), t(` ${CATEGORY_NAMES[fm.error_category] ?? fm.error_category.replace(/_/g, ' ')} (${r.self_reflection.credit_assignment.failure_category.replace(/_/g, ' ')})`)],
    ],
  });
  blocks.push({ kind: 'heading', level: 3, line: [t('What to do differently')] });
  blocks.push({ kind: 'list', ordered: false, items: r.self_reflection.actionable_insights.map(i => [t(i)]) });
  blocks.push({ kind: 'heading', level: 3, line: [t('Lessons')] });
  blocks.push({ kind: 'list', ordered: false, items: r.self_reflection.lessons_learned.map(l => [t(l)]) });
  if (fm.similar.length) {
    blocks.push({ kind: 'heading', level: 2, line: [t('Similar past failures')] });
    blocks.push({
      kind: 'list',
      ordered: false,
      items: fm.similar.map(s => {
        // records written before hits carried the printed error show their signature made readable
        const error = s.errorText ?? shownError(s.errorSignature ?? '');
        return [c(s.label), t(` (${s.status}, ${Math.round(s.score * 100)}% similar)`), ...(error ? [t(': '), c(error)] : []), ...(s.lesson ? [t(` — ${plainFromMarkdown(s.lesson)}`)] : [])];
      }),
    });
  }
  blocks.push({ kind: 'heading', level: 2, line: [t('Before you try again, ask yourself')] });
  blocks.push({ kind: 'list', ordered: true, items: fm.questions.map(q => [t(q)]) });
  const where = fm.cwd !== '.' ? ` in ${fm.cwd}` : '';
  return {
    label: fm.label,
    summary: summaryOf(fm, where),
    blocks,
  };
}

/** "Failed 11 times in a row (the limit is 5) · exhausted · the same error each time" — the counts' own sentence. */
function summaryOf(fm: ReflectionRecord['failure_memory'], where: string): string {
  const failed = failedText({ failures: fm.attempts, threshold: fm.threshold });
  const progress = fm.progress_text ?? (fm.progress !== 'insufficient_data' ? `progress: ${fm.progress.replace(/_/g, ' ')}` : '');
  return [`${failed[0].toUpperCase()}${failed.slice(1)}${where}`, fm.status === 'active' ? 'failing' : fm.status, progress].filter(Boolean).join(' · ');
}

/** The reflection as Markdown. All memory text goes into code spans or escaped plain text. */
export function reflectionToMarkdown(r: ReflectionRecord): string {
  const doc = reflectionDoc(r);
  const line = (l: Line) => l.map(s => (s.code ? `\`${code(s.text)}\`` : s.strong ? `**${text(s.text)}**` : text(s.text))).join('');
  const md: string[] = [`# Reflection: \`${code(doc.label)}\``, '', text(doc.summary), ''];
  for (const blk of doc.blocks) {
    switch (blk.kind) {
      case 'heading':
        md.push(`${'#'.repeat(blk.level)} ${line(blk.line)}`, '');
        break;
      case 'paragraph':
        md.push(line(blk.line), '');
        break;
      case 'warning':
        md.push(`> **Warning:** ${line(blk.line)}`, '');
        break;
      case 'list':
        blk.items.forEach((it, i) => md.push(`${blk.ordered ? `${i + 1}.` : '-'} ${line(it)}`));
        md.push('');
        break;
      case 'attempt':
        md.push(line(blk.title), ...blk.details.map(d => `- ${line(d)}`), '');
        break;
    }
  }
  return md.join('\n');
}

/**
 * The reflection as plain text, for a person at a terminal: no Markdown, so nothing is escaped
 * (`AssertionError [ERR_ASSERTION]` reads as it was printed); lines one to a row, lists indented.
 * Text from memory is put on one line each: it can break no layout and start no markup.
 */
export function reflectionToText(r: ReflectionRecord): string {
  const doc = reflectionDoc(r);
  const line = (l: Line) => l.map(s => s.text.replace(/[\r\n]+/g, ' ')).join('');
  const out: string[] = [`Reflection: ${line([{ text: doc.label }])}`, doc.summary, ''];
  for (const blk of doc.blocks) {
    switch (blk.kind) {
      case 'heading':
        if (out[out.length - 1] !== '') out.push('');
        out.push(line(blk.line));
        break;
      case 'paragraph':
        out.push(line(blk.line), '');
        break;
      case 'warning':
        out.push(`Warning: ${line(blk.line)}`);
        break;
      case 'list':
        blk.items.forEach((it, i) => out.push(`  ${blk.ordered ? `${i + 1}.` : '-'} ${line(it)}`));
        break;
      case 'attempt':
        out.push(`  ${line(blk.title)}`, ...blk.details.map(d => `    ${line(d)}`));
        break;
    }
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** Memory text inside a code span: backticks cannot end it early. */
function code(s: string): string {
  return s.replace(/`/g, "'").replace(/\n/g, ' ');
}

/** Memory text as plain Markdown text: no HTML, no links, no emphasis injection. */
export function text(s: string): string {
  return s.replace(/[\\`*_[\]<>#!]/g, m => `\\${m}`).replace(/\n/g, ' ');
}
