import { approachCounts } from '../../core/rules/counts';
import { describeApproach, summarize } from '../../core/memory';
import { failedText } from '../../core/text/shownText';
import type { Approach } from '../../core/types';
import type { Command } from '../types';

export const list: Command = {
  name: 'list',
  usage: 'list',
  summary: 'approaches by state',
  async run(ctx) {
    const data = await ctx.memory().read();
    const s = summarize(data);
    const threshold = ctx.memory().settings.threshold;
    const line = (a: Approach) => {
      const c = approachCounts(a, threshold);
      return `  ${describeApproach(a)} — ${failedText(c)}${c.last ? `: ${c.last.text}` : ''}`;
    };
    const human = [
      `Exhausted (${s.exhausted.length}):`, ...s.exhausted.map(line),
      `Failing (${s.failing.length}):`, ...s.failing.map(line),
      `Resolved (${s.resolved.length}):`, ...s.resolved.map(a => `  ${describeApproach(a)}`),
      `Learnings: ${data.learnings.length} · Reflections: ${data.reflections.length}`,
    ].join('\n');
    ctx.print(human, {
      exhausted: s.exhausted.map(listJson),
      failing: s.failing.map(listJson),
      resolved: s.resolved.map(listJson),
      learnings: data.learnings.length,
      reflections: data.reflections.length,
    });
    return 0;
  },
};

function listJson(a: Approach) {
  return { key: a.key, label: a.label, command: a.command, cwd: a.cwd, status: a.status, attempts: a.failures, lastError: a.lastErrorSignature, alternatives: a.alternativesTried };
}
