// What the hooks' V8 code cache is made from. The cache is written once, after the first hook call
// of a new version (src/hookLoader.ts), and holds the functions that process compiled: a first call
// that answered at once (a non-terminal tool) would leave the gate's own functions out of it for
// good. So before the cache is written, the paths a hook takes run once on a small made-up memory
// here (pure functions, no file touched), and the cache holds them whatever the first call was.

import { agentDenyReason, agentSummary } from '../../core/prompts/agentContext';
import { approachKey, normalizeCwd } from '../../core/approach';
import { decideGateNow } from '../../app/gate';
import { selfProtectionRefusal } from '../../core/rules/selfProtection';
import { applyRecord, newRunRecord } from '../../core/journal';
import { extractLearnings } from '../../core/learnings';
import { prepareAttempt } from '../../core/memory';
import { createRedactor } from '../../core/text/redact';
import { DEFAULT_SETTINGS, emptyMemory, type Approach, type Attempt, type MemoryData } from '../../core/types';
import { parseSettingsText } from '../../app/settings';
import { warmUpMemoryReads } from '../../app/hookMemory';
import { HARNESSES } from './index';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();

function attempt(n: number, command: string, key: string): Attempt {
  const output = `building…\nsrc/app.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error.\n`;
  return {
    id: `warm-${n}`, command, key, cwd: '.', exitCode: 2, outcome: 'failure', source: 'agent', endedAt: at(n), output, outputTruncated: false,
    outputBytes: output.length, errorSignature: "error TS2322: Type 'string' is not assignable to type 'number'.", testResults: null, timestamp: at(n),
    git: { head: 'a'.repeat(40), fingerprint: 'f'.repeat(16), dirty: { 'src/app.ts': '0123456789ab' } },
  };
}

function memory(): MemoryData {
  const data = emptyMemory(at(0));
  const key = approachKey('npx tsc -p .', '.');
  const attempts = [1, 2, 3, 4, 5].map(n => attempt(n, 'npx tsc -p .', key));
  const a: Approach = {
    key, command: 'npx tsc -p .', label: 'tsc', cwd: '.', status: 'exhausted', failures: 5, totalAttempts: 5, lastErrorSignature: attempts[4].errorSignature,
    alternativesTried: ['npm run build'], learnedFacts: [], attempts, updatedAt: at(5), lastFailure: at(5), exhaustedAt: at(5),
    streakErrors: attempts.map(() => "error TS<n>: Type 'string' is not assignable to type 'number'."),
    ledger: attempts.map(t => ({ at: t.timestamp, outcome: t.outcome, exitCode: t.exitCode, signature: t.errorSignature, git: t.git })),
  };
  data.approaches[key] = a;
  data.learnings.push({ id: 'warm-l', type: 'learning', text: 'tsc needs the generated types', source: 'agent', key, createdAt: at(6) });
  return data;
}

/** Runs the gate's paths once (see the file comment). Never throws. */
export function warmUpGate(): void {
  try {
    parseSettingsText('{ "failureMemory.threshold": 5, // a comment\n }');
    const payload = { cwd: '/w', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npx tsc -p .' }, tool_use_id: 't' };
    const input = HARNESSES.claude.parse('pre', payload, {});
    selfProtectionRefusal(input.command ?? '', { workspace: '/w', cwd: '.', home: '/h' });
    const redactor = createRedactor();
    const data = memory();
    const key = approachKey(redactor.redact('npx tsc -p .').text, normalizeCwd('.'));
    warmUpMemoryReads(data, key, at(5), attempt(6, 'npx tsc -p .', key), t => redactor.redact(t).text);
    const c = decideGateNow('npx tsc -p .', '.', { data, settings: DEFAULT_SETTINGS, redact: t => redactor.redact(t).text }).check;
    HARNESSES.claude.reply('pre', { kind: 'deny', reason: agentDenyReason(c, data) }, payload, {});
    HARNESSES.claude.reply('session-start', { kind: 'context', text: agentSummary(data, DEFAULT_SETTINGS.threshold) }, payload, {});
  } catch {
    // a cache without these functions is only slower
  }
}

/** Runs the recording path once: failures of several kinds prepared and applied as journaled runs. Never throws. */
export function warmUpRecording(): void {
  try {
    const redactor = createRedactor();
    const outputs = [
      'FAIL src/sum.test.js\n  ● sum › adds\n    expect(received).toBe(expected)\nTests:       1 failed, 3 passed, 4 total\n',
      "Error: Cannot find module 'left-pad'\nRequire stack:\n- /w/index.js\n",
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n",
      'E   AssertionError: assert 1 == 2\nFAILED tests/test_a.py::test_b - assert 1 == 2\n1 failed, 2 passed in 0.1s\n',
    ];
    const data = emptyMemory();
    for (const [i, output] of outputs.entries()) {
      const attempt = prepareAttempt({ command: `npm test -- ${i}`, cwd: '.', exitCode: 1, output, source: 'agent' }, DEFAULT_SETTINGS, redactor);
      applyRecord(data, newRunRecord(attempt, DEFAULT_SETTINGS, extractLearnings(attempt.output)), { redact: t => redactor.redact(t).text });
    }
  } catch {
    // a cache without these functions is only slower
  }
}
