// The Patterns section: one cause failing several commands (a service down, a program or module
// missing…), with the commands it broke, how often, and what fixed it. Text only: the cause, the
// commands and the last error came from command output.

import type { PatternView } from '../src/shared/protocol';
import { ago, fullTime, h, icon, plural } from './dom';

/** One pattern: the cause as a headline, its sentence, the commands, the last error, and its resolution or the fix that worked before. */
export function patternItem(p: PatternView, folder: string | undefined): HTMLElement {
  const active = p.status === 'active';
  const card = h('article', {
    class: `card card-pattern pattern-${p.status}${p.stopping ? ' pattern-stopping' : ''}`,
    attrs: { role: 'listitem', 'data-pattern': p.id, 'data-folder': p.folder, 'aria-label': `${p.headline}${active ? '' : ' (resolved)'}` },
  });
  card.append(
    h(
      'div',
      { class: 'card-head' },
      icon(active ? (p.stopping ? 'error' : 'plug') : 'pass', 'status-icon'),
      h('span', { class: 'card-title', text: p.subject, title: p.subject }),
      h('span', {
        class: `pill pill-${active ? (p.stopping ? 'exhausted' : 'failing') : 'resolved'}`,
        text: active ? `${p.failures}×` : 'resolved',
        title: active ? `${plural(p.failures, 'failure')} of ${plural(p.commands.length, 'command')} with this cause` : `Resolved ${fullTime(p.lastSeen)}`,
      }),
    ),
  );
  const meta = [active ? (p.stopping ? 'stops the commands it failed' : p.systemic ? 'systemic' : 'in the code') : `last failed ${ago(p.lastSeen)}`, `${plural(p.occurrences, 'failure')} in all`, `first seen ${ago(p.firstSeen)}`];
  if (folder) meta.push(folder);
  card.append(h('div', { class: 'meta', text: meta.join(' · '), title: fullTime(p.lastSeen) }));
  if (active) card.append(h('p', { class: 'pattern-sentence', text: p.sentence }));
  card.append(h('div', { class: 'pattern-commands', attrs: { 'data-role': 'pattern-commands' } }, h('span', { class: 'label', text: 'Commands: ' }), h('span', { text: p.commands.join(' · ') })));
  if (p.lastError) card.append(h('div', { class: 'signature', title: 'Last error' }, icon('warning'), h('span', { text: p.lastError })));
  if (p.factors) card.append(h('div', { class: 'pattern-factors meta', text: `Common factors: ${p.factors}` }));
  if (p.resolution) card.append(h('div', { class: 'pattern-resolution' }, icon('check'), h('span', { text: `Resolved by ${p.resolution}` })));
  if (p.fix) {
    card.append(
      h('div', { class: 'lesson pattern-fix', attrs: { 'data-role': 'pattern-fix' } }, icon('lightbulb'), h('span', { text: `${active ? 'Last time fixed by' : 'Fixed by'}: ${p.fix}${p.fixWorked && p.fixWorked > 1 ? ` (worked ${p.fixWorked} times)` : ''}` })),
    );
  }
  return card;
}
