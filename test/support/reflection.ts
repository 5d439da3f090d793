// Shared by the reflection tests: the reflection-memory schema's validator and a recorder with its own clock.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { applyAttempt, prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS, type MemoryData } from '../../src/core/types';

// The reflection-memory schema (copied from ../shared/seeds/reflection-memory.schema.json).
const schema = JSON.parse(readFileSync(resolve(__dirname, '../fixtures/reflection-memory.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
export const validateReflection = ajv.compile(schema);

/** Records a run into `data` through the real engine, one second after the previous one. */
export function makeRecorder(start = Date.parse('2026-11-20T09:00:00Z')) {
  const redactor = createRedactor();
  let t = start;
  const run = (data: MemoryData, command: string, exitCode: number, output: string) =>
    applyAttempt(data, prepareAttempt({ command, exitCode, output, source: 'terminal' }, DEFAULT_SETTINGS, redactor, new Date((t += 1000))), DEFAULT_SETTINGS);
  return { run, now: () => new Date((t += 1000)), stamp: () => t };
}
