// A line's chain, as the gate and the recorder read it: whose exit status the line reports, the words
// of the element that is its approach, how many of its elements do work. See ./parse.ts for the choice.

import { chooseElement } from './parse';

/**
 * Whose exit status a line reports, for the element that is its approach: `chosen` (it runs last),
 * `and` (only `&&` follows it: a success is its success too), `or` (only `||` follows: a failure is its
 * failure too), `later` (`;` or `&` follows: the status is a later step's, `npm test; echo done`).
 */
export type StatusOwner = 'chosen' | 'and' | 'or' | 'later';

export function exitStatusOwner(commandLine: string, charge?: string): StatusOwner {
  try {
    const choice = typeof commandLine === 'string' ? chooseElement(commandLine, 0, charge) : undefined;
    if (!choice || choice.chosen === choice.elements.length - 1) return 'chosen';
    const after = choice.ops.slice(choice.chosen, choice.elements.length - 1);
    if (after.every(op => op === '&&')) return 'and';
    if (after.every(op => op === '||')) return 'or';
    return 'later';
  } catch {
    return 'chosen';
  }
}

/** The words of the element that is the line's approach (wrappers and VAR=value kept): its folder is its key's. */
export function chosenWords(commandLine: string, charge?: string): string[] | undefined {
  try {
    const choice = typeof commandLine === 'string' ? chooseElement(commandLine, 0, charge) : undefined;
    return choice?.elements[choice.chosen];
  } catch {
    return undefined;
  }
}

/** How many elements of a line do work of their own (`cd`, `echo`, `true` and such left out): one for a single command. */
export function workingElements(commandLine: string): number {
  try {
    const choice = typeof commandLine === 'string' ? chooseElement(commandLine, 0) : undefined;
    return choice ? choice.kinds.filter(k => k === 'real' || k === 'tidy').length : 0;
  } catch {
    return 0;
  }
}

