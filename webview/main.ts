// The memory panel's browser side. It renders the host's snapshots and asks the host to act; it
// holds only UI state (search, collapsed sections, open reflections, drafts), kept with
// getState/setState so it survives the view being hidden (no retainContextWhenHidden).
// Every list draws only the rows on screen (./virtualList.ts): a memory at its limit of 500
// approaches costs the page a screenful of cards, and a row is drawn again only when it changed.

import {
  isHostMessage,
  LEARNING_TYPES,
  type ApproachView,
  type HostMessage,
  type LearningTypeView,
  type RecallView,
  type ReflectionView,
  type Snapshot,
  type WebviewMessage,
} from '../src/shared/protocol';
import { approachCard, approachId, approachState, kindOf, learningItem, learningState, type CardContext, type LearningContext } from './cards';
import { h, icon } from './dom';
import { PanelLists, type ListParts } from './lists';
import { approachText, matchesAll, restoreSnapshot, restoreState, searchWords, SECTIONS, snapshotToKeep, TYPE_LABEL, type SectionId, type UiState } from './state';
import { bannerContent, captureLine, decisionItem, emptyContent, reflectionItem, similarItem, teamCard, teamStatus } from './views';
import { byFid, VirtualList, type Row } from './virtualList';

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
let flash: { folder: string; key: string; until: number; revealed: boolean } | undefined;
let flashTimer: ReturnType<typeof setTimeout> | undefined;
let revealReflection: string | undefined;
let confirmDelete: string | undefined;
/** An element (by data-fid) to focus once the rows are drawn again (an editor opened, a delete asked). */
let focusAfterRender: string | undefined;
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
const toolbar = h('div', { class: 'toolbar' }, h('div', { class: 'search' }, icon('search', 'search-icon'), searchInput, clearSearch));
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

const parts = {} as Record<SectionId, ListParts & { count: HTMLElement }>;
app.append(toolbar, bannerEl, emptyEl);
for (const { id, title } of SECTIONS) {
  const count = h('span', { class: 'count' });
  const toggle = h(
    'button',
    { class: 'section-toggle', attrs: { type: 'button', 'aria-controls': `body-${id}`, id: `toggle-${id}` } },
    icon('chevron-down', 'chevron'),
    h('span', { class: 'section-title', text: title }),
    count,
  );
  const listRoot = h('div', { class: 'list', attrs: { 'aria-labelledby': `toggle-${id}` } });
  const none = h('p', { class: 'none', attrs: { hidden: true } });
  const body = h('div', { class: 'section-body', attrs: { id: `body-${id}` } }, listRoot, none);
  const root = h('section', { class: `section section-${id}`, attrs: { id: `section-${id}`, 'aria-labelledby': `toggle-${id}`, 'data-section': id } }, h('h2', { class: 'section-head' }, toggle), body);
  toggle.addEventListener('click', () => {
    ui.collapsed[id] = !ui.collapsed[id];
    save();
    render();
  });
  // cards are taller than a learning or a decision line: the first estimate only matters until rows are measured
  const list = new VirtualList(listRoot, { estimate: id === 'exhausted' || id === 'failing' ? 150 : 60, gap: 6, topInset: () => toolbar.getBoundingClientRect().bottom });
  parts[id] = { root, toggle, count, list, none };
  app.append(root);
}
const lists = new PanelLists(parts, () => Math.max(0, toolbar.getBoundingClientRect().bottom), searchInput);

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
parts.learnings.root.querySelector('.section-body')!.append(addForm);
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

// Escape on a card's button goes back to its card (the row Up and Down move from)
app.addEventListener('keydown', e => {
  const target = e.target as HTMLElement;
  const row = target.closest<HTMLElement>('.vrow');
  if (e.key === 'Escape' && row && row !== target && target.tagName === 'BUTTON') {
    e.preventDefault();
    row.focus();
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
    case 'snapshot':
      onSnapshot(m.snapshot);
      break;
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

function onSnapshot(s: Snapshot): void {
  snapshot = s;
  keptSnapshot = snapshotToKeep(s);
  pending.clear();
  if (s.highlight) showApproach(s.highlight.folder, s.highlight.key);
  if (s.highlightReflection) {
    const id = s.highlightReflection;
    if (!ui.openReflections.includes(id)) ui.openReflections.push(id);
    ui.collapsed.reflections = false;
    revealReflection = id;
  }
  if (ui.editing && !s.learnings.some(l => l.id === ui.editing!.id)) ui.editing = undefined;
  save();
  render();
}

/** Show Memory aimed at an approach (or Show on a search hit): its section opened, the search cleared if it hides it, its card flashed. */
function showApproach(folder: string, key: string): void {
  const a = findApproach(folder, key);
  if (!a) return;
  flash = { folder, key, until: Date.now() + 2500, revealed: false };
  ui.collapsed[kindOf(a)] = false;
  if (!matchesAll(searchWords(ui.search), approachText(a, folderName(a.folder)))) {
    searchInput.value = '';
    ui.search = '';
    recall = undefined;
  }
}

function findApproach(folder: string, key: string): ApproachView | undefined {
  if (!snapshot) return undefined;
  for (const list of [snapshot.exhausted, snapshot.failing, snapshot.resolved]) {
    const a = list.find(x => x.folder === folder && x.key === key);
    if (a) return a;
  }
  return undefined;
}

const folderName = (uri: string) => snapshot?.folders.find(f => f.uri === uri)?.name ?? '';
const multiRoot = () => (snapshot?.folders.length ?? 0) > 1;

// ---- rows ----

const cardContext = (): LearningContext => ({
  pending,
  send,
  rerender: render,
  multiRoot: multiRoot(),
  folderName,
  ui,
  confirmDelete,
  setConfirmDelete: id => (confirmDelete = id),
  save,
  focusLater: fid => (focusAfterRender = fid),
});

/** JSON of a view, once per view object (a snapshot's views are drawn many times while it stands). */
const jsonOf = new WeakMap<object, string>();
function json(v: object): string {
  let s = jsonOf.get(v);
  if (s === undefined) jsonOf.set(v, (s = JSON.stringify(v)));
  return s;
}

const isFlash = (a: Pick<ApproachView, 'folder' | 'key'>) => !!flash && flash.folder === a.folder && flash.key === a.key && Date.now() < flash.until;

function approachRows(list: readonly ApproachView[], ctx: CardContext): Row[] {
  return list.map(a => ({ key: `a:${approachId(a)}`, version: `${json(a)}|${approachState(a, ctx, isFlash(a))}`, render: () => approachCard(a, ctx, isFlash(a)) }));
}

function similarRows(): Row[] {
  return (recall?.results ?? []).map(r => {
    const known = findApproach(r.folder, r.key);
    return {
      key: `s:${approachId(r)}`,
      version: `${json(r)}|${known ? 'known' : ''}`,
      render: () =>
        similarItem(
          r,
          known &&
            (() => {
              showApproach(r.folder, r.key);
              save();
              render();
            }),
        ),
    };
  });
}

const isOpen = (r: ReflectionView) => ui.openReflections.includes(r.id) || (snapshot?.reflections[0]?.id === r.id && !ui.openReflections.includes(`closed:${r.id}`));

function toggleReflection(r: ReflectionView, open: boolean): void {
  ui.openReflections = ui.openReflections.filter(x => x !== r.id && x !== `closed:${r.id}`);
  ui.openReflections.push(open ? r.id : `closed:${r.id}`);
  ui.openReflections = ui.openReflections.slice(-50);
  save();
}

// ---- render ----

function render(): void {
  renderBanner();
  if (!snapshot) return;
  const s = snapshot;
  const words = searchWords(ui.search);
  const matches = (texts: Array<string | undefined>) => matchesAll(words, texts);
  const nothing = !s.exhausted.length && !s.failing.length && !s.resolved.length && !s.reflections.length && !s.learnings.length && !(s.team ?? []).some(t => t.failures.length);
  renderEmpty(nothing);
  clearSearch.hidden = !ui.search;
  const ctx = cardContext();
  const own = (a: ApproachView) => matches(approachText(a, folderName(a.folder)));
  const exhausted = s.exhausted.filter(own);
  const failing = s.failing.filter(own);
  const resolved = s.resolved.filter(own);
  const reflections = s.reflections.filter(r => matches([r.label, r.reflectionText, r.rootCause, ...r.warnings, ...r.insights, ...r.lessons]));
  const learnings = s.learnings.filter(l => matches([l.text, TYPE_LABEL[l.type], l.type]));
  const searching = ui.search.trim().length >= 2;
  const teams = s.team ?? [];
  const teamFailures = teams.flatMap(t => t.failures).filter(t => matches([t.label, t.command, t.cwd, t.lastError, t.summary]));
  const allDecisions = s.decisions ?? [];
  const decisions = allDecisions.filter(d => matches([d.label, d.command, d.code, d.reason, d.via]));
  const hits = searching ? (recall?.results.length ?? 0) : 0;

  lists.begin();
  fillSection('similar', hits, hits, searching && !!recall, similarRows(), recall ? 'No similar failure in memory.' : undefined);
  fillSection('exhausted', exhausted.length, s.exhausted.length, !nothing, approachRows(exhausted, ctx), 'Nothing is exhausted.');
  fillSection('failing', failing.length, s.failing.length, !nothing, approachRows(failing, ctx), 'Nothing is failing right now.');
  const threshold = (folder: string) => s.folders.find(f => f.uri === folder)?.threshold ?? 5;
  const teamRows: Row[] = [
    ...teams.map(t => ({ key: `ts:${t.folder}`, version: json(t), render: () => teamStatus(t, multiRoot() ? folderName(t.folder) : undefined) })),
    ...teamFailures.map(t => ({ key: `tc:${approachId(t)}`, version: json(t), render: () => teamCard(t, threshold(t.folder)) })),
  ];
  fillSection('team', teamFailures.length, teams.reduce((n, t) => n + t.failures.length, 0), teams.length > 0, teamRows, 'Nothing is failing in the team.');
  const decisionRows = decisions.map((d, i) => ({ key: `d:${d.folder}\u0000${d.at}\u0000${i}`, version: json(d), render: () => decisionItem(d, multiRoot() ? folderName(d.folder) : undefined) }));
  fillSection('decisions', decisions.length, allDecisions.length, allDecisions.length > 0, decisionRows);
  fillSection('resolved', resolved.length, s.resolved.length, !nothing, approachRows(resolved, ctx), 'No approach was resolved recently.');
  const reflectionRows = reflections.map(r => ({ key: `r:${r.id}`, version: `${json(r)}|${isOpen(r)}`, render: () => reflectionItem(r, isOpen(r), open => toggleReflection(r, open)) }));
  fillSection('reflections', reflections.length, s.reflections.length, !nothing, reflectionRows, 'No reflection yet: use Reflect on an approach.');
  const learningRows = learnings.map(l => ({ key: `l:${approachId({ folder: l.folder, key: l.id })}`, version: `${json(l)}|${learningState(l, ctx)}`, render: () => learningItem(l, ctx) }));
  fillSection('learnings', learnings.length, s.learnings.length, true, learningRows, 'No learning yet. Add what you or your agent should remember.');
  lists.end();

  renderFolders();
  addButton.disabled = !s.folders.length;
  learningText.disabled = !s.folders.length;
  renderCapture();
  afterRender();
}

/** What a render leaves to do once the rows are drawn: a focus asked for, a card to show, a reflection to reveal. */
function afterRender(): void {
  if (focusAfterRender !== undefined) {
    const fid = focusAfterRender;
    focusAfterRender = undefined;
    byFid(app, fid)?.focus();
  }
  if (flash && !flash.revealed) {
    const a = findApproach(flash.folder, flash.key);
    const list = a && parts[kindOf(a)].list;
    const key = a && `a:${approachId(a)}`;
    if (list && key && list.indexOf(key) >= 0) {
      flash.revealed = true;
      list.reveal(key, 'center');
      list.focusKey(key, undefined, { scroll: false });
      const f = flash;
      if (flashTimer) clearTimeout(flashTimer);
      flashTimer = setTimeout(() => {
        if (flash === f) {
          flash = undefined;
          render();
        }
      }, Math.max(0, f.until - Date.now()));
    }
  }
  if (revealReflection) {
    parts.reflections.list.reveal(`r:${revealReflection}`);
    revealReflection = undefined;
  }
}

function fillSection(id: SectionId, shown: number, total: number, visible: boolean, rows: Row[], emptyText?: string): void {
  const p = parts[id];
  p.root.hidden = !visible;
  const collapsed = !!ui.collapsed[id];
  p.root.classList.toggle('collapsed', collapsed);
  p.toggle.setAttribute('aria-expanded', String(!collapsed));
  p.count.textContent = shown === total ? String(total) : `${shown} of ${total}`;
  p.count.classList.toggle('count-zero', total === 0);
  lists.set(id, rows);
  const none = !rows.length && emptyText !== undefined;
  p.none.hidden = !none;
  if (none) p.none.textContent = total && searchWords(ui.search).length ? 'Nothing here matches the search.' : emptyText;
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
  const bits = [c.terminal ? (c.terminals ? `terminal ${c.terminalsWithIntegration}/${c.terminals} with shell integration` : 'terminal') : 'terminal off', c.tasks ? 'tasks' : 'tasks off'];
  footerEl.replaceChildren(icon(cap.ok ? 'record' : 'warning', cap.ok ? 'capture-on' : 'capture-warn'), h('span', { text: `Capturing: ${bits.join(' · ')}`, title: cap.text }));
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
