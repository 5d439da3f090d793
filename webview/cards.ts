// The panel's rows that carry actions: an approach's card and a learning (shown, being edited, or
// asking to confirm its deletion). main.ts owns the state; what a row needs of it comes in a
// CardContext, so a row is drawn from its data alone and drawn again only when that changes.

import { LEARNING_TYPES, type ApproachView, type LearningTypeView, type LearningView, type WebviewMessage } from '../src/shared/protocol';
import { ago, fullTime, h, icon, plural } from './dom';
import { TYPE_LABEL, type UiState } from './state';
import { approachDetails, learningTools } from './views';

export interface CardContext {
  /** Actions sent and not yet answered (`${type}:${id}`): their buttons wait. */
  pending: ReadonlySet<string>;
  send(message: WebviewMessage, pendingId?: string): void;
  /** Draws the panel again (a button went pending). */
  rerender(): void;
  multiRoot: boolean;
  folderName(uri: string): string;
}

export type ApproachKind = 'exhausted' | 'failing' | 'resolved';

export function kindOf(a: ApproachView): ApproachKind {
  return a.status === 'exhausted' ? 'exhausted' : a.status === 'resolved' ? 'resolved' : 'failing';
}

/** The id an approach's buttons are pending under, and its row's key. */
export const approachId = (a: Pick<ApproachView, 'folder' | 'key'>) => `${a.folder}\u0000${a.key}`;

const ACTIONS = ['resolve', 'reflect', 'runAnywayOnce', 'copyBrief', 'copyCommand'] as const;

/** What an approach card shows besides its data: which of its buttons wait, whether it flashes. */
export function approachState(a: ApproachView, ctx: CardContext, flash: boolean): string {
  const id = approachId(a);
  return `${ACTIONS.filter(t => ctx.pending.has(`${t}:${id}`)).join(',')}|${flash ? 'flash' : ''}|${ctx.multiRoot ? ctx.folderName(a.folder) : ''}|${ago(a.status === 'resolved' ? a.resolvedAt : a.lastFailure)}`;
}

function actionButton(ctx: CardContext, label: string, iconName: string, message: WebviewMessage & { folder: string }, opts: { primary?: boolean; iconOnly?: boolean; id: string }): HTMLButtonElement {
  const pendingId = `${message.type}:${opts.id}`;
  const waiting = ctx.pending.has(pendingId);
  const b = h(
    'button',
    {
      class: `button ${opts.primary ? 'primary' : 'secondary'}${opts.iconOnly ? ' icon-only' : ''}`,
      title: label,
      // aria-disabled, not disabled: a waiting button keeps the keyboard focus it had
      attrs: { type: 'button', 'data-action': message.type, 'data-fid': pendingId, 'aria-label': label, 'aria-disabled': waiting ? 'true' : undefined },
    },
    icon(waiting ? 'loading' : iconName, waiting ? 'codicon-modifier-spin' : ''),
    opts.iconOnly ? null : h('span', { text: label }),
  );
  b.addEventListener('click', () => {
    if (ctx.pending.has(pendingId)) return;
    ctx.send(message, pendingId);
    ctx.rerender();
  });
  return b;
}

/** An approach's card: its label, counts, command, what went wrong, its history and its actions. */
export function approachCard(a: ApproachView, ctx: CardContext, flash: boolean): HTMLElement {
  const kind = kindOf(a);
  const id = approachId(a);
  const target = { folder: a.folder, key: a.key };
  const card = h('article', {
    class: `card card-${kind}${flash ? ' flash' : ''}`,
    attrs: { 'data-key': a.key, 'data-folder': a.folder, 'data-status': a.status, 'data-fid': `card:${id}`, 'aria-label': `${a.label}: ${kind}` },
  });
  const statusIcon = kind === 'exhausted' ? 'error' : kind === 'resolved' ? 'pass' : 'history';
  const badge =
    kind === 'resolved'
      ? h('span', { class: 'pill pill-resolved', text: a.resolvedBy === 'success' ? 'passed' : 'by hand' })
      : h('span', { class: `pill pill-${kind}`, text: a.badge, title: a.badgeLabel, attrs: { 'aria-label': a.badgeLabel } });
  card.append(h('div', { class: 'card-head' }, icon(statusIcon, 'status-icon'), h('span', { class: 'card-title', text: a.label, title: a.label }), badge));

  const meta: string[] = [];
  if (ctx.multiRoot) meta.push(ctx.folderName(a.folder));
  if (a.cwd !== '.') meta.push(a.cwd);
  if (kind === 'resolved') meta.push(`resolved ${ago(a.resolvedAt)}${a.resolvedBy === 'success' ? ' (a run succeeded)' : ''}`);
  else meta.push(`${a.summary || plural(a.failures, 'failure')} · last failed ${ago(a.lastFailure)}`);
  card.append(h('div', { class: 'meta', text: meta.join(' · '), title: fullTime(kind === 'resolved' ? a.resolvedAt : a.lastFailure) }));
  card.append(h('code', { class: 'command', text: a.command, title: a.command }));
  if (kind !== 'resolved') card.append(...approachDetails(a, kind));
  // run history, what changed since the last pass, what fixed it, flakiness (from the run ledger)
  for (const line of a.history ?? []) card.append(h('div', { class: 'note history', attrs: { 'data-role': 'history' } }, icon('git-commit'), h('span', { text: line })));

  const actions = h('div', { class: 'actions' });
  const button = (label: string, iconName: string, type: (typeof ACTIONS)[number], opts: { primary?: boolean; iconOnly?: boolean } = {}) =>
    actionButton(ctx, label, iconName, { type, ...target }, { ...opts, id });
  if (kind === 'exhausted') {
    actions.append(button('Mark Resolved', 'pass', 'resolve', { primary: true }), button('Reflect', 'lightbulb', 'reflect'), button('Run Anyway Once', 'debug-continue', 'runAnywayOnce'));
  } else if (kind === 'failing') {
    actions.append(button('Reflect', 'lightbulb', 'reflect'), button('Mark Resolved', 'pass', 'resolve'));
  }
  if (kind !== 'resolved') actions.append(button('Copy as Prompt', 'comment-discussion', 'copyBrief', { iconOnly: true }));
  actions.append(button('Copy command', 'copy', 'copyCommand', { iconOnly: true }));
  card.append(actions);
  return card;
}

/** What a learning row needs of the panel's state (its edit, the delete being confirmed). */
export interface LearningContext extends CardContext {
  ui: UiState;
  confirmDelete: string | undefined;
  setConfirmDelete(id: string | undefined): void;
  save(): void;
  /** Focuses the element with this data-fid once the learning is drawn again. */
  focusLater(fid: string): void;
}

/** What a learning row shows besides its data. */
export function learningState(l: LearningView, ctx: LearningContext): string {
  const editing = ctx.ui.editing && ctx.ui.editing.id === l.id && ctx.ui.editing.folder === l.folder;
  return `${editing ? 'edit' : ''}|${ctx.confirmDelete === l.id ? 'confirm' : ''}|${ctx.multiRoot ? ctx.folderName(l.folder) : ''}|${ago(l.updatedAt ?? l.createdAt)}`;
}

/** The learning being edited in place: its kind, its text, Save (Ctrl+Enter) and Cancel (Escape). */
function learningEditor(item: HTMLElement, l: LearningView, editing: NonNullable<UiState['editing']>, ctx: LearningContext): HTMLElement {
  const type = h('select', { class: 'select', attrs: { 'aria-label': 'Kind of learning', 'data-fid': `edit-type:${l.id}` } });
  for (const t of LEARNING_TYPES) type.append(h('option', { text: TYPE_LABEL[t], attrs: { value: t } }));
  type.value = editing.type;
  type.addEventListener('change', () => {
    editing.type = type.value as LearningTypeView;
    ctx.save();
  });
  const text = h('textarea', { class: 'textarea', attrs: { rows: 3, maxlength: 2000, 'aria-label': 'Learning text', 'data-fid': `edit-text:${l.id}` } });
  text.value = editing.text;
  text.addEventListener('input', () => {
    editing.text = text.value;
    ctx.save();
  });
  const done = () => {
    ctx.ui.editing = undefined;
    ctx.save();
    ctx.focusLater(`edit:${l.id}`);
    ctx.rerender();
  };
  const saveEdit = () => {
    if (!editing.text.trim()) return text.focus();
    ctx.send({ type: 'updateLearning', folder: l.folder, id: l.id, learningType: editing.type, text: editing.text });
    done();
  };
  text.addEventListener('keydown', e => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      saveEdit();
    } else if (e.key === 'Escape') done();
  });
  item.append(
    type,
    text,
    h(
      'div',
      { class: 'form-row form-actions' },
      h('button', { class: 'button primary', attrs: { type: 'button', 'data-action': 'saveLearning', 'data-fid': `edit-save:${l.id}` }, on: { click: saveEdit } }, icon('check'), h('span', { text: 'Save' })),
      h('button', { class: 'button secondary', attrs: { type: 'button', 'data-fid': `edit-cancel:${l.id}` }, on: { click: done } }, h('span', { text: 'Cancel' })),
    ),
  );
  return item;
}

export function learningItem(l: LearningView, ctx: LearningContext): HTMLElement {
  const item = h('div', { class: `learning learning-${l.type}`, attrs: { 'data-learning': l.id, 'data-fid': `learning:${l.id}` } });
  const editing = ctx.ui.editing && ctx.ui.editing.id === l.id && ctx.ui.editing.folder === l.folder ? ctx.ui.editing : undefined;
  if (editing) return learningEditor(item, l, editing, ctx);
  const tools = learningTools(l, ctx.confirmDelete === l.id, {
    edit: () => {
      ctx.ui.editing = { folder: l.folder, id: l.id, type: l.type, text: l.text };
      ctx.save();
      ctx.focusLater(`edit-text:${l.id}`);
      ctx.rerender();
    },
    askDelete: () => {
      ctx.setConfirmDelete(l.id);
      ctx.focusLater(`delete-confirm:${l.id}`);
      ctx.rerender();
    },
    delete: () => {
      ctx.setConfirmDelete(undefined);
      ctx.send({ type: 'deleteLearning', folder: l.folder, id: l.id });
    },
    keep: () => {
      ctx.setConfirmDelete(undefined);
      ctx.focusLater(`delete:${l.id}`);
      ctx.rerender();
    },
  });
  const meta = [l.source === 'user' ? 'added by you' : `from ${l.source}`, ago(l.updatedAt ?? l.createdAt)];
  if (ctx.multiRoot) meta.unshift(ctx.folderName(l.folder));
  item.append(
    h('div', { class: 'learning-head' }, h('span', { class: `type type-${l.type}`, text: TYPE_LABEL[l.type] }), h('span', { class: 'meta-inline', text: meta.join(' · '), title: fullTime(l.updatedAt ?? l.createdAt) }), tools),
    h('div', { class: 'learning-text', text: l.text }),
  );
  return item;
}
