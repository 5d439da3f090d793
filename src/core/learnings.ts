// `LEARNING[type]: text` lines in reflections, notes or terminal output become learnings.

import { oneOf, type Shape } from './shape';
import type { Learning, LearningType } from './types';

export const LEARNING_TYPES: readonly LearningType[] = ['decision', 'learning', 'failed_approach', 'code_location', 'pattern'];

/** A learning's type, as the CLI, the output's LEARNING[type]: lines and memory.json's learnings are read. */
export const isLearningType: Shape<LearningType> = oneOf(...LEARNING_TYPES);

// `(\S.*)` then trimEnd(): a lazy `.*?` followed by `[ \t]*$` rescans every run of blanks (quadratic)
const LINE = /^[ \t>*#-]*LEARNING\[([a-z_]+)\]:[ \t]*(\S.*)$/gm;
const MAX_TEXT = 500;

/** Every well-formed `LEARNING[type]: text` line; unknown types and empty texts are skipped. */
export function extractLearnings(text: string): Array<{ type: LearningType; text: string }> {
  const out: Array<{ type: LearningType; text: string }> = [];
  const seen = new Set<string>();
  if (!text.includes('LEARNING[')) return out;
  for (const m of text.matchAll(LINE)) {
    const type = m[1];
    const body = m[2].trimEnd().slice(0, MAX_TEXT);
    if (!isLearningType(type) || !body) continue;
    const id = `${type}\u0000${body}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ type, text: body });
    if (out.length >= 50) break;
  }
  return out;
}

/** Adds learnings, skipping ones memory already holds (same type and text). Returns the added ones. */
export function addLearnings(
  existing: Learning[],
  found: Array<{ type: LearningType; text: string }>,
  meta: { source: Learning['source']; key?: string; now: string; newId: () => string },
): Learning[] {
  const added: Learning[] = [];
  for (const f of found) {
    if (existing.some(l => l.type === f.type && l.text === f.text)) continue;
    const l: Learning = { id: meta.newId(), type: f.type, text: f.text, source: meta.source, createdAt: meta.now };
    if (meta.key) l.key = meta.key;
    existing.push(l);
    added.push(l);
  }
  return added;
}
