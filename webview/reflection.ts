// The read-only reflection view: renders a reflection document (src/shared/reflectionDoc.ts) as
// DOM text. Nothing here parses Markdown or HTML: every string from memory is a text node.

import { isReflectionDoc, lineText, type Block, type Line, type ReflectionDoc } from '../src/shared/reflectionDoc';
import { h, icon } from './dom';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;

function spans(line: Line): Node[] {
  return line.map(s => (s.code ? h('code', { text: s.text }) : s.strong ? h('strong', { text: s.text }) : document.createTextNode(s.text)));
}

const OUTCOME_ICON: Record<string, string> = { success: 'pass', failure: 'error', interrupted: 'debug-stop', unknown: 'question' };

function block(b: Block): HTMLElement {
  switch (b.kind) {
    case 'heading':
      return h(b.level === 2 ? 'h2' : 'h3', {}, ...spans(b.line));
    case 'paragraph':
      return h('p', {}, ...spans(b.line));
    case 'warning':
      return h('div', { class: 'warning', attrs: { role: 'note' } }, icon('warning'), h('span', {}, ...spans(b.line)));
    case 'list': {
      const list = h(b.ordered ? 'ol' : 'ul');
      for (const item of b.items) list.append(h('li', {}, ...spans(item)));
      return list;
    }
    case 'attempt': {
      const details = h('ul', { class: 'attempt-details' });
      for (const d of b.details) details.append(h('li', {}, ...spans(d)));
      return h(
        'section',
        { class: `attempt attempt-${b.outcome}`, attrs: { 'aria-label': lineText(b.title) } },
        h('div', { class: 'attempt-title' }, icon(OUTCOME_ICON[b.outcome] ?? 'circle'), h('span', {}, ...spans(b.title))),
        b.details.length ? details : null,
      );
    }
  }
}

function render(doc: ReflectionDoc): void {
  app.replaceChildren(
    h('header', {}, h('h1', {}, document.createTextNode('Reflection: '), h('code', { text: doc.label })), h('p', { class: 'summary', text: doc.summary })),
    ...doc.blocks.map(block),
  );
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = e.data as { type?: unknown; doc?: unknown } | null;
  if (!m || m.type !== 'reflection') return;
  if (isReflectionDoc(m.doc)) render(m.doc);
  else app.replaceChildren(h('p', { class: 'error', text: 'This reflection could not be shown.' }));
});
vscode.postMessage({ type: 'ready' });
