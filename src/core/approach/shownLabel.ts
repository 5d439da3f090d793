// How an approach is named to a person (status bar, dialog title, tooltip, panel, `list`): the key's
// label when it is what was typed, shortened (`npx prisma generate` → `prisma generate`: each of its
// words is a word of the line, a URL written out whole), else the line as typed, cut short. The words
// only a key has — a snippet's imports (`node -e import:left-pad`), a host without its user — are for
// matching runs, never for reading.

import { approachLabel, tokenize } from './parse';
import { urlWork } from './work';

/** Characters of a typed line kept in a label. */
export const SHOWN_LABEL_MAX = 60;

/** The first line of a command, its spaces collapsed, cut at `max` characters with an ellipsis. */
export function shortLine(line: string, max: number = SHOWN_LABEL_MAX): string {
  const first = line.trim().split('\n')[0].replace(/\s+/g, ' ').trim();
  const more = first.length < line.trim().length;
  if (first.length > max) return `${first.slice(0, max - 1)}…`;
  return more ? `${first} …` : first;
}

export function shownLabel(commandLine: string, max: number = SHOWN_LABEL_MAX): string {
  const label = approachLabel(commandLine);
  if (!label) return shortLine(commandLine, max);
  const tokens = tokenize(commandLine);
  const words = new Set(tokens);
  // a URL as typed, written out whole (`127.0.0.1:9/health` → `http://127.0.0.1:9/health`), still reads as typed
  const urls = new Set(tokens.map(urlWork).filter((u): u is string => !!u));
  return label.split(' ').every(w => words.has(w) || urls.has(w)) ? label : shortLine(commandLine, max);
}

/** The key's own label (`folder::label` → `label`): what judgement compares, whatever a person is shown. */
export function keyLabel(key: string): string {
  const at = key.indexOf('::');
  return at < 0 ? key : key.slice(at + 2);
}
