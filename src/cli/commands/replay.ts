import { existsSync } from 'node:fs';
import { runReplay } from '../../replay/replayCommand';
import { UsageError, type Command } from '../types';

export const replay: Command = {
  name: 'replay',
  usage: 'replay --input FILE.jsonl[.gz] [--threshold N] [--json]',
  summary: 'replay agent trajectories, each in a fresh in-memory memory: check before each command, record after (--json: one line each)',
  options: {
    input: { type: 'string', help: 'trajectories, one JSON object per line (plain or gzip)' },
  },
  async run(ctx) {
    const input = ctx.required('input');
    if (!existsSync(input)) throw new UsageError(`--input ${input}: no such file`);
    // fresh isolated memories: only --threshold applies, never this workspace's settings
    return runReplay({ input, threshold: ctx.int('threshold', 1, 1000), json: ctx.json, out: ctx.io.out, err: ctx.io.err });
  },
};
