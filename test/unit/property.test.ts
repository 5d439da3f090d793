// Property-based tests (fast-check): the lexer and approach keys on random shell lines, redaction on
// random embeddings of known secrets, and hook payloads of random shape for every harness. RUNS
// cases per property (100 in the unit tier, 1,000 in npm test's fuzz tier, more in `npm run
// test:fuzz`: ../support/fuzz.ts). No timed assertion: work is bounded by what each output may be,
// and the test runner's timeout is only a hang guard.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { HARNESS_IDS, HOOK_EVENTS, type HarnessId } from '../../src/agents/hooks';
import { recordHookResult } from '../../src/agents/hooks/record';
import { runHook } from '../../src/agents/hooks/runner';
import { approachKey, tokenize } from '../../src/core/approach';
import { posixLine } from '../../src/core/approach/lexer';
import { lineFacts, selfProtectionRefusal } from '../../src/core/rules/selfProtection';
import { createRedactor } from '../../src/core/text/redact';
import { emptyMemory } from '../../src/core/types';
import { params, SHELL_CHARS } from '../support/fuzz';
import { FAKE, rep } from '../support/secrets';
import { tempFolders } from '../support/tempFolders';

const temp = tempFolders('fm-property-');
const shellLine = fc.string({ unit: fc.constantFrom(...SHELL_CHARS), maxLength: 400 });
const anyLine = fc.oneof(shellLine, fc.string({ unit: 'binary', maxLength: 200 }));

describe('the lexer and approach keys on random shell lines', () => {
  test('never throw; every output is bounded by the input', () => {
    fc.assert(
      fc.property(anyLine, fc.constantFrom('.', 'api', 'a/b'), (line, cwd) => {
        const words = tokenize(line);
        assert.ok(words.length <= line.length + 1);
        assert.ok(words.every(w => w.length <= line.length));
        const key = approachKey(line, cwd);
        assert.ok(key.includes('::'));
        assert.ok(key.length <= cwd.length + 2 + 13 * 101 + 16, `key of ${key.length}`);
        const posix = posixLine(line);
        assert.ok(posix.length <= 3 * line.length);
        const facts = lineFacts(line, { workspace: '/w', cwd: '.' });
        assert.ok(facts.cli.length + facts.writes.length <= 4 * (line.length + 1));
        selfProtectionRefusal(line, { workspace: '/w', cwd: '.' });
      }),
      params(),
    );
  });

  const PROGRAMS = ['npm', 'npx', 'pytest', 'cargo', 'make', 'git', 'go', 'yarn', 'pnpm', 'mvn', 'docker', 'terraform'];
  const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
  const flag = fc.stringMatching(/^--?[a-z][a-z-]{0,8}$/);
  /** Quotes or escapes a word the way a shell user might; reads as the same word to a shell. */
  const disguise = (w: string, how: number, at: number): string => {
    const k = w.length ? at % w.length : 0;
    switch (how) {
      case 0: return `'${w}'`;
      case 1: return `"${w}"`;
      case 2: return `${w.slice(0, k)}''${w.slice(k)}`;
      case 3: return `${w.slice(0, k)}"${w.slice(k, k + 1)}"${w.slice(k + 1)}`;
      default: return w;
    }
  };
  const command = fc.tuple(fc.constantFrom(...PROGRAMS), fc.array(fc.oneof(word, flag), { maxLength: 6 }));
  const disguises = fc.array(fc.tuple(fc.nat(4), fc.nat(20)), { minLength: 7, maxLength: 7 });

  test('quoting never changes the approach key', () => {
    fc.assert(
      fc.property(command, disguises, ([prog, args], how) => {
        const plain = [prog, ...args].join(' ');
        const quoted = [prog, ...args].map((w, i) => disguise(w, how[i][0], how[i][1])).join(' ');
        assert.equal(approachKey(quoted), approachKey(plain), `${quoted}  vs  ${plain}`);
      }),
      params(),
    );
  });

  test('escapes, eval and sh -c never change the approach the gate sees', () => {
    fc.assert(
      fc.property(command, fc.array(fc.nat(30), { minLength: 7, maxLength: 7 }), fc.nat(2), ([prog, args], at, wrap) => {
        const plain = [prog, ...args].join(' ');
        // a backslash before a letter is that letter to a shell (\\n stays out: $'…' style escapes are not at play here)
        const escaped = [prog, ...args].map((w, i) => (w.length && /[a-z]/.test(w[at[i] % w.length]) ? `${w.slice(0, at[i] % w.length)}\\${w.slice(at[i] % w.length)}` : w)).join(' ');
        const wrapped = wrap === 0 ? escaped : wrap === 1 ? `eval "${escaped.replace(/\\/g, '\\\\')}"` : `sh -c '${escaped}'`;
        assert.equal(approachKey(posixLine(wrapped)), approachKey(plain), `${wrapped}  vs  ${plain}`);
      }),
      params(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Redaction
// ---------------------------------------------------------------------------------------------

/** Known secrets in the shape they appear in (with their context), and the part that must go. */
const SECRETS: Array<{ text: string; secret: string }> = [
  ...[FAKE.ghp, FAKE.gho, FAKE.ghPat, FAKE.glpat, FAKE.npm, FAKE.slackBot, FAKE.stripe, FAKE.openai, FAKE.openaiProj, FAKE.anthropic, FAKE.hf, FAKE.jwt, FAKE.awsId, FAKE.gcpKey, FAKE.sendgrid].map(s => ({ text: s, secret: s })),
  { text: `aws_secret_access_key = ${FAKE.awsSecret}`, secret: FAKE.awsSecret },
  { text: `PASSWORD=Sup3r${'Secret'}Value1`, secret: `Sup3r${'Secret'}Value1` },
  { text: `--token ${'tok'}Value_123456`, secret: `${'tok'}Value_123456` },
  { text: `https://deploy:${'pw'}Secret99@example.com/x`, secret: `${'pw'}Secret99` },
  { text: `Authorization: Bearer ${'abc'}DEF123ghi456`, secret: `${'abc'}DEF123ghi456` },
  { text: `<password>${'xml'}Secret77</password>`, secret: `${'xml'}Secret77` },
  { text: `ya29.${'a0AfH6SM'}${rep('Bx9_kQ-', 6)}`, secret: `${'a0AfH6SM'}${rep('Bx9_kQ-', 6)}` },
  { text: `https://api.telegram.org/bot${'1234567'}89:AAH${rep('dQ9_x-Zk', 4)}w/getMe`, secret: `89:AAH${rep('dQ9_x-Zk', 4)}w` },
  { text: `{"pass\\u0077ord": "${'esc'}Aped99"}`, secret: `${'esc'}Aped99` },
  { text: `Password:\n${'next'}Line42`, secret: `${'next'}Line42` },
  { text: `-----BEGIN PRIVATE KEY-----\n${FAKE.pemBody}\n-----END PRIVATE KEY-----`, secret: FAKE.pemBody.slice(0, 40) },
];
/** Between secrets: noise that ends and starts at a token boundary (a secret glued to a word is another word). */
const SEP = fc.constantFrom(' ', '\n', '\t', ' "', '" ', "' ", ' (', ') ', ', ', '; ', ' | ', '\r\n');
const noise = fc.string({ unit: fc.constantFrom(...'abcxyz ABC019._-:=/'.split('')), maxLength: 40 });

describe('redaction on random embeddings of known secrets', () => {
  const redactor = createRedactor();
  test('no secret survives, the text never grows beyond its markers, and redacting again changes nothing', () => {
    const part = fc.tuple(noise, SEP, fc.constantFrom(...SECRETS), SEP);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), noise, (parts, tail) => {
        const text = parts.map(([n, a, s, b]) => `${n}${a}${s.text}${b}`).join('') + tail;
        const r = redactor.redact(text);
        for (const [, , s] of parts) assert.ok(!r.text.includes(s.secret), `survived: ${JSON.stringify(s.secret)} in ${JSON.stringify(r.text)}`);
        assert.ok(r.text.length <= text.length + 40 * r.count, `grew from ${text.length} to ${r.text.length} with ${r.count} markers`);
        assert.equal(redactor.redact(r.text).text, r.text);
      }),
      params(),
    );
  });

  test('random text never grows beyond its markers and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(anyLine, fc.string({ maxLength: 2000 })), text => {
        const r = redactor.redact(text);
        assert.ok(r.text.length <= text.length + 40 * r.count);
      }),
      params(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Hook payloads
// ---------------------------------------------------------------------------------------------

const KEYS = [
  'tool_name', 'tool_input', 'tool_response', 'command', 'cwd', 'hook_event_name', 'hookEventName', 'toolName', 'toolArgs', 'toolResult',
  'preToolUse', 'postToolUse', 'parameters', 'tool_info', 'command_line', 'workspace_roots', 'workspaceRoots', 'error', 'output',
  'exit_code', 'exitCode', 'stdout', 'stderr', 'agent_action_name', 'file_path', 'content', 'old_string', 'new_string', 'result', 'success',
];
const TOOLS = ['Bash', 'run_shell_command', 'bash', 'execute_command', 'Shell', 'run_in_terminal', 'shell', 'Write', 'Edit', 'apply_patch', 'write_to_file', 'edit', 'pre_write_code'];
const hookValue = fc.letrec(tie => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: fc.constantFrom(...SHELL_CHARS), maxLength: 60 }),
    fc.constantFrom(...TOOLS, 'failure-memory clear', 'rm -rf .vscode/failure-memory', 'npm test', '.vscode/failure-memory/memory.json', '/', '..', ''),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), tie('value'), { maxKeys: 6 }),
}));

describe('hook payloads of random shape, for every harness', () => {
  let ws = '';
  const setUp = async () => {
    if (ws) return ws;
    ws = realpathSync(temp());
    mkdirSync(join(ws, '.git'));
    for (let i = 0; i < 5; i++) await recordHookResult({ workspace: ws, command: 'npm test', cwd: '.', exitCode: 1, output: 'Error: boom' });
    return ws;
  };
  const opts = { record: async () => undefined, readFull: async () => emptyMemory(), env: {} };

  for (const h of HARNESS_IDS) {
    test(`${h}: allow or deny, stdout one line of JSON or nothing, never a stack trace`, async () => {
      const root = await setUp();
      const payload = fc.oneof(
        { weight: 6, arbitrary: hookValue.object.map(o => JSON.stringify({ cwd: root, ...o })) },
        { weight: 2, arbitrary: hookValue.object.map(o => JSON.stringify(o)) },
        { weight: 1, arbitrary: fc.jsonValue().map(v => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...HOOK_EVENTS), payload, async (event, text) => {
          const r = await runHook(h as HarnessId, event, text, opts);
          assert.ok([0, 1, 2].includes(r.exitCode), `exit ${r.exitCode}`);
          if (r.stdout) {
            assert.ok(r.stdout.endsWith('\n') && r.stdout.indexOf('\n') === r.stdout.length - 1, `one line: ${JSON.stringify(r.stdout)}`);
            JSON.parse(r.stdout);
          }
          assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
          assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/, 'no control character');
          if (r.exitCode === 1) assert.match(r.stderr, /^Failure Memory hook: .*; not checked, the agent goes on\.\n$/);
        }),
        params(),
      );
    });
  }
});
