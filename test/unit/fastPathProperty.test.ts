// A differential property: the pre hook's fast path (store/quickView.ts's partial and lazy reads of
// memory.json through memory.index.json, the journal's runs applied to heads, the runner's answer
// from one approach when nothing else was used) gives, for every command, the answer the full
// decision gives (the same hook with memory.json read whole, the journal applied: byte for byte). Random histories: failures
// and passes of a few commands in two folders, written by full writes or journaled as hooks do,
// edits, folds, resolves, a run allowed once, and memory.index.json current, deleted, or describing
// an older memory.json. Fifteen histories in the unit tier, more at full scale (test/support/fuzz.ts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { runHook } from '../../src/agents/hooks/runner';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { newRunRecord } from '../../src/core/journal';
import { prepareAttempt } from '../../src/core/memory';
import { createRedactor } from '../../src/core/text/redact';
import { DEFAULT_SETTINGS } from '../../src/core/types';
import { INDEX_FILE_NAME } from '../../src/store/memoryIndex';
import { MemoryStore, memoryDirFor } from '../../src/store/memoryStore';
import { params, RUNS, scaled } from '../support/fuzz';
import { tempFolders } from '../support/tempFolders';

const temp = tempFolders('fm-fast-path-');
const redactor = createRedactor();
const T0 = Date.UTC(2026, 0, 5, 9);
/** Histories per run: fifteen in the unit tier; at full scale (the fuzz tier, `npm run test:fuzz`) a hundredth of FM_FUZZ_RUNS, at least 100. */
const HISTORIES = scaled(15, Math.max(100, Math.floor(RUNS / 100)));

const COMMANDS = ['npm test', 'npx jest src/a.test.ts', 'npx jest src/b.test.ts', 'cargo build', 'make lint', 'python app.py', 'npm install left-pad'];
const OUTPUTS = [
  "Error: Cannot find module 'left-pad'\nRequire stack:\n- /w/index.js",
  'FAIL src/a.test.ts\n  ● adds\n    expect(received).toBe(expected)\nTests:       1 failed, 2 passed, 3 total',
  "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  'Error: collection error while importing conftest',
  '',
];

type Op =
  | { kind: 'run'; command: number; cwd: 0 | 1; exit: 0 | 1 | 130; output: number; journal: boolean }
  /** The same command failing the same way a few times in a row (what exhausts an approach). */
  | { kind: 'streak'; command: number; cwd: 0 | 1; output: number; count: number; journal: boolean }
  | { kind: 'edit'; file: number }
  | { kind: 'fold' }
  | { kind: 'resolve'; command: number }
  | { kind: 'allowOnce'; command: number }
  | { kind: 'index'; how: 'delete' | 'older' | 'rewrite' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('run' as const), command: fc.nat(COMMANDS.length - 1), cwd: fc.constantFrom(0 as const, 1 as const), exit: fc.constantFrom(1 as const, 1 as const, 1 as const, 0 as const, 130 as const), output: fc.nat(OUTPUTS.length - 1), journal: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('streak' as const), command: fc.nat(COMMANDS.length - 1), cwd: fc.constantFrom(0 as const, 1 as const), output: fc.nat(OUTPUTS.length - 1), count: fc.integer({ min: 2, max: 6 }), journal: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), file: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fold' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resolve' as const), command: fc.nat(COMMANDS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('allowOnce' as const), command: fc.nat(COMMANDS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('index' as const), how: fc.constantFrom('delete' as const, 'older' as const, 'rewrite' as const) }) },
);

const CWDS = ['.', 'pkg'] as const;

/** Plays a history into a fresh workspace, as the extension, the CLI and the hooks write it. */
async function play(ops: Op[]): Promise<string> {
  const ws = fs.realpathSync(temp());
  fs.mkdirSync(join(ws, '.git'));
  let t = T0;
  const clock = () => new Date((t += 60_000));
  const memory = new WorkspaceMemory(ws, { git: false, clock });
  const dir = memoryDirFor(ws);
  let olderIndex: string | undefined;
  for (const o of ops) {
    switch (o.kind) {
      case 'run':
      case 'streak': {
        const input = { command: COMMANDS[o.command], cwd: CWDS[o.cwd], exitCode: o.kind === 'run' ? o.exit : 1, output: OUTPUTS[o.output], source: 'agent' as const };
        for (let i = 0; i < (o.kind === 'run' ? 1 : o.count); i++) {
          if (o.journal) await new MemoryStore(dir, { cache: false }).appendRecord(newRunRecord(prepareAttempt(input, DEFAULT_SETTINGS, redactor, clock()), DEFAULT_SETTINGS, []));
          else await memory.record(input);
        }
        break;
      }
      case 'edit':
        await memory.recordEdits([{ path: join(ws, `src/f${o.file}.ts`), source: 'agent', tool: 'Edit' }]);
        break;
      case 'fold':
        await memory.store.update(() => undefined);
        break;
      case 'resolve':
        await memory.markByCommand('resolve', COMMANDS[o.command], '.');
        break;
      case 'allowOnce':
        await memory.markByCommand('allow', COMMANDS[o.command], '.');
        break;
      case 'index': {
        const index = join(dir, INDEX_FILE_NAME);
        if (!fs.existsSync(index)) break;
        if (o.how === 'delete') fs.rmSync(index);
        else if (o.how === 'older' && olderIndex !== undefined) fs.writeFileSync(index, olderIndex);
        else if (o.how === 'rewrite') {
          // memory.json rewritten in place by something else (the same memory, other bytes): the index no longer describes it
          const file = join(dir, 'memory.json');
          fs.writeFileSync(file, JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8')), null, 1));
        }
        break;
      }
    }
    // the first index written is the older one an 'older' step puts back
    const index = join(dir, INDEX_FILE_NAME);
    if (olderIndex === undefined && fs.existsSync(index)) olderIndex = fs.readFileSync(index, 'utf8');
  }
  return ws;
}

/** What the pre hook says for `command` in `cwd` (Claude Code's protocol), its whole reply. */
async function preAnswer(ws: string, command: string, cwd: string): Promise<string> {
  const payload = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: join(ws, cwd), session_id: 's' };
  const r = await runHook('claude', 'pre', JSON.stringify(payload), { env: { CLAUDE_PROJECT_DIR: ws }, record: async () => undefined, readFull: dir => new MemoryStore(memoryDirFor(dir), { cache: false }).read() });
  return `${r.exitCode}\n${r.stdout}\n${r.stderr}`;
}

/** The same without the fast path: memory.index.json set aside, so memory.json is read whole (the journal applied). */
async function fullAnswer(ws: string, command: string, cwd: string): Promise<string> {
  const index = join(memoryDirFor(ws), INDEX_FILE_NAME);
  const away = `${index}.away`;
  const had = fs.existsSync(index);
  if (had) fs.renameSync(index, away);
  try {
    return await preAnswer(ws, command, cwd);
  } finally {
    if (had) fs.renameSync(away, index);
  }
}

/** The decision a reply gives, for the coverage check. */
const decisionOf = (reply: string) => (/"permissionDecision":"(\w+)"/.exec(reply)?.[1] ?? (reply.includes('additionalContext') ? 'warn' : 'allow'));

test('the pre hook\'s fast path answers every command as the full decision does, whatever the history', async () => {
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 28 }), async ops => {
      const ws = await play(ops);
      for (const command of [...COMMANDS, 'npx jest src/c.test.ts', 'brand new']) {
        for (const cwd of CWDS) {
          fs.mkdirSync(join(ws, cwd), { recursive: true });
          const fast = await preAnswer(ws, command, cwd);
          const full = await fullAnswer(ws, command, cwd);
          assert.equal(fast, full, `${command} in ${cwd}`);
          seen.add(decisionOf(full));
        }
      }
      fs.rmSync(ws, { recursive: true, force: true });
    }),
    // two histories always played (random ones may hold no loop at all): one exhausted by full writes, one by the journal
    {
      ...params(HISTORIES),
      examples: [
        [[{ kind: 'streak', command: 0, cwd: 0, output: 1, count: 6, journal: false }, { kind: 'run', command: 3, cwd: 1, exit: 0, output: 4, journal: true }, { kind: 'fold' }]],
        [[{ kind: 'streak', command: 3, cwd: 1, output: 2, count: 6, journal: true }, { kind: 'edit', file: 1 }, { kind: 'streak', command: 1, cwd: 0, output: 0, count: 5, journal: true }]],
      ],
    },
  );
  assert.ok(seen.has('deny') && seen.has('allow'), `denies and allows were compared: ${[...seen]}`);
});
