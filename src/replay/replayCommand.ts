// `failure-memory replay --input FILE.jsonl[.gz] [--threshold N] [--json]`: the thin CLI wiring.

import { readCorpusFile } from './corpus';
import { replayLine, replayTrajectory } from './replay';

export interface ReplayCommandOptions {
  input: string;
  threshold?: number;
  json: boolean;
  out: (s: string) => void;
  err: (s: string) => void;
}

export async function runReplay(o: ReplayCommandOptions): Promise<number> {
  const corpus = readCorpusFile(o.input);
  for (const p of corpus.problems) o.err(`failure-memory: ${o.input} line ${p.line} skipped: ${p.message}\n`);
  let commands = 0;
  let blocked = 0;
  for (const t of corpus.trajectories) {
    const steps = await replayTrajectory(t, { threshold: o.threshold });
    commands += steps.length;
    for (const s of steps) {
      if (s.blocked) blocked++;
      if (o.json) o.out(`${JSON.stringify(replayLine(s))}\n`);
      else if (s.blocked) o.out(`blocked: ${s.source} #${s.index}: ${s.command.split('\n')[0].slice(0, 120)}\n`);
    }
  }
  if (!o.json) o.out(`${corpus.trajectories.length} trajectories, ${commands} commands, ${blocked} would be blocked.\n`);
  return corpus.problems.length ? 1 : 0;
}
