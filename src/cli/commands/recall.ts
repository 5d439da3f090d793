import { plainText } from '../../core/text/plainText';
import { classifyDatabaseError } from '../../app/team';
import type { Command } from '../types';

export const recall: Command = {
  name: 'recall',
  usage: 'recall --query TEXT [--k 5] [--lexical] [--team]',
  summary: 'similar past failures, best first (--lexical: words only)',
  semantic: true,
  options: {
    query: { type: 'string', help: 'an error message, a command or a task' },
    k: { type: 'string', help: 'how many results (1–100, default 5)' },
    lexical: { type: 'boolean', help: 'words only, no embeddings' },
    team: { type: 'boolean', help: 'also search the team database (full-text search and vectors of the same embedder; needs team memory on)' },
  },
  async run(ctx) {
    const query = ctx.required('query');
    const k = ctx.int('k', 1, 100) ?? 5;
    const hits = await ctx.memory().recall(query, k);
    const human = hits.length
      ? hits.map((h, i) => `${i + 1}. [${h.score.toFixed(2)}] ${h.label} (${h.status})${h.errorText ? `\n   ${h.errorText}` : ''}${h.lesson ? `\n   lesson: ${h.lesson}` : ''}`).join('\n')
      : 'No similar failure in memory.';
    const local = hits.map(h => ({ command: h.command, key: h.key, errorSignature: h.errorSignature, score: h.score, status: h.status, ...(h.lesson ? { lesson: h.lesson } : {}) }));
    if (!ctx.flag('team')) {
      ctx.print(human, local);
      return 0;
    }
    // team recall: the (redacted) query goes to the team database; not a hot path, but bounded by the connect timeout
    const { team, reason } = ctx.team();
    if (!team) {
      ctx.io.err(`failure-memory: ${reason}\n`);
      return 1;
    }
    try {
      const found = await team.recall(ctx.memory().redact(query), k);
      const how = found.scoring.mode === 'full-text' ? 'words only' : `words and meaning, vectors scored ${found.scoring.mode === 'pgvector' ? 'by pgvector' : 'on this machine'}`;
      // another machine's text, printed to a terminal: one plain line each, no escape sequences
      const teamHuman = found.hits.length
        ? found.hits.map((f, i) => `${i + 1}. [${f.score.toFixed(2)}] ${f.kind} from ${plainText(f.machine, 100)}: ${plainText(f.text.replace(/\n/g, ': '), 400)}`).join('\n')
        : 'Nothing similar in the team memory.';
      ctx.print(`${human}\n\nTeam (${team.project}; ${how}):\n${teamHuman}`, { local: local.map(h => ({ from: 'local', ...h })), team: found.hits, teamScoring: found.scoring });
      return 0;
    } catch (e) {
      const err = classifyDatabaseError(e, team.db.target);
      ctx.print(human, { local, team: [], teamError: err.message });
      ctx.io.err(`failure-memory: ${err.message}\n`);
      return 3;
    } finally {
      await team.close();
    }
  },
};
