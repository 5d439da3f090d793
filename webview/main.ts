// The memory panel's browser side. It renders the host's snapshots and asks the host to act; it
// holds only UI state (search, collapsed sections, open reflections, drafts), kept with
// getState/setState so it survives the view being hidden (no retainContextWhenHidden).

import {
  isHostMessage,
  LEARNING_TYPES,
  type ApproachView,
  type HostMessage,
  type LearningTypeView,
  type LearningView,
  type RecallView,
  type ReflectionView,
  type Snapshot,
  type WebviewMessage,
} from '../src/shared/protocol';
import { ago, fullTime, h, icon, plural } from './dom';
import { matchesAll, restoreSnapshot, restoreState, searchWords, SECTIONS, snapshotToKeep, TYPE_LABEL, type SectionId, type UiState } from './state';
import { approachDetails, bannerContent, captureLine, decisionItem, emptyContent, learningTools, reflectionItem, similarItem, teamCard, teamStatus } from './views';
import { patternItem } from './patterns';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const saved = api.getState();
const ui: UiState = restoreState(saved);
// the last snapshot, kept with the UI state: a panel opened again shows it at once, before the host's fresh one
let snapshot: Snapshot | undefined = restoreSnapshot(saved);
let keptSnapshot = snapshot;
let recall: { query: string; results: RecallView[] } | undefined;
let banner: string | undefined;
/** Buttons waiting for the host (disabled until the next snapshot or error). */
const pending = new Set<string>();
let flash: { folder: string; key: string; until: number; scrolled: boolean } | undefined;
let scrollToReflection: string | undefined;
let confirmDelete: string | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;

function save(): void {
  api.setState({ ...ui, snapshot: keptSnapshot });
}

// what is sent is typed here and validated by the host, which trusts nothing from the webview
function send(message: WebviewMessage, pendingId?: string): void {
  if (pendingId) pending.add(pendingId);
  api.postMessage(message);
}

// ---- skeleton: built once; render() fills the lists, so typing and focus survive updates ----

const app = document.getElementById('app')!;
app.textContent = '';

const searchInput = h('input', {
  class: 'search-input',
  attrs: { type: 'search', id: 'search', placeholder: 'Search the memory', 'aria-label': 'Search the memory', maxlength: 500, spellcheck: 'false' },
});
searchInput.value = ui.search;
const clearSearch = h('button', { class: 'icon-button search-clear', title: 'Clear search', attrs: { type: 'button', 'aria-label': 'Clear search' } }, icon('close'));
const bannerEl = h('div', { class: 'banner', attrs: { role: 'alert', hidden: true } });
const emptyEl = h('div', { class: 'empty', attrs: { hidden: true } });
const footerEl = h('footer', { class: 'capture' });
// the embedding model, offered here (never by a prompt): a download is the user's choice, made when they look
const modelOfferEl = h(
  'div',
  { class: 'note model-offer', attrs: { id: 'model-offer', hidden: true } },
  icon('sparkle'),
  h('span', { text: 'Similar failures are found with the built-in offline embedder. A local model (all-MiniLM-L6-v2, about 23 MB, runs on this machine) finds them better. ' }),
  h('button', { class: 'link-button', text: 'Download the model', attrs: { type: 'button', id: 'model-download' }, on: { click: () => send({ type: 'downloadModel' }) } }),
);

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
  attrs: { id: 'learning-text', rows: 2, maxlength: 2000, placeholder: 'A lesson worth remembering', 'aria-label': 'Learning text' },
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
app.append(modelOfferEl, footerEl);

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
      keptSnapshot = snapshotToKeep(m.snapshot);
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

const words = () => searchWords(ui.search);
const matches = (texts: Array<string | undefined>) => matchesAll(words(), texts);

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

  const approachText = (a: ApproachView) => [a.label, a.command, a.cwd, a.lastError, a.lastErrorSignature, ...a.alternativesTried, folderName(a.folder)];
  const exhausted = s.exhausted.filter(a => matches(approachText(a)));
  const failing = s.failing.filter(a => matches(approachText(a)));
  const resolved = s.resolved.filter(a => matches(approachText(a)));
  const reflections = s.reflections.filter(r => matches([r.label, r.reflectionText, r.rootCause, ...r.warnings, ...r.insights, ...r.lessons]));
  const learnings = s.learnings.filter(l => matches([l.text, TYPE_LABEL[l.type], l.type]));

  const searching = ui.search.trim().length >= 2;
  fillSection('similar', searching ? (recall?.results.length ?? 0) : 0, searching ? (recall?.results.length ?? 0) : 0, searching && !!recall, similarItems());
  const allPatterns = s.patterns ?? [];
  const patterns = allPatterns.filter(p => matches([p.subject, p.sentence, p.lastError, p.factors, p.fix, p.resolution, ...p.commands]));
  fillSection('patterns', patterns.length, allPatterns.length, allPatterns.length > 0, patterns.map(p => patternItem(p, multiRoot() ? folderName(p.folder) : undefined)));
  fillSection('exhausted', exhausted.length, s.exhausted.length, !nothing, exhausted.map(a => approachCard(a)), 'Nothing is exhausted.');
  fillSection('failing', failing.length, s.failing.length, !nothing, failing.map(a => approachCard(a)), 'Nothing is failing right now.');
  const teams = s.team ?? [];
  const teamFailures = teams.flatMap(t => t.failures).filter(t => matches([t.label, t.command, t.cwd, t.lastError, t.summary]));
  const teamTotal = teams.reduce((n, t) => n + t.failures.length, 0);
  const teamItems = [
    ...teams.map(t => teamStatus(t, multiRoot() ? folderName(t.folder) : undefined)),
    ...teamFailures.map(t => teamCard(t, snapshot?.folders.find(f => f.uri === t.folder)?.threshold ?? 5)),
  ];
  fillSection('team', teamFailures.length, teamTotal, teams.length > 0, teamItems, 'Nothing is failing in the team.');
  const allDecisions = s.decisions ?? [];
  const decisions = allDecisions.filter(d => matches([d.label, d.command, d.code, d.reason, d.via]));
  fillSection('decisions', decisions.length, allDecisions.length, allDecisions.length > 0, decisions.map(d => decisionItem(d, multiRoot() ? folderName(d.folder) : undefined)));
  fillSection('resolved', resolved.length, s.resolved.length, !nothing, resolved.map(a => approachCard(a)), 'No approach was resolved recently.');
  fillSection('reflections', reflections.length, s.reflections.length, !nothing, reflections.map(r => reflectionItem(r, isOpen(r), open => toggleReflection(r, open))), 'No reflection yet: use Reflect on an approach.');
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
  bannerEl.append(...bannerContent(banner));
}

function renderEmpty(show: boolean): void {
  emptyEl.hidden = !show;
  emptyEl.replaceChildren();
  if (!show) return;
  emptyEl.append(...emptyContent(snapshot!));
}

function renderCapture(): void {
  const s = snapshot!;
  const c = s.capture;
  const cap = captureLine(s.capture);
  const parts = [c.terminal ? (c.terminals ? `terminal ${c.terminalsWithIntegration}/${c.terminals} with shell integration` : 'terminal') : 'terminal off', c.tasks ? 'tasks' : 'tasks off'];
  footerEl.replaceChildren(icon(cap.ok ? 'record' : 'warning', cap.ok ? 'capture-on' : 'capture-warn'), h('span', { text: `Capturing: ${parts.join(' · ')}`, title: cap.text }));
  if (s.folders.some(f => f.private)) footerEl.append(h('span', { class: 'private', text: ' · untrusted: memory kept in extension storage' }));
  footerEl.hidden = emptyEl.hidden === false;
  modelOfferEl.hidden = !s.offerModel;
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
      : h('span', { class: `pill pill-${kind}`, text: a.badge, title: a.badgeLabel, attrs: { 'aria-label': a.badgeLabel } });
  card.append(h('div', { class: 'card-head' }, icon(statusIcon, 'status-icon'), h('span', { class: 'card-title', text: a.label, title: a.label }), badge));

  const meta: string[] = [];
  if (multiRoot()) meta.push(folderName(a.folder));
  if (a.cwd !== '.') meta.push(a.cwd);
  if (kind === 'resolved') meta.push(`resolved ${ago(a.resolvedAt)}${a.resolvedBy === 'success' ? ' (a run succeeded)' : ''}`);
  else meta.push(`${a.summary || plural(a.failures, 'failure')} · last failed ${ago(a.lastFailure)}`);
  card.append(h('div', { class: 'meta', text: meta.join(' · '), title: fullTime(kind === 'resolved' ? a.resolvedAt : a.lastFailure) }));

  card.append(h('code', { class: 'command', text: a.command, title: a.command }));

  if (kind !== 'resolved') card.append(...approachDetails(a, kind));
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

function similarItems(): HTMLElement[] {
  if (!recall) return [];
  if (!recall.results.length) return [h('p', { class: 'none', text: 'No similar failure in memory.' })];
  return recall.results.map(r => {
    const known = findApproach(r.folder, r.key);
    return similarItem(
      r,
      known &&
        (() => {
          flash = { folder: r.folder, key: r.key, until: Date.now() + 2500, scrolled: false };
          ui.collapsed[sectionOf(known)] = false;
          save();
          render();
        }),
    );
  });
}

const isOpen = (r: ReflectionView) => ui.openReflections.includes(r.id) || (snapshot?.reflections[0]?.id === r.id && !ui.openReflections.includes(`closed:${r.id}`));

function toggleReflection(r: ReflectionView, open: boolean): void {
  ui.openReflections = ui.openReflections.filter(x => x !== r.id && x !== `closed:${r.id}`);
  ui.openReflections.push(open ? r.id : `closed:${r.id}`);
  ui.openReflections = ui.openReflections.slice(-50);
  save();
}

/** The learning being edited in place: its kind, its text, Save (Ctrl+Enter) and Cancel (Escape). */
function learningEditor(item: HTMLElement, l: LearningView, editing: NonNullable<UiState['editing']>): HTMLElement {
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

function learningItem(l: LearningView): HTMLElement {
  const item = h('div', { class: `learning learning-${l.type}`, attrs: { role: 'listitem', 'data-learning': l.id } });
  const editing = ui.editing && ui.editing.id === l.id && ui.editing.folder === l.folder ? ui.editing : undefined;
  if (editing) return learningEditor(item, l, editing);
  const tools = learningTools(l, confirmDelete === l.id, {
    edit: () => {
      ui.editing = { folder: l.folder, id: l.id, type: l.type, text: l.text };
      save();
      render();
      app.querySelector<HTMLTextAreaElement>(`[data-fid="${CSS.escape(`edit-text:${l.id}`)}"]`)?.focus();
    },
    askDelete: () => {
      confirmDelete = l.id;
      render();
      app.querySelector<HTMLElement>(`[data-fid="${CSS.escape(`delete-confirm:${l.id}`)}"]`)?.focus();
    },
    delete: () => {
      confirmDelete = undefined;
      send({ type: 'deleteLearning', folder: l.folder, id: l.id });
    },
    keep: () => {
      confirmDelete = undefined;
      render();
    },
  });
  const meta = [l.source === 'user' ? 'added by you' : `from ${l.source}`, ago(l.updatedAt ?? l.createdAt)];
  if (multiRoot()) meta.unshift(folderName(l.folder));
  item.append(
    h('div', { class: 'learning-head' }, h('span', { class: `type type-${l.type}`, text: TYPE_LABEL[l.type] }), h('span', { class: 'meta-inline', text: meta.join(' · '), title: fullTime(l.updatedAt ?? l.createdAt) }), tools),
    h('div', { class: 'learning-text', text: l.text }),
  );
  return item;
}

// ---- start: the last snapshot at once (a panel opened again), then the host's fresh one once it hears `ready` ----
if (snapshot) {
  render();
  window.scrollTo(0, ui.scrollY);
}
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('scroll', () => {
  if (scrollTimer) clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => {
    ui.scrollY = Math.round(window.scrollY);
    save();
  }, 150);
});
send({ type: 'ready' });
if (ui.search.trim().length >= 2) requestRecall();
