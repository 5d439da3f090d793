// Re-exports for the judgement tests.
export { failedStep, isEnvironmentError, judgeStreak } from '../../src/core/rules/judgement';
export { payloadKey as payloadKeyForTest } from '../../src/core/approach/work';
