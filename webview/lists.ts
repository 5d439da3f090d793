// The panel's lists together: one VirtualList per section, drawn again as the page scrolls, and
// what must hold across them when the memory changes underneath (another window, the CLI, an
// agent): the keyboard focus stays on its row (or the row that took its place), and the row at the
// top of the screen stays where it was. Up and Down go on from one list to the next.

import { SECTIONS, type SectionId } from './state';
import { VirtualList, type LostFocus, type Row } from './virtualList';

export interface ListParts {
  root: HTMLElement;
  toggle: HTMLButtonElement;
  list: VirtualList;
  none: HTMLElement;
}

interface Anchor {
  section: SectionId;
  key: string;
  top: number;
  focused: boolean;
}

/** A row element's key and the section whose list holds it. */
function rowInfo(el: Element | null): { key: string; section: SectionId } | undefined {
  const row = el?.closest<HTMLElement>('[data-vkey]');
  const section = row?.closest<HTMLElement>('[data-section]')?.dataset.section as SectionId | undefined;
  return row && section && row.dataset.vkey !== undefined ? { key: row.dataset.vkey, section } : undefined;
}

export class PanelLists {
  private lost: Array<{ section: SectionId; lost: LostFocus }> = [];
  private anchor: Anchor | undefined;
  private frame = 0;

  constructor(
    readonly parts: Record<SectionId, ListParts>,
    private readonly topInset: () => number,
    private readonly search: HTMLElement,
  ) {
    const redraw = () => {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        for (const { id } of SECTIONS) this.parts[id].list.draw();
      });
    };
    window.addEventListener('scroll', redraw, { passive: true });
    window.addEventListener('resize', redraw);
    document.addEventListener('keydown', e => this.onKey(e));
  }

  /** Before the lists change: the row to keep in place (the focused one, else the first on screen). */
  begin(): void {
    this.lost = [];
    this.anchor = undefined;
    const focused = rowInfo(document.activeElement);
    const inset = this.topInset();
    const onScreen = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.bottom > inset && r.top < window.innerHeight;
    };
    if (focused) {
      const el = this.parts[focused.section].list.element(focused.key);
      if (el && onScreen(el)) this.anchor = { ...focused, top: el.getBoundingClientRect().top, focused: true };
    }
    // at the very top the page shows what is new (nothing is held in place)
    if (this.anchor || window.scrollY === 0) return;
    let best: Anchor | undefined;
    for (const { id } of SECTIONS) {
      const p = this.parts[id];
      if (p.root.hidden) continue;
      for (const key of p.list.keys()) {
        const el = p.list.element(key);
        if (!el || !onScreen(el)) continue;
        const top = el.getBoundingClientRect().top;
        if (!best || top < best.top) best = { section: id, key, top, focused: false };
      }
    }
    this.anchor = best;
  }

  /** One list's new rows; a focused row that left it is remembered for end(). */
  set(section: SectionId, rows: Row[]): void {
    const lost = this.parts[section].list.setRows(rows);
    if (lost) this.lost.push({ section, lost });
  }

  /** After the lists changed: the focus found again, the anchored row put back where it was. */
  end(): void {
    const focusLost = !document.activeElement || document.activeElement === document.body;
    if (focusLost) for (const { section, lost } of this.lost) if (this.refocus(section, lost)) break;
    const a = this.anchor;
    if (!a) return;
    const info = a.focused ? rowInfo(document.activeElement) : { key: a.key, section: a.section };
    if (!info) return;
    const el = this.parts[info.section].list.element(info.key);
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    if (Math.abs(top - a.top) >= 1) window.scrollBy(0, top - a.top);
    for (const { id } of SECTIONS) this.parts[id].list.draw();
  }

  /** Focus for a row that left its list: the same row in another list, else the row now in its place, else its section. */
  private refocus(section: SectionId, lost: LostFocus): boolean {
    for (const { id } of SECTIONS) {
      const p = this.parts[id];
      if (!p.root.hidden && p.list.indexOf(lost.key) >= 0 && p.list.focusKey(lost.key, lost.fid)) return true;
    }
    const p = this.parts[section];
    if (!p.root.hidden && p.list.length && p.list.focusIndex(Math.min(lost.index, p.list.length - 1))) return true;
    if (!p.root.hidden) {
      p.toggle.focus();
      return true;
    }
    this.search.focus();
    return true;
  }

  /** Sections whose list is open and has rows, in panel order. */
  private open(): SectionId[] {
    return SECTIONS.map(s => s.id).filter(id => {
      const p = this.parts[id];
      return !p.root.hidden && !p.root.classList.contains('collapsed') && p.list.length > 0;
    });
  }

  /** Focuses the first open list's active row (from the search box). */
  focusFirst(): boolean {
    const first = this.open()[0];
    return first !== undefined && this.parts[first].list.focusActive();
  }

  /** Up from the first row of a list, Down from its last: the neighbouring list (or the search box). */
  private onKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    if (e.target === this.search) {
      if (e.key === 'ArrowDown' && this.focusFirst()) e.preventDefault();
      return;
    }
    const info = rowInfo(e.target as Element);
    if (!info || (e.target as HTMLElement).matches('input, textarea, select')) return;
    const open = this.open();
    const at = open.indexOf(info.section);
    if (at < 0) return;
    const list = this.parts[info.section].list;
    const i = list.indexOf(info.key);
    if (e.key === 'ArrowDown' && i === list.length - 1 && at + 1 < open.length) {
      e.preventDefault();
      this.parts[open[at + 1]].list.focusIndex(0);
    } else if (e.key === 'ArrowUp' && i === 0) {
      e.preventDefault();
      if (at > 0) this.parts[open[at - 1]].list.focusIndex(this.parts[open[at - 1]].list.length - 1);
      else this.search.focus();
    }
  }
}
