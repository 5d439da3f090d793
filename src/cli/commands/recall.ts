import type { Command } from '../types';

export const recall: Command = {
  name: 'recall',
  usage: 'recall --query TEXT [--k 5] [--lexical]',
  summary: 'similar past failures, best first (--lexical: words only)',
  semantic: true,
  options: {
    query: { type: 'string', help: 'an error message, a command or a task' },
    k: { type: 'string', help: 'how many results (1–100, default 5)' },
    lexical: { type: 'boolean', help: 'words only, no embeddings' },
  },
  async run(ctx) {
    const query = ctx.required('query');
    const k = ctx.int('k', 1, 100) ?? 5;
    const hits = await ctx.memory().recall(query, k);
    const human = hits.length
      ? hits.map((h, i) => `${i + 1}. [${h.score.toFixed(2)}] ${h.label} (${h.status})${h.errorSignature ? `\n   ${h.errorSignature}` : ''}${h.lesson ? `\n   lesson: ${h.lesson}` : ''}`).join('\n')
      : 'No similar failure in memory.';
    ctx.print(human, hits.map(h => ({ command: h.command, key: h.key, errorSignature: h.errorSignature, score: h.score, status: h.status, ...(h.lesson ? { lesson: h.lesson } : {}) })));
    return 0;
  },
};
