// Pieces of the panel that depend only on what they are given (main.ts owns the state and passes
// callbacks): the capture line, a reflection, a search hit, the team's lines, a learning's buttons.

import type { ApproachView, CaptureView, DecisionView, LearningView, RecallView, ReflectionView, Snapshot, TeamFailureView, TeamPanelView } from '../src/shared/protocol';
import { meter, testChart } from './chart';
import { ago, fullTime, h, icon, plural } from './dom';

export function captureLine(c: CaptureView): { ok: boolean | 'info'; text: string } {
  if (!c.terminal) return { ok: false, text: 'Terminal capture is off (setting failureMemory.capture.terminal).' };
  if (!c.terminals) return { ok: 'info', text: 'No terminal open yet. Terminals need shell integration (on by default for bash, zsh, fish and PowerShell).' };
  if (c.terminalsWithIntegration === c.terminals) {
    return { ok: true, text: `Shell integration active in ${c.terminals === 1 ? 'the terminal' : `all ${c.terminals} terminals`}: failing commands are recorded.` };
  }
  return {
    ok: false,
    text: `Shell integration active in ${c.terminalsWithIntegration} of ${plural(c.terminals, 'terminal')}: commands in the others are not recorded. Enable terminal.integrated.shellIntegration.enabled or use bash, zsh, fish or PowerShell.`,
  };
}

/** A stored reflection, collapsible; `onToggle` keeps which ones are open. */
export function reflectionItem(r: ReflectionView, open: boolean, onToggle: (open: boolean) => void): HTMLElement {
  const by = r.producedBy === 'language-model' ? `language model${r.model ? ` (${r.model})` : ''}` : 'heuristics';
  const summary = h(
    'summary',
    { attrs: { 'data-fid': `reflection:${r.id}` } },
    icon('lightbulb', 'status-icon'),
    h('span', { class: 'card-title', text: r.label }),
    h('span', { class: 'meta-inline', text: ago(r.timestamp), title: fullTime(r.timestamp) }),
  );
  const body = h('div', { class: 'reflection-body' });
  for (const w of r.warnings) body.append(h('div', { class: 'warning' }, icon('warning'), h('span', { text: w })));
  if (r.reflectionText) body.append(h('p', { class: 'reflection-text', text: r.reflectionText }));
  if (r.rootCause) body.append(h('p', { class: 'root-cause' }, h('span', { class: 'label', text: 'Root cause: ' }), h('span', { text: r.rootCause })));
  if (r.insights.length) body.append(h('h4', { text: 'What to do differently' }), h('ul', {}, ...r.insights.map(i => h('li', { text: i }))));
  if (r.lessons.length) body.append(h('h4', { text: 'Lessons' }), h('ul', {}, ...r.lessons.map(l => h('li', { text: l }))));
  body.append(h('div', { class: `produced-by produced-${r.producedBy}` }, icon(r.producedBy === 'language-model' ? 'sparkle' : 'tools'), h('span', { text: `Written by ${by}` })));
  const details = h('details', { class: 'card reflection', attrs: { role: 'listitem', 'data-reflection': r.id, open } }, summary, body);
  details.addEventListener('toggle', () => onToggle(details.open));
  return details;
}

/** What the panel says when nothing is remembered yet (or no folder is open). */
export function emptyContent(s: Snapshot): HTMLElement[] {
  const threshold = s.folders[0]?.threshold ?? 5;
  if (!s.folders.length) {
    return [
      h('div', { class: 'empty-icon' }, icon('folder-opened')),
      h('h3', { text: 'Open a folder' }),
      h('p', { text: 'Failure Memory keeps one memory per workspace folder. Open a folder to start remembering failing commands.' }),
    ];
  }
  const cap = captureLine(s.capture);
  return [
    h('div', { class: 'empty-icon' }, icon('history')),
    h('h3', { text: 'No failures remembered yet' }),
    h('p', { text: 'Run commands in the integrated terminal or in tasks as usual. When one fails, it shows up here:' }),
    h(
      'ul',
      { class: 'empty-list' },
      h('li', {}, icon('history'), h('span', { text: `Failing — each failure counts toward the threshold (${threshold}); test runs show tests passed per attempt.` })),
      h('li', {}, icon('error'), h('span', { text: `Exhausted — failed ${threshold} times with no success: running it again is stopped.` })),
      h('li', {}, icon('lightbulb'), h('span', { text: 'Reflections and learnings — what to do differently next time.' })),
    ),
    h('div', { class: `empty-capture ${cap.ok === true ? 'ok' : cap.ok ? 'info' : 'warn'}` }, icon(cap.ok === true ? 'pass' : cap.ok ? 'info' : 'warning'), h('span', { text: cap.text })),
    h('p', { class: 'hint', text: 'Agents and scripts can record and check commands with the failure-memory CLI.' }),
  ];
}

/** One search hit; `onShow` (when the approach is still in memory) reveals its card. */
export function similarItem(r: RecallView, onShow: (() => void) | undefined): HTMLElement {
  const item = h(
    'div',
    { class: `similar similar-${r.status}`, attrs: { role: 'listitem' } },
    h(
      'div',
      { class: 'card-head' },
      icon(r.status === 'exhausted' ? 'error' : r.status === 'resolved' ? 'pass' : 'history', 'status-icon'),
      h('span', { class: 'card-title', text: r.label }),
      h('span', { class: 'pill pill-score', text: `${Math.round(r.score * 100)}%`, title: 'Similarity to the search' }),
    ),
    r.errorText ? h('div', { class: 'signature' }, icon('warning'), h('span', { text: r.errorText })) : null,
    r.lesson ? h('div', { class: 'lesson' }, icon('lightbulb'), h('span', { text: r.lesson })) : null,
  );
  if (onShow) {
    const show = h('button', { class: 'link-button', text: 'Show', attrs: { type: 'button', 'data-fid': `show:${r.folder}\u0000${r.key}` } });
    show.addEventListener('click', onShow);
    item.append(show);
  }
  return item;
}

/** What a failing or exhausted card shows under its command: the last error, the meter and chart, patterns. */
export function approachDetails(a: ApproachView, kind: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (a.failingTests.length) {
    const names = a.failingTests.slice(0, 3).join(' · ') + (a.failingTests.length > 3 ? ` and ${a.failingTests.length - 3} more` : '');
    out.push(h('div', { class: 'tests-failing', attrs: { 'data-role': 'failing-tests' } }, icon('beaker'), h('span', { text: `${a.failingTests.length === 1 ? 'Failing test' : 'Failing tests'}: ${names}` })));
  }
  if (a.lastError) out.push(h('div', { class: 'signature', title: 'Last error' }, icon('warning'), h('span', { text: a.lastError })));
  if (kind === 'failing') {
    out.push(meter(a.failures, a.threshold, false));
    const chart = testChart(a.tests, a.progress);
    if (chart) out.push(chart);
  }
  if (kind === 'exhausted') {
    if (a.alternativesTried.length) {
      out.push(h('div', { class: 'alternatives' }, h('span', { class: 'label', text: 'Also tried: ' }), h('span', { text: a.alternativesTried.join(' · ') })));
    }
    const chart = testChart(a.tests, a.progress);
    if (chart) out.push(chart);
  }
  for (const p of a.patterns) out.push(h('div', { class: 'pattern' }, icon('info'), h('span', { text: p })));
  if (a.allowOnce) out.push(h('div', { class: 'note' }, icon('debug-continue'), h('span', { text: 'The next run is let through once.' })));
  return out;
}

/** An error the host reported, with its close button. */
export function bannerContent(text: string): HTMLElement[] {
  return [
    icon('error'),
    h('span', { class: 'banner-text', text }),
    h('button', { class: 'icon-button banner-close', title: 'Dismiss', attrs: { type: 'button', 'aria-label': 'Dismiss' } }, icon('close')),
  ];
}

/** One line per folder: the team project and whether the database is reachable; `folder` names it in a multi-root workspace. */
export function teamStatus(t: TeamPanelView, folder: string | undefined): HTMLElement {
  const offline = t.state === 'offline';
  const text = offline
    ? `Team memory offline, ${plural(t.waiting, 'record')} waiting (${t.project})`
    : `Team ${t.project}${folder !== undefined ? ` · ${folder}` : ''}${t.pulledAt ? ` · updated ${ago(t.pulledAt)}` : ' · connecting…'}${t.waiting ? ` · ${t.waiting} waiting` : ''}`;
  return h('div', { class: `team-status${offline ? ' team-offline' : ''}`, title: t.error ?? fullTime(t.pulledAt) }, icon(offline ? 'cloud-offline' : 'organization'), h('span', { text }));
}

/** An approach failing elsewhere in the team (rendered as text only: it came from other machines). */
export function teamCard(t: TeamFailureView, threshold: number): HTMLElement {
  const exhausted = t.failures >= threshold;
  const card = h('article', {
    class: `card card-team card-${exhausted ? 'exhausted' : 'failing'}`,
    attrs: { role: 'listitem', 'data-key': t.key, 'data-folder': t.folder, 'aria-label': `${t.label}: failing in the team` },
  });
  card.append(
    h(
      'div',
      { class: 'card-head' },
      icon('organization', 'status-icon'),
      h('span', { class: 'card-title', text: t.label, title: t.label }),
      h('span', { class: `pill pill-${exhausted ? 'exhausted' : 'failing'}`, text: `${t.failures}×`, title: `${plural(t.failures, 'failure')} in the team since the last success anywhere` }),
    ),
  );
  const meta = [`${plural(t.machines, 'machine')}${t.ci ? ', including CI' : ''}`, `last failed ${ago(t.lastFailure)}`];
  if (t.cwd !== '.') meta.unshift(t.cwd);
  if (t.local) meta.push('failing here too');
  card.append(h('div', { class: 'meta', text: meta.join(' · '), title: fullTime(t.lastFailure) }));
  if (t.command) card.append(h('code', { class: 'command', text: t.command, title: t.command }));
  card.append(h('div', { class: 'team-summary' }, icon('info'), h('span', { text: t.summary })));
  return card;
}

export interface LearningToolActions {
  edit: () => void;
  askDelete: () => void;
  delete: () => void;
  keep: () => void;
}

/** A learning's Edit and Delete buttons, or, once Delete is pressed (`confirming`), Delete and Keep. */
export function learningTools(l: LearningView, confirming: boolean, on: LearningToolActions): HTMLElement {
  const tools = h('div', { class: 'learning-tools' });
  if (confirming) {
    tools.append(
      h(
        'button',
        {
          class: 'button danger',
          attrs: { type: 'button', 'data-action': 'deleteLearning', 'data-fid': `delete-confirm:${l.id}` },
          on: {
            click: on.delete,
          },
        },
        icon('trash'),
        h('span', { text: 'Delete' }),
      ),
      h(
        'button',
        {
          class: 'button secondary',
          attrs: { type: 'button' },
          on: {
            click: on.keep,
          },
        },
        h('span', { text: 'Keep' }),
      ),
    );
  } else {
    tools.append(
      h(
        'button',
        {
          class: 'icon-button',
          title: 'Edit',
          attrs: { type: 'button', 'aria-label': 'Edit learning', 'data-action': 'editLearning', 'data-fid': `edit:${l.id}` },
          on: {
            click: on.edit,
          },
        },
        icon('edit'),
      ),
      h(
        'button',
        {
          class: 'icon-button',
          title: 'Delete',
          attrs: { type: 'button', 'aria-label': 'Delete learning', 'data-action': 'askDeleteLearning', 'data-fid': `delete:${l.id}` },
          on: {
            click: on.askDelete,
          },
        },
        icon('trash'),
      ),
    );
  }
  return tools;
}

const ANSWERED: Record<DecisionView['decision'], string> = { allow: 'Allowed', warn: 'Warned', ask: 'Asked', deny: 'Denied' };
const WOULD: Record<DecisionView['decision'], string> = { allow: 'allowed', warn: 'warned', ask: 'asked', deny: 'denied' };

/** One ask or deny of the gate; in shadow mode what it would have done, and always the rule that decided. */
export function decisionItem(d: DecisionView, folder: string | undefined): HTMLElement {
  const shadow = d.decision !== d.policy;
  const title = shadow ? `Would have ${WOULD[d.policy]} (${ANSWERED[d.decision].toLowerCase()})` : ANSWERED[d.decision];
  return h(
    'div',
    { class: `card decision decision-${d.policy}${shadow ? ' decision-shadow' : ''}`, attrs: { role: 'listitem' } },
    h(
      'div',
      { class: 'card-head' },
      icon(d.policy === 'deny' ? 'circle-slash' : 'question', 'status-icon'),
      h('span', { class: 'card-title', text: `${title}: ${d.label}` }),
      h('span', { class: 'meta-inline', text: ago(d.at), title: fullTime(d.at) }),
    ),
    h('div', { class: 'meta', text: `Rule ${d.code} · via ${d.via}${d.cwd !== '.' ? ` · in ${d.cwd}` : ''}${folder ? ` · ${folder}` : ''}` }),
    h('div', { class: 'command', text: d.command.split('\n')[0] }),
    h('p', { class: 'reason', text: d.reason }),
  );
}
