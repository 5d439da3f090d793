import { decisionReport, describeDecision } from '../../core/rules/decisions';
import type { Command } from '../types';

export const report: Command = {
  name: 'report',
  usage: 'report [--limit N]',
  summary: 'the gate\'s asks and denies with the rule that decided each, also those shadow mode (strongest answer warn) only recorded',
  options: {
    limit: { type: 'string', help: 'at most this many decisions, newest first (default 50)' },
  },
  async run(ctx) {
    const limit = ctx.int('limit', 1, 1000) ?? 50;
    const memory = ctx.memory();
    const r = decisionReport(await memory.read(), limit);
    const mode = memory.settings['gate.strongestAnswer'];
    const head = `Gate: strongest answer ${mode}${mode === 'warn' ? ' (shadow mode: nothing is stopped, what would have been is recorded)' : ''}.`;
    const counts = `Decisions kept: ${r.byPolicy.deny} deny, ${r.byPolicy.ask} ask${r.shadowed ? ` (${r.shadowed} only recorded, not enforced)` : ''}.`;
    const rules = r.byCode.map(c => `  ${String(c.count).padStart(4)}  ${c.code}${c.rule ? ` — ${c.rule}` : ''}`);
    const lines = r.decisions.map(d => `  ${describeDecision(d)}\n      ${d.command.split('\n')[0].slice(0, 160)}\n      ${d.reason.slice(0, 300)}`);
    const human = [head, counts, ...(rules.length ? ['By rule:', ...rules] : []), ...(lines.length ? [`Latest ${lines.length}:`, ...lines] : ['No ask or deny recorded yet.'])].join('\n');
    ctx.print(human, { strongestAnswer: mode, byPolicy: r.byPolicy, shadowed: r.shadowed, byCode: r.byCode, decisions: r.decisions });
    return 0;
  },
};
