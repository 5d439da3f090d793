// Approach identity: which command lines are "the same approach". See ./parse.ts.
export { approachKey, approachLabel, lastPipeline, parseCommand, tokenize } from './parse';
export { exitStatusOwner } from './chain';
export { matchesGlob } from './glob';
export { normalizeCwd } from './paths';
export { CHARGE_TESTS } from './work';
export { keyLabel, shortLine, shownLabel } from './shownLabel';
