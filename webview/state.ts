// The panel's own UI state (search, collapsed sections, open reflections, drafts): restored from
// getState() defensively (an older version may have saved another shape).

import { isSnapshot, LEARNING_TYPES, type ApproachView, type LearningTypeView, type Snapshot } from '../src/shared/protocol';

export type SectionId = 'similar' | 'exhausted' | 'failing' | 'team' | 'decisions' | 'resolved' | 'reflections' | 'learnings';
export const SECTIONS: Array<{ id: SectionId; title: string }> = [
  { id: 'similar', title: 'Similar failures' },
  { id: 'exhausted', title: 'Exhausted' },
  { id: 'failing', title: 'Failing' },
  { id: 'team', title: 'Failing in the team' },
  { id: 'decisions', title: 'Gate decisions' },
  { id: 'resolved', title: 'Resolved recently' },
  { id: 'reflections', title: 'Reflections' },
  { id: 'learnings', title: 'Learnings' },
];

export interface UiState {
  search: string;
  collapsed: Partial<Record<SectionId, boolean>>;
  openReflections: string[];
  draft: { type: LearningTypeView; text: string; folder: string };
  editing?: { folder: string; id: string; type: LearningTypeView; text: string };
  /** Where the panel was scrolled to. */
  scrollY: number;
}

/**
 * Most items of a list kept with the UI state (the host's fresh snapshot follows at once): the state
 * is saved on every keystroke of the search, so it stays small whatever the memory holds.
 */
const KEPT = { exhausted: 50, failing: 50, resolved: 20, reflections: 10, learnings: 100 } as const;

/**
 * The snapshot kept with the UI state, so that a panel opened again shows content before the host
 * answers: bounded (the state is saved on every change), without one-time highlights.
 */
export function snapshotToKeep(s: Snapshot): Snapshot {
  const { highlight: _h, highlightReflection: _r, ...rest } = s;
  return {
    ...rest,
    exhausted: s.exhausted.slice(0, KEPT.exhausted),
    failing: s.failing.slice(0, KEPT.failing),
    resolved: s.resolved.slice(0, KEPT.resolved),
    reflections: s.reflections.slice(0, KEPT.reflections),
    learnings: s.learnings.slice(0, KEPT.learnings),
  };
}

/** The snapshot saved with the state, when it is one (an older version saved none; anything else is dropped). */
export function restoreSnapshot(v: unknown): Snapshot | undefined {
  const kept = typeof v === 'object' && v !== null ? (v as { snapshot?: unknown }).snapshot : undefined;
  return isSnapshot(kept) ? kept : undefined;
}

export const TYPE_LABEL: Record<LearningTypeView, string> = {
  decision: 'Decision',
  learning: 'Learning',
  failed_approach: 'Failed approach',
  code_location: 'Code location',
  pattern: 'Pattern',
};

export function restoreState(v: unknown): UiState {
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
    scrollY: typeof s.scrollY === 'number' && Number.isFinite(s.scrollY) && s.scrollY > 0 ? Math.min(s.scrollY, 1e6) : 0,
  };
}

/** The words of a search, lower-cased. */
export function searchWords(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Every word appears somewhere in the texts (no words: everything matches). */
export function matchesAll(words: readonly string[], texts: Array<string | undefined>): boolean {
  if (!words.length) return true;
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  return words.every(x => hay.includes(x));
}

/**
 * What a search matches in an approach: its own words (label, command, folder, error, history), not
 * the other approaches it lists as also tried — or a search for one approach would list every
 * approach that names it among its alternatives.
 */
export function approachText(a: ApproachView, folderName: string): Array<string | undefined> {
  return [a.label, a.command, a.cwd, a.lastError, a.lastErrorSignature, ...(a.history ?? []), folderName];
}
