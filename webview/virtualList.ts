// A list that draws only the rows on screen (and a screenful around them): a memory of 500
// approaches is 500 cards, of which a sidebar shows five. Rows are placed absolutely at offsets
// summed from their measured heights (an estimate until a row has been drawn once); the list's
// own height holds the place of the rows not drawn, so the page scrolls as if all were there.
// Offsets, heights and the list's height are set through the CSSOM (element.style), which the
// webview's CSP allows: it forbids style attributes in markup, not style set by our own script.
//
// Keyboard: the list is one tab stop. Its active row is the one Tab reaches (with its buttons);
// the other rows and their buttons are out of the tab order (roving tabindex). Up and Down, Home
// and End, Page Up and Page Down move between rows, drawing and scrolling to the one focused.
// A row redrawn because its data changed keeps the focus of the element it held (by data-fid).

export interface Row {
  key: string;
  /** Changes whenever the row must be drawn again (its data, a pending action, the time it shows). */
  version: string;
  render(): HTMLElement;
}

export interface VirtualListOptions {
  /** Height assumed for a row never drawn (px), until rows of this list have been measured. */
  estimate: number;
  /** Space between rows (px). */
  gap: number;
  /** Height of what covers the top of the window (the sticky search bar), kept clear when scrolling to a row. */
  topInset: () => number;
  /** Pixels drawn above and below the window. */
  overscan?: number;
}

interface Drawn {
  el: HTMLElement;
  version: string;
}

/** Where the focus was in a row that left the list (its key, its place, the element by data-fid). */
export interface LostFocus {
  key: string;
  index: number;
  fid?: string;
}

const FOCUSABLE = 'button, a[href], input, textarea, select, summary, [tabindex]';
const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** The element of `root` (itself included) whose data-fid is `fid` (no selector: fids may hold any character). */
export function byFid(root: HTMLElement, fid: string): HTMLElement | undefined {
  if (root.dataset.fid === fid) return root;
  for (const el of root.querySelectorAll<HTMLElement>('[data-fid]')) if (el.dataset.fid === fid) return el;
  return undefined;
}

export class VirtualList {
  private rows: Row[] = [];
  private readonly position = new Map<string, number>();
  private readonly heights = new Map<string, number>();
  private readonly drawn = new Map<string, Drawn>();
  private tops: number[] = [0];
  private active: string | undefined;
  private width = 0;
  private readonly resize: ResizeObserver;

  constructor(
    readonly root: HTMLElement,
    private readonly o: VirtualListOptions,
  ) {
    root.classList.add('vlist');
    root.setAttribute('role', 'list');
    root.addEventListener('keydown', e => this.onKey(e));
    root.addEventListener('focusin', e => {
      const row = rowOf(e.target);
      if (row && row.dataset.vkey !== undefined && row.dataset.vkey !== this.active) this.setActive(row.dataset.vkey);
    });
    // a row that grows or shrinks (a reflection opened, an editor, a spinner) moves the rows after it
    this.resize = new ResizeObserver(entries => {
      let changed = false;
      for (const e of entries) {
        const el = e.target as HTMLElement;
        if (el === this.root) {
          if (Math.round(e.contentRect.width) !== this.width) {
            this.width = Math.round(e.contentRect.width);
            changed = true; // another width wraps text elsewhere: every drawn row is measured again below
          }
          continue;
        }
        if (el.isConnected && el.dataset.vkey !== undefined && this.measure(el.dataset.vkey, el)) changed = true;
      }
      if (changed) this.layout();
    });
    this.resize.observe(root);
  }

  get length(): number {
    return this.rows.length;
  }

  keys(): string[] {
    return this.rows.map(r => r.key);
  }

  indexOf(key: string): number {
    return this.position.get(key) ?? -1;
  }

  /** The drawn element of a row, if it is drawn. */
  element(key: string): HTMLElement | undefined {
    return this.drawn.get(key)?.el;
  }

  /**
   * Replaces the rows. Rows whose version did not change keep their element; a changed row is drawn
   * again and keeps the focus it held. Returns where the focus was when its row left the list.
   */
  setRows(rows: Row[]): LostFocus | undefined {
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    let lost: LostFocus | undefined;
    let refocus: { key: string; fid?: string } | undefined;
    const before = new Map(this.rows.map((r, i) => [r.key, i]));
    this.rows = rows;
    this.position.clear();
    rows.forEach((r, i) => this.position.set(r.key, i));
    for (const [key, d] of [...this.drawn]) {
      const i = this.position.get(key);
      const holdsFocus = !!focused && d.el.contains(focused);
      if (i !== undefined && rows[i].version === d.version) continue;
      const fid = holdsFocus ? (focused!.dataset.fid ?? (focused === d.el ? undefined : closestFid(focused!, d.el))) : undefined;
      if (holdsFocus && i !== undefined) refocus = { key, fid };
      else if (holdsFocus) lost = { key, index: before.get(key) ?? 0, fid };
      this.undraw(key);
      if (i === undefined) this.heights.delete(key);
    }
    if (this.active !== undefined && !this.position.has(this.active)) this.active = undefined;
    this.layout();
    if (refocus) this.focusKey(refocus.key, refocus.fid, { scroll: false });
    return lost;
  }

  /** Lays the rows out again from their heights and draws the ones on screen. */
  layout(): void {
    const est = this.estimate();
    const tops = new Array<number>(this.rows.length + 1);
    let y = 0;
    for (let i = 0; i < this.rows.length; i++) {
      tops[i] = y;
      y += (this.heights.get(this.rows[i].key) ?? est) + this.o.gap;
    }
    tops[this.rows.length] = y;
    this.tops = tops;
    this.root.style.height = `${Math.max(0, y - this.o.gap)}px`;
    this.draw();
  }

  /** Draws the rows on screen (and the overscan around them), drops the others. Call on scroll. */
  draw(): void {
    for (let pass = 0; pass < 4; pass++) {
      const { from, to } = this.visibleRange();
      const wanted = new Set<string>();
      for (let i = from; i <= to; i++) wanted.add(this.rows[i].key);
      const focused = document.activeElement;
      for (const [key, d] of [...this.drawn]) {
        // the focused row stays, wherever it is scrolled to: the focus never falls to the page
        if (!wanted.has(key) && !(focused && d.el.contains(focused))) this.undraw(key);
      }
      let remeasured = false;
      for (let i = from; i <= to; i++) {
        const row = this.rows[i];
        let d = this.drawn.get(row.key);
        if (!d) {
          d = { el: this.build(row), version: row.version };
          this.drawn.set(row.key, d);
          this.root.append(d.el);
          this.resize.observe(d.el);
        }
        this.place(d.el, i);
        if (!this.heights.has(row.key) && this.measure(row.key, d.el)) remeasured = true;
      }
      for (const [key, d] of this.drawn) {
        const i = this.position.get(key);
        if (i !== undefined && (i < from || i > to)) this.place(d.el, i);
      }
      if (!remeasured) return;
      this.relayoutTops();
    }
  }

  /** Focuses a row (and the element of it with data-fid `fid`), drawing it and scrolling it into view. */
  focusKey(key: string, fid?: string, o: { scroll?: boolean } = {}): boolean {
    const i = this.position.get(key);
    if (i === undefined) return false;
    this.setActive(key);
    if (o.scroll !== false) this.scrollToIndex(i);
    this.draw();
    const el = this.drawn.get(key)?.el;
    if (!el) return false;
    const target = (fid !== undefined && byFid(el, fid)) || el;
    target.focus({ preventScroll: true });
    if (document.activeElement !== target) el.focus({ preventScroll: true });
    return el.contains(document.activeElement);
  }

  /** Focuses the row Tab reaches in this list (the first until another was focused). */
  focusActive(): boolean {
    const key = this.active !== undefined && this.position.has(this.active) ? this.active : this.rows[0]?.key;
    return key !== undefined && this.focusKey(key);
  }

  /** Focuses the row at `index` (clamped); false when the list is empty. */
  focusIndex(index: number): boolean {
    if (!this.rows.length) return false;
    return this.focusKey(this.rows[Math.max(0, Math.min(this.rows.length - 1, index))].key);
  }

  /** Scrolls so that the row is on screen (below the sticky bar), drawing it. */
  reveal(key: string, block: 'nearest' | 'center' = 'nearest'): HTMLElement | undefined {
    const i = this.position.get(key);
    if (i === undefined) return undefined;
    this.scrollToIndex(i, block);
    this.draw();
    return this.drawn.get(key)?.el;
  }

  // ---- inside ----

  private estimate(): number {
    if (!this.heights.size) return this.o.estimate;
    let sum = 0;
    for (const h of this.heights.values()) sum += h;
    return sum / this.heights.size;
  }

  /** Remembers a drawn row's height; true when it changed. */
  private measure(key: string, el: HTMLElement): boolean {
    const h = Math.ceil(el.getBoundingClientRect().height);
    if (h === 0 && !el.isConnected) return false;
    if (this.heights.get(key) === h) return false;
    this.heights.set(key, h);
    return true;
  }

  /** Offsets summed again after rows were measured, keeping the first row on screen where it was. */
  private relayoutTops(): void {
    const anchor = this.firstOnScreen();
    const before = anchor ? this.drawn.get(anchor)?.el.getBoundingClientRect().top : undefined;
    const est = this.estimate();
    let y = 0;
    for (let i = 0; i < this.rows.length; i++) {
      this.tops[i] = y;
      y += (this.heights.get(this.rows[i].key) ?? est) + this.o.gap;
    }
    this.tops[this.rows.length] = y;
    this.root.style.height = `${Math.max(0, y - this.o.gap)}px`;
    for (const [key, d] of this.drawn) {
      const i = this.position.get(key);
      if (i !== undefined) this.place(d.el, i);
    }
    if (anchor && before !== undefined) {
      const after = this.drawn.get(anchor)?.el.getBoundingClientRect().top;
      if (after !== undefined && Math.abs(after - before) >= 1) window.scrollBy(0, after - before);
    }
  }

  private firstOnScreen(): string | undefined {
    const top = this.o.topInset();
    let best: { key: string; y: number } | undefined;
    for (const [key, d] of this.drawn) {
      const r = d.el.getBoundingClientRect();
      if (r.bottom > top && (!best || r.top < best.y)) best = { key, y: r.top };
    }
    return best?.key;
  }

  /** Indices of the rows within the window plus the overscan (an empty range when none). */
  private visibleRange(): { from: number; to: number } {
    const n = this.rows.length;
    if (!n || !this.root.isConnected || this.root.offsetParent === null) return { from: 0, to: -1 };
    const over = this.o.overscan ?? window.innerHeight;
    const top = -this.root.getBoundingClientRect().top - over;
    const bottom = top + window.innerHeight + 2 * over;
    const from = Math.max(0, this.search(top) - 1);
    let to = from;
    while (to < n - 1 && this.tops[to + 1] < bottom) to++;
    return this.tops[from] > bottom || this.tops[n] < top ? { from: 0, to: -1 } : { from, to };
  }

  /** The first row whose bottom is below `y` (binary search over the offsets). */
  private search(y: number): number {
    let lo = 0;
    let hi = this.rows.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tops[mid + 1] <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private scrollToIndex(i: number, block: 'nearest' | 'center' = 'nearest'): void {
    const rootTop = this.root.getBoundingClientRect().top + window.scrollY;
    const top = rootTop + this.tops[i];
    const height = this.tops[i + 1] - this.tops[i] - this.o.gap;
    const inset = this.o.topInset();
    const viewTop = window.scrollY + inset;
    const viewBottom = window.scrollY + window.innerHeight;
    if (block === 'center') window.scrollTo(0, Math.max(0, top - inset - (window.innerHeight - inset - height) / 2));
    else if (top < viewTop) window.scrollTo(0, Math.max(0, top - inset - 4));
    else if (top + height > viewBottom) window.scrollTo(0, top + height - window.innerHeight + 4);
  }

  private build(row: Row): HTMLElement {
    const el = row.render();
    el.dataset.vkey = row.key;
    el.classList.add('vrow');
    if (!el.hasAttribute('role')) el.setAttribute('role', 'listitem');
    return el;
  }

  private place(el: HTMLElement, i: number): void {
    el.style.transform = `translateY(${this.tops[i]}px)`;
    el.setAttribute('aria-setsize', String(this.rows.length));
    el.setAttribute('aria-posinset', String(i + 1));
    this.tabStops(el, this.rows[i].key === (this.active ?? this.rows[0]?.key));
  }

  private undraw(key: string): void {
    const d = this.drawn.get(key);
    if (!d) return;
    this.resize.unobserve(d.el);
    d.el.remove();
    this.drawn.delete(key);
  }

  private setActive(key: string): void {
    this.active = key;
    for (const [k, d] of this.drawn) this.tabStops(d.el, k === key);
  }

  /** The active row and its controls are in the tab order; every other row's are not. */
  private tabStops(el: HTMLElement, active: boolean): void {
    el.tabIndex = active ? 0 : -1;
    for (const c of el.querySelectorAll<HTMLElement>(FOCUSABLE)) {
      if (active && c.dataset.vtab === 'off') {
        c.removeAttribute('tabindex');
        delete c.dataset.vtab;
      } else if (!active && !c.hasAttribute('tabindex')) {
        c.tabIndex = -1;
        c.dataset.vtab = 'off';
      }
    }
  }

  private onKey(e: KeyboardEvent): void {
    const row = rowOf(e.target);
    if (!row || row.dataset.vkey === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    if (TYPING.has((e.target as HTMLElement).tagName)) return;
    const i = this.indexOf(row.dataset.vkey);
    const page = Math.max(1, Math.floor((window.innerHeight - this.o.topInset()) / (this.estimate() + this.o.gap)));
    const to: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: this.rows.length - 1, PageDown: i + page, PageUp: i - page };
    if (!(e.key in to)) return;
    if ((e.key === 'ArrowDown' && i === this.rows.length - 1) || (e.key === 'ArrowUp' && i === 0)) return; // the panel decides (next list, the search box)
    e.preventDefault();
    e.stopPropagation();
    this.focusIndex(to[e.key]);
  }
}

function rowOf(target: EventTarget | null): HTMLElement | undefined {
  return target instanceof Element ? ((target.closest('[data-vkey]') as HTMLElement | null) ?? undefined) : undefined;
}

/** The data-fid of the nearest element around `el` inside `row` (a focused child without one of its own). */
function closestFid(el: HTMLElement, row: HTMLElement): string | undefined {
  for (let x: HTMLElement | null = el; x && x !== row; x = x.parentElement) if (x.dataset.fid !== undefined) return x.dataset.fid;
  return undefined;
}
