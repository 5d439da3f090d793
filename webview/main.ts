// The memory panel's browser side. It renders the host's snapshots and asks the host to act; it
// holds only UI state (search, collapsed sections, open reflections, drafts), kept with
// getState/setState so it survives the view being hidden (no retainContextWhenHidden).

import {
  isHostMessage,
  isWebviewMessage,
  LEARNING_TYPES,
  type ApproachView,
  type HostMessage,
  type LearningTypeView,
  type LearningView,
  type RecallView,
  type ReflectionView,
  type Snapshot,
  type TeamFailureView,
  type TeamPanelView,
  type WebviewMessage,
} from '../src/shared/protocol';
import { meter, testChart } from './chart';
import { ago, fullTime, h, icon, plural } from './dom';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

type SectionId = 'similar' | 'exhausted' | 'failing' | 'team' | 'resolved' | 'reflections' | 'learnings';
const SECTIONS: Array<{ id: SectionId; title: string }> = [
  { id: 'similar', title: 'Similar failures' },
  { id: 'exhausted', title: 'Exhausted' },
  { id: 'failing', title: 'Failing' },
  { id: 'team', title: 'Failing in the team' },
  { id: 'resolved', title: 'Resolved recently' },
  { id: 'reflections', title: 'Reflections' },
  { id: 'learnings', title: 'Learnings' },
];

interface UiState {
  search: string;
  collapsed: Partial<Record<SectionId, boolean>>;
  openReflections: string[];
  draft: { type: LearningTypeView; text: string; folder: string };
  editing?: { folder: string; id: string; type: LearningTypeView; text: string };
}

const TYPE_LABEL: Record<LearningTypeView, string> = {
  decision: 'Decision',
  learning: 'Learning',
  failed_approach: 'Failed approach',
  code_location: 'Code location',
  pattern: 'Pattern',
};

const api = acquireVsCodeApi();
const ui: UiState = restoreState(api.getState());
let snapshot: Snapshot | undefined;
let recall: { query: string; results: RecallView[] } | undefined;
let banner: string | undefined;
/** Buttons waiting for the host (disabled until the next snapshot or error). */
const pending = new Set<string>();
let flash: { folder: string; key: string; until: number; scrolled: boolean } | undefined;
let scrollToReflection: string | undefined;
let confirmDelete: string | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;

function restoreState(v: unknown): UiState {
  const s = (typeof v === 'object' && v !== null ? v : {}) as Partial<UiState>;
  const collapsed: UiState['collapsed'] = {};
  if (s.collapsed && typeof s.collapsed === 'object') {
    for (const { id } of SECTIONS) if (s.collapsed[id] === true) collapsed[id] = true;
  }
  const draft = s.draft && typeof s.draft === 'object' ? s.draft : undefined;
  return {
    search: typeof s.search === 'string' ? s.search.slice(0, 500) : '',
    collapsed,
    openReflections: Array.isArray(s.openReflections) ? s.openReflections.filter((x): x is string => typeof x === 'string').slice(-50) : [],
    draft: {
      type: LEARNING_TYPES.includes(draft?.type as LearningTypeView) ? (draft!.type as LearningTypeView) : 'learning',
      text: typeof draft?.text === 'string' ? draft.text.slice(0, 2000) : '',
      folder: typeof draft?.folder === 'string' ? draft.folder : '',
    },
    editing:
      s.editing && typeof s.editing.id === 'string' && typeof s.editing.folder === 'string' && typeof s.editing.text === 'string' && LEARNING_TYPES.includes(s.editing.type)
        ? { folder: s.editing.folder, id: s.editing.id, type: s.editing.type, text: s.editing.text.slice(0, 2000) }
        : undefined,
  };
}

function save(): void {
  api.setState(ui);
}

function send(message: WebviewMessage, pendingId?: string): void {
  if (!isWebviewMessage(message)) {
    console.error('[failure-memory] not sent, malformed:', (message as { type?: unknown }).type);
    return;
  }
  if (pendingId) pending.add(pendingId);
  api.postMessage(message);
}

// ---- skeleton: built once; render() fills the lists, so typing and focus survive updates ----

const app = document.getElementById('app')!;
app.textContent = '';

const searchInput = h('input', {
  class: 'search-input',
  attrs: { type: 'search', id: 'search', placeholder: 'Search commands, errors, learnings…', 'aria-label': 'Search the memory', maxlength: 500, spellcheck: 'false' },
});
searchInput.value = ui.search;
const clearSearch = h('button', { class: 'icon-button search-clear', title: 'Clear search', attrs: { type: 'button', 'aria-label': 'Clear search' } }, icon('close'));
const bannerEl = h('div', { class: 'banner', attrs: { role: 'alert', hidden: true } });
const emptyEl = h('div', { class: 'empty', attrs: { hidden: true } });
const footerEl = h('footer', { class: 'capture' });

interface SectionParts {
  root: HTMLElement;
  toggle: HTMLButtonElement;
  count: HTMLElement;
  list: HTMLElement;
}
const sections = {} as Record<SectionId, SectionParts>;

app.append(
  h('div', { class: 'toolbar' }, h('div', { class: 'search' }, icon('search', 'search-icon'), searchInput, clearSearch)),
  bannerEl,
  emptyEl,
);
for (const { id, title } of SECTIONS) {
  const count = h('span', { class: 'count' });
  const toggle = h(
    'button',
    { class: 'section-toggle', attrs: { type: 'button', 'aria-controls': `body-${id}`, id: `toggle-${id}` } },
    icon('chevron-down', 'chevron'),
    h('span', { class: 'section-title', text: title }),
    count,
  );
  const list = h('div', { class: 'list', attrs: { role: 'list' } });
  const body = h('div', { class: 'section-body', attrs: { id: `body-${id}` } }, list);
  const root = h('section', { class: `section section-${id}`, attrs: { id: `section-${id}`, 'aria-labelledby': `toggle-${id}` } }, h('h2', { class: 'section-head' }, toggle), body);
  toggle.addEventListener('click', () => {
    ui.collapsed[id] = !ui.collapsed[id];
    save();
    render();
  });
  sections[id] = { root, toggle, count, list };
  app.append(root);
}

// the add-learning form lives at the end of the Learnings section and is never re-rendered
const typeSelect = h('select', { class: 'select', attrs: { id: 'learning-type', 'aria-label': 'Kind of learning' } });
for (const t of LEARNING_TYPES) typeSelect.append(h('option', { text: TYPE_LABEL[t], attrs: { value: t } }));
typeSelect.value = ui.draft.type;
const folderSelect = h('select', { class: 'select', attrs: { id: 'learning-folder', 'aria-label': 'Workspace folder', hidden: true } });
const learningText = h('textarea', {
  class: 'textarea',
  attrs: { id: 'learning-text', rows: 2, maxlength: 2000, placeholder: 'What should be remembered? e.g. Run prisma generate after editing schema.prisma', 'aria-label': 'Learning text' },
});
learningText.value = ui.draft.text;
const addButton = h('button', { class: 'button primary', attrs: { type: 'submit', id: 'learning-add' } }, icon('add'), h('span', { text: 'Add learning' }));
const addForm = h(
  'form',
  { class: 'add-learning', attrs: { 'aria-label': 'Add a learning' } },
  h('div', { class: 'form-row' }, typeSelect, folderSelect),
  learningText,
  h('div', { class: 'form-row form-actions' }, addButton),
);
sections.learnings.root.querySelector('.section-body')!.append(addForm);
app.append(footerEl);

// ---- events ----

searchInput.addEventListener('input', () => {
  ui.search = searchInput.value.slice(0, 500);
  save();
  render();
  if (searchTimer) clearTimeout(searchTimer);
  searchTimer = setTimeout(requestRecall, 250);
});
searchInput.addEventListener('keydown', e => {
  if (e.key === 'Escape' && searchInput.value) {
    e.preventDefault();
    setSearch('');
  }
});
clearSearch.addEventListener('click', () => {
  setSearch('');
  searchInput.focus();
});

function setSearch(value: string): void {
  searchInput.value = value;
  ui.search = value;
  save();
  recall = undefined;
  render();
}

function requestRecall(): void {
  const q = ui.search.trim();
  if (q.length < 2) {
    recall = undefined;
    render();
    return;
  }
  send({ type: 'search', query: q });
}

typeSelect.addEventListener('change', () => {
  ui.draft.type = typeSelect.value as LearningTypeView;
  save();
});
folderSelect.addEventListener('change', () => {
  ui.draft.folder = folderSelect.value;
  save();
});
learningText.addEventListener('input', () => {
  ui.draft.text = learningText.value;
  save();
});
learningText.addEventListener('keydown', e => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    addForm.requestSubmit();
  }
});
addForm.addEventListener('submit', e => {
  e.preventDefault();
  const text = learningText.value.trim();
  const folder = draftFolder();
  if (!text || !folder) {
    learningText.focus();
    return;
  }
  send({ type: 'addLearning', folder, learningType: ui.draft.type, text });
  learningText.value = '';
  ui.draft.text = '';
  save();
});

function draftFolder(): string | undefined {
  const folders = snapshot?.folders ?? [];
  return folders.find(f => f.uri === ui.draft.folder)?.uri ?? folders[0]?.uri;
}

bannerEl.addEventListener('click', e => {
  if ((e.target as Element).closest('.banner-close')) {
    banner = undefined;
    render();
  }
});

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (!isHostMessage(e.data)) {
    console.warn('[failure-memory] ignored a message the panel cannot read');
    return;
  }
  onHostMessage(e.data);
});

function onHostMessage(m: HostMessage): void {
  switch (m.type) {
    case 'snapshot': {
      snapshot = m.snapshot;
      pending.clear();
      if (m.snapshot.highlight) {
        flash = { ...m.snapshot.highlight, until: Date.now() + 2500, scrolled: false };
        const a = findApproach(m.snapshot.highlight.folder, m.snapshot.highlight.key);
        if (a) ui.collapsed[sectionOf(a)] = false;
      }
      if (m.snapshot.highlightReflection) {
        const id = m.snapshot.highlightReflection;
        if (!ui.openReflections.includes(id)) ui.openReflections.push(id);
        ui.collapsed.reflections = false;
        scrollToReflection = id;
      }
      if (ui.editing && !m.snapshot.learnings.some(l => l.id === ui.editing!.id)) ui.editing = undefined;
      save();
      render();
      break;
    }
    case 'recallResults':
      if (m.query.trim() !== ui.search.trim()) return; // an older query
      recall = { query: m.query, results: m.results };
      render();
      break;
    case 'error':
      banner = m.message;
      pending.clear();
      render();
      break;
  }
}

function findApproach(folder: string, key: string): ApproachView | undefined {
  if (!snapshot) return undefined;
  return [...snapshot.exhausted, ...snapshot.failing, ...snapshot.resolved].find(a => a.folder === folder && a.key === key);
}

function sectionOf(a: ApproachView): SectionId {
  return a.status === 'exhausted' ? 'exhausted' : a.status === 'resolved' ? 'resolved' : 'failing';
}

// ---- filtering ----

function words(): string[] {
  return ui.search.toLowerCase().split(/\s+/).filter(Boolean);
}

function matches(texts: Array<string | undefined>): boolean {
  const w = words();
  if (!w.length) return true;
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  return w.every(x => hay.includes(x));
}

const folderName = (uri: string) => snapshot?.folders.find(f => f.uri === uri)?.name ?? '';
const multiRoot = () => (snapshot?.folders.length ?? 0) > 1;

// ---- render ----

function render(): void {
  renderBanner();
  if (!snapshot) return;
  const s = snapshot;
  const active = document.activeElement;
  const focusId = active instanceof HTMLElement ? active.dataset.fid : undefined;
  const editSel = active instanceof HTMLTextAreaElement && active.dataset.fid ? [active.selectionStart, active.selectionEnd] : undefined;

  const nothing = !s.exhausted.length && !s.failing.length && !s.resolved.length && !s.reflections.length && !s.learnings.length && !(s.team ?? []).some(t => t.failures.length);
  renderEmpty(nothing);
  clearSearch.hidden = !ui.search;

  const approachText = (a: ApproachView) => [a.label, a.command, a.cwd, a.lastErrorSignature, ...a.alternativesTried, folderName(a.folder)];
  const exhausted = s.exhausted.filter(a => matches(approachText(a)));
  const failing = s.failing.filter(a => matches(approachText(a)));
  const resolved = s.resolved.filter(a => matches(approachText(a)));
  const reflections = s.reflections.filter(r => matches([r.label, r.reflectionText, r.rootCause, ...r.warnings, ...r.insights, ...r.lessons]));
  const learnings = s.learnings.filter(l => matches([l.text, TYPE_LABEL[l.type], l.type]));

  const searching = ui.search.trim().length >= 2;
  fillSection('similar', searching ? (recall?.results.length ?? 0) : 0, searching ? (recall?.results.length ?? 0) : 0, searching && !!recall, similarItems());
  fillSection('exhausted', exhausted.length, s.exhausted.length, !nothing, exhausted.map(a => approachCard(a)), 'Nothing is exhausted.');
  fillSection('failing', failing.length, s.failing.length, !nothing, failing.map(a => approachCard(a)), 'Nothing is failing right now.');
  const teams = s.team ?? [];
  const teamFailures = teams.flatMap(t => t.failures).filter(t => matches([t.label, t.command, t.cwd, t.lastError, t.summary]));
  const teamTotal = teams.reduce((n, t) => n + t.failures.length, 0);
  fillSection('team', teamFailures.length, teamTotal, teams.length > 0, [...teams.map(teamStatus), ...teamFailures.map(teamCard)], 'Nothing is failing in the team.');
  fillSection('resolved', resolved.length, s.resolved.length, !nothing, resolved.map(a => approachCard(a)), 'No approach was resolved recently.');
  fillSection('reflections', reflections.length, s.reflections.length, !nothing, reflections.map(reflectionItem), 'No reflection yet: use Reflect on an approach.');
  fillSection('learnings', learnings.length, s.learnings.length, true, learnings.map(learningItem), 'No learning yet. Add what you or your agent should remember.');

  renderFolders();
  addButton.disabled = !s.folders.length;
  learningText.disabled = !s.folders.length;
  renderCapture();

  if (focusId) {
    const again = app.querySelector<HTMLElement>(`[data-fid="${CSS.escape(focusId)}"]`);
    if (again && again !== document.activeElement) {
      again.focus();
      if (editSel && again instanceof HTMLTextAreaElement) again.setSelectionRange(editSel[0], editSel[1]);
    }
  }
  if (flash && !flash.scrolled) {
    flash.scrolled = true;
    app.querySelector(`.card.flash`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    const f = flash;
    setTimeout(() => {
      if (flash === f) {
        flash = undefined;
        app.querySelectorAll('.card.flash').forEach(el => el.classList.remove('flash'));
      }
    }, Math.max(0, f.until - Date.now()));
  }
  if (scrollToReflection) {
    app.querySelector(`[data-reflection="${CSS.escape(scrollToReflection)}"]`)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    scrollToReflection = undefined;
  }
}

function fillSection(id: SectionId, shown: number, total: number, visible: boolean, items: HTMLElement[], emptyText?: string): void {
  const p = sections[id];
  p.root.hidden = !visible;
  const collapsed = !!ui.collapsed[id];
  p.root.classList.toggle('collapsed', collapsed);
  p.toggle.setAttribute('aria-expanded', String(!collapsed));
  p.count.textContent = shown === total ? String(total) : `${shown} of ${total}`;
  p.count.classList.toggle('count-zero', total === 0);
  p.list.replaceChildren(...items);
  if (!items.length && emptyText) {
    p.list.append(h('p', { class: 'none', text: total && words().length ? 'Nothing here matches the search.' : emptyText }));
  }
}

function renderBanner(): void {
  bannerEl.hidden = !banner;
  bannerEl.replaceChildren();
  if (!banner) return;
  bannerEl.append(
    icon('error'),
    h('span', { class: 'banner-text', text: banner }),
    h('button', { class: 'icon-button banner-close', title: 'Dismiss', attrs: { type: 'button', 'aria-label': 'Dismiss' } }, icon('close')),
  );
}

function captureLine(): { ok: boolean | 'info'; text: string } {
  const c = snapshot!.capture;
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

function renderEmpty(show: boolean): void {
  emptyEl.hidden = !show;
  emptyEl.replaceChildren();
  if (!show) return;
  const s = snapshot!;
  const threshold = s.folders[0]?.threshold ?? 5;
  if (!s.folders.length) {
    emptyEl.append(
      h('div', { class: 'empty-icon' }, icon('folder-opened')),
      h('h3', { text: 'Open a folder' }),
      h('p', { text: 'Failure Memory keeps one memory per workspace folder. Open a folder to start remembering failing commands.' }),
    );
    return;
  }
  const cap = captureLine();
  emptyEl.append(
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
  );
}

function renderCapture(): void {
  const s = snapshot!;
  const c = s.capture;
  const cap = captureLine();
  const parts = [c.terminal ? (c.terminals ? `terminal ${c.terminalsWithIntegration}/${c.terminals} with shell integration` : 'terminal') : 'terminal off', c.tasks ? 'tasks' : 'tasks off'];
  footerEl.replaceChildren(icon(cap.ok ? 'record' : 'warning', cap.ok ? 'capture-on' : 'capture-warn'), h('span', { text: `Capturing: ${parts.join(' · ')}`, title: cap.text }));
  if (s.folders.some(f => f.private)) footerEl.append(h('span', { class: 'private', text: ' · untrusted: memory kept in extension storage' }));
  footerEl.hidden = emptyEl.hidden === false;
}

function renderFolders(): void {
  const folders = snapshot!.folders;
  folderSelect.hidden = folders.length < 2;
  if (folders.length < 2) return;
  const current = draftFolder();
  folderSelect.replaceChildren(...folders.map(f => h('option', { text: f.name, attrs: { value: f.uri } })));
  if (current) folderSelect.value = current;
}

// ---- items ----

function actionButton(
  label: string,
  iconName: string,
  message: WebviewMessage & { folder: string },
  opts: { primary?: boolean; iconOnly?: boolean; id: string },
): HTMLButtonElement {
  const pendingId = `${message.type}:${opts.id}`;
  const b = h(
    'button',
    {
      class: `button ${opts.primary ? 'primary' : 'secondary'}${opts.iconOnly ? ' icon-only' : ''}`,
      title: label,
      attrs: { type: 'button', 'data-action': message.type, 'data-fid': pendingId, 'aria-label': label, disabled: pending.has(pendingId) },
    },
    icon(pending.has(pendingId) ? 'loading' : iconName, pending.has(pendingId) ? 'codicon-modifier-spin' : ''),
    opts.iconOnly ? null : h('span', { text: label }),
  );
  b.addEventListener('click', () => {
    send(message, pendingId);
    render();
  });
  return b;
}

function approachCard(a: ApproachView): HTMLElement {
  const kind = sectionOf(a);
  const id = `${a.folder}\u0000${a.key}`;
  const target = { folder: a.folder, key: a.key };
  const isFlash = flash && flash.folder === a.folder && flash.key === a.key && Date.now() < flash.until;
  const card = h('article', {
    class: `card card-${kind}${isFlash ? ' flash' : ''}`,
    attrs: { role: 'listitem', 'data-key': a.key, 'data-folder': a.folder, 'data-status': a.status, 'aria-label': `${a.label}: ${kind}` },
  });

  const statusIcon = kind === 'exhausted' ? 'error' : kind === 'resolved' ? 'pass' : 'history';
  const badge =
    kind === 'resolved'
      ? h('span', { class: 'pill pill-resolved', text: a.resolvedBy === 'success' ? 'passed' : 'by hand' })
      : h('span', { class: `pill pill-${kind}`, text: `${a.failures}/${a.threshold}`, title: `${plural(a.failures, 'failure')} since the last success (threshold ${a.threshold})` });
  card.append(h('div', { class: 'card-head' }, icon(statusIcon, 'status-icon'), h('span', { class: 'card-title', text: a.label, title: a.label }), badge));

  const meta: string[] = [];
  if (multiRoot()) meta.push(folderName(a.folder));
  if (a.cwd !== '.') meta.push(a.cwd);
  if (kind === 'resolved') meta.push(`resolved ${ago(a.resolvedAt)}${a.resolvedBy === 'success' ? ' (a run succeeded)' : ''}`);
  else meta.push(`${plural(a.totalAttempts, 'run')} · last failed ${ago(a.lastFailure)}`);
  card.append(h('div', { class: 'meta', text: meta.join(' · '), title: fullTime(kind === 'resolved' ? a.resolvedAt : a.lastFailure) }));

  card.append(h('code', { class: 'command', text: a.command, title: a.command }));

  if (kind !== 'resolved') {
    if (a.lastErrorSignature) card.append(h('div', { class: 'signature', title: 'Last error' }, icon('warning'), h('span', { text: a.lastErrorSignature })));
    if (kind === 'failing') {
      card.append(meter(a.failures, a.threshold, false));
      const chart = testChart(a.tests, a.progress);
      if (chart) card.append(chart);
    }
    if (kind === 'exhausted') {
      if (a.alternativesTried.length) {
        card.append(h('div', { class: 'alternatives' }, h('span', { class: 'label', text: 'Also tried: ' }), h('span', { text: a.alternativesTried.join(' · ') })));
      }
      const chart = testChart(a.tests, a.progress);
      if (chart) card.append(chart);
    }
    for (const p of a.patterns) card.append(h('div', { class: 'pattern' }, icon('info'), h('span', { text: p })));
    if (a.allowOnce) card.append(h('div', { class: 'note' }, icon('debug-continue'), h('span', { text: 'The next run is let through once.' })));
  }
  // run history, what changed since the last pass, what fixed it, flakiness (from the run ledger)
  for (const line of a.history ?? []) card.append(h('div', { class: 'note history', attrs: { 'data-role': 'history' } }, icon('git-commit'), h('span', { text: line })));

  const actions = h('div', { class: 'actions' });
  if (kind === 'exhausted') {
    actions.append(
      actionButton('Mark Resolved', 'pass', { type: 'resolve', ...target }, { primary: true, id }),
      actionButton('Reflect', 'lightbulb', { type: 'reflect', ...target }, { id }),
      actionButton('Run Anyway Once', 'debug-continue', { type: 'runAnywayOnce', ...target }, { id }),
    );
  } else if (kind === 'failing') {
    actions.append(
      actionButton('Reflect', 'lightbulb', { type: 'reflect', ...target }, { id }),
      actionButton('Mark Resolved', 'pass', { type: 'resolve', ...target }, { id }),
    );
  }
  if (kind !== 'resolved') actions.append(actionButton('Copy as Prompt', 'comment-discussion', { type: 'copyBrief', ...target }, { iconOnly: true, id }));
  actions.append(actionButton('Copy command', 'copy', { type: 'copyCommand', ...target }, { iconOnly: true, id }));
  card.append(actions);
  return card;
}

/** One line per folder: the team project and whether the database is reachable. */
function teamStatus(t: TeamPanelView): HTMLElement {
  const offline = t.state === 'offline';
  const text = offline
    ? `Team memory offline, ${plural(t.waiting, 'record')} waiting (${t.project})`
    : `Team ${t.project}${multiRoot() ? ` · ${folderName(t.folder)}` : ''}${t.pulledAt ? ` · updated ${ago(t.pulledAt)}` : ' · connecting…'}${t.waiting ? ` · ${t.waiting} waiting` : ''}`;
  return h('div', { class: `team-status${offline ? ' team-offline' : ''}`, title: t.error ?? fullTime(t.pulledAt) }, icon(offline ? 'cloud-offline' : 'organization'), h('span', { text }));
}

/** An approach failing elsewhere in the team (rendered as text only: it came from other machines). */
function teamCard(t: TeamFailureView): HTMLElement {
  const exhausted = t.failures >= (snapshot?.folders.find(f => f.uri === t.folder)?.threshold ?? 5);
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

function similarItems(): HTMLElement[] {
  if (!recall) return [];
  if (!recall.results.length) return [h('p', { class: 'none', text: 'No similar failure in memory.' })];
  return recall.results.map(r => {
    const known = findApproach(r.folder, r.key);
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
      r.errorSignature ? h('div', { class: 'signature' }, icon('warning'), h('span', { text: r.errorSignature })) : null,
      r.lesson ? h('div', { class: 'lesson' }, icon('lightbulb'), h('span', { text: r.lesson })) : null,
    );
    if (known) {
      const show = h('button', { class: 'link-button', text: 'Show', attrs: { type: 'button', 'data-fid': `show:${r.folder}\u0000${r.key}` } });
      show.addEventListener('click', () => {
        flash = { folder: r.folder, key: r.key, until: Date.now() + 2500, scrolled: false };
        ui.collapsed[sectionOf(known)] = false;
        save();
        render();
      });
      item.append(show);
    }
    return item;
  });
}

function reflectionItem(r: ReflectionView): HTMLElement {
  const open = ui.openReflections.includes(r.id) || (snapshot?.reflections[0]?.id === r.id && !ui.openReflections.includes(`closed:${r.id}`));
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
  details.addEventListener('toggle', () => {
    ui.openReflections = ui.openReflections.filter(x => x !== r.id && x !== `closed:${r.id}`);
    ui.openReflections.push(details.open ? r.id : `closed:${r.id}`);
    ui.openReflections = ui.openReflections.slice(-50);
    save();
  });
  return details;
}

function learningItem(l: LearningView): HTMLElement {
  const item = h('div', { class: `learning learning-${l.type}`, attrs: { role: 'listitem', 'data-learning': l.id } });
  const editing = ui.editing && ui.editing.id === l.id && ui.editing.folder === l.folder ? ui.editing : undefined;
  if (editing) {
    const type = h('select', { class: 'select', attrs: { 'aria-label': 'Kind of learning', 'data-fid': `edit-type:${l.id}` } });
    for (const t of LEARNING_TYPES) type.append(h('option', { text: TYPE_LABEL[t], attrs: { value: t } }));
    type.value = editing.type;
    type.addEventListener('change', () => {
      editing.type = type.value as LearningTypeView;
      save();
    });
    const text = h('textarea', { class: 'textarea', attrs: { rows: 3, maxlength: 2000, 'aria-label': 'Learning text', 'data-fid': `edit-text:${l.id}` } });
    text.value = editing.text;
    text.addEventListener('input', () => {
      editing.text = text.value;
      save();
    });
    const saveEdit = () => {
      if (!editing.text.trim()) return text.focus();
      send({ type: 'updateLearning', folder: l.folder, id: l.id, learningType: editing.type, text: editing.text });
      ui.editing = undefined;
      save();
      render();
    };
    const cancel = () => {
      ui.editing = undefined;
      save();
      render();
    };
    text.addEventListener('keydown', e => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        saveEdit();
      } else if (e.key === 'Escape') cancel();
    });
    item.append(
      type,
      text,
      h(
        'div',
        { class: 'form-row form-actions' },
        h('button', { class: 'button primary', attrs: { type: 'button', 'data-action': 'saveLearning' }, on: { click: saveEdit } }, icon('check'), h('span', { text: 'Save' })),
        h('button', { class: 'button secondary', attrs: { type: 'button' }, on: { click: cancel } }, h('span', { text: 'Cancel' })),
      ),
    );
    return item;
  }

  const tools = h('div', { class: 'learning-tools' });
  if (confirmDelete === l.id) {
    tools.append(
      h(
        'button',
        {
          class: 'button danger',
          attrs: { type: 'button', 'data-action': 'deleteLearning', 'data-fid': `delete-confirm:${l.id}` },
          on: {
            click: () => {
              confirmDelete = undefined;
              send({ type: 'deleteLearning', folder: l.folder, id: l.id });
            },
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
            click: () => {
              confirmDelete = undefined;
              render();
            },
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
            click: () => {
              ui.editing = { folder: l.folder, id: l.id, type: l.type, text: l.text };
              save();
              render();
              app.querySelector<HTMLTextAreaElement>(`[data-fid="${CSS.escape(`edit-text:${l.id}`)}"]`)?.focus();
            },
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
            click: () => {
              confirmDelete = l.id;
              render();
              app.querySelector<HTMLElement>(`[data-fid="${CSS.escape(`delete-confirm:${l.id}`)}"]`)?.focus();
            },
          },
        },
        icon('trash'),
      ),
    );
  }
  const meta = [l.source === 'user' ? 'added by you' : `from ${l.source}`, ago(l.updatedAt ?? l.createdAt)];
  if (multiRoot()) meta.unshift(folderName(l.folder));
  item.append(
    h('div', { class: 'learning-head' }, h('span', { class: `type type-${l.type}`, text: TYPE_LABEL[l.type] }), h('span', { class: 'meta-inline', text: meta.join(' · '), title: fullTime(l.updatedAt ?? l.createdAt) }), tools),
    h('div', { class: 'learning-text', text: l.text }),
  );
  return item;
}

// ---- start: the host sends the first snapshot once it hears `ready` ----
send({ type: 'ready' });
if (ui.search.trim().length >= 2) requestRecall();
