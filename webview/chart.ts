// The failing approach's two small graphics: a segmented meter of failures toward the threshold,
// and a sparkline of tests passed per attempt (improving or regressing at a glance).
// Geometry goes into SVG attributes and CSS classes: the CSP allows no inline styles.

import type { ProgressView, TestPoint } from '../src/shared/protocol';
import { h, icon, svg } from './dom';

const MAX_SEGMENTS = 20;

export function meter(failures: number, threshold: number, exhausted: boolean): HTMLElement {
  const t = Math.max(1, threshold);
  const segments = Math.min(t, MAX_SEGMENTS);
  const filled = Math.min(segments, Math.round((Math.min(failures, t) / t) * segments));
  const track = h('div', { class: 'meter-track' });
  for (let i = 0; i < segments; i++) track.append(h('span', { class: i < filled ? 'seg on' : 'seg' }));
  const label = exhausted ? `${failures} failures — exhausted (threshold ${t})` : `${failures} of ${t} failures before it is exhausted`;
  return h(
    'div',
    {
      class: `meter${exhausted ? ' meter-exhausted' : ''}`,
      attrs: { role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': t, 'aria-valuenow': Math.min(failures, t), 'aria-label': label },
    },
    track,
    h('span', { class: 'meter-label', text: exhausted ? `${failures}/${t} · exhausted` : `${failures}/${t} failures` }),
  );
}

const TREND: Record<ProgressView, { icon: string; text: string }> = {
  improving: { icon: 'arrow-up', text: 'Improving' },
  regressing: { icon: 'arrow-down', text: 'Regressing' },
  mixed: { icon: 'arrow-swap', text: 'Mixed' },
  stable: { icon: 'arrow-right', text: 'No change' },
  insufficient_data: { icon: 'graph-line', text: 'Tests' },
};

/** Tests passed per attempt; undefined when no attempt had parsed test results. */
export function testChart(tests: ReadonlyArray<TestPoint | null>, progress: ProgressView): HTMLElement | undefined {
  const points = tests.map((t, attempt) => (t ? { ...t, attempt } : null)).filter((p): p is TestPoint & { attempt: number } => p !== null);
  if (!points.length) return undefined;
  const max = Math.max(1, ...points.map(p => p.total));
  const trend = TREND[progress];
  const summary = `${points.map(p => p.passed).join(' → ')} of ${max} tests pass`;
  const caption = h('div', { class: `trend trend-${progress}` }, icon(trend.icon), h('span', { text: `${trend.text}: ${summary}` }));
  if (points.length < 2) return h('div', { class: 'chart-wrap' }, caption);

  const W = 240;
  const H = 46;
  const PX = 22;
  const PT = 13;
  const PB = 5;
  const x = (i: number) => PX + (i * (W - 2 * PX)) / (points.length - 1);
  const y = (passed: number) => PT + (1 - passed / max) * (H - PT - PB);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.passed).toFixed(1)}`).join(' ');
  const area = `${x(0).toFixed(1)},${H - PB} ${line} ${x(points.length - 1).toFixed(1)},${H - PB}`;
  const chart = svg(
    'svg',
    {
      class: `chart chart-${progress}`,
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-label': `Tests passed per attempt: ${summary} (${trend.text.toLowerCase()})`,
    },
    svg('line', { class: 'chart-grid', x1: PX, x2: W - PX, y1: y(max), y2: y(max) }),
    svg('line', { class: 'chart-grid', x1: PX, x2: W - PX, y1: y(0), y2: y(0) }),
    // the scale, so that a low count never reads as "all": top line = every test, bottom = none
    svg('text', { class: 'chart-axis', x: 2, y: (y(max) + 3).toFixed(1) }, String(max)),
    svg('text', { class: 'chart-axis', x: 2, y: (y(0) + 3).toFixed(1) }, '0'),
    svg('polygon', { class: 'chart-area', points: area }),
    svg('polyline', { class: 'chart-line', points: line }),
  );
  points.forEach((p, i) => {
    chart.append(
      svg('circle', { class: 'chart-dot', cx: x(i).toFixed(1), cy: y(p.passed).toFixed(1), r: 3 }, svg('title', {}, `Attempt ${p.attempt + 1}: ${p.passed}/${p.total} passed, ${p.failed} failed`)),
      svg('text', { class: 'chart-value', x: x(i).toFixed(1), y: (y(p.passed) - 6).toFixed(1), 'text-anchor': i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle' }, String(p.passed)),
    );
  });
  return h('div', { class: 'chart-wrap' }, chart, caption);
}
