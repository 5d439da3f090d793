// The replay's decision is the live gate's (src/app/gate.ts): the same history — runs, edits by the
// harness's edit tool, fixes, respelled and chained runs — played through Claude Code's hooks (pre before
// each run, post after it, post for each edit, on a real workspace folder) and through the replay
// (src/replay/replay.ts, what `failure-memory replay` and the judgement benchmark use) gives the same
// decision for every run, as Claude Code shapes it.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gateShape, type HookReply } from '../../src/agents/hooks';
import { runHook } from '../../src/agents/hooks/runner';
import { readMemoryFull, recordHookEdits, recordHookResult } from '../../src/agents/hooks/record';
import type { Decision } from '../../src/core/types';
import type { CorpusCommand, Trajectory } from '../../src/replay/corpus';
import { replayTrajectory } from '../../src/replay/replay';
import { tempFolders } from '../support/tempFolders';

const tempDir = tempFolders('fm-gate-parity-');

const ERR = "Traceback (most recent call last):\n  File \"/w/app.py\", line 3, in <module>\nModuleNotFoundError: No module named 'left_pad'\n";
const OTHER = 'Traceback (most recent call last):\nKeyError: total\n';

type Event = { run: string; exit: number; output?: string } | { edit: string; ok?: boolean };

/** A session: a loop, a respelled and a chained run of it, a wrong fix, a second fix, the fix that passes. */
const SESSION: Event[] = [
  ...Array.from({ length: 5 }, () => ({ run: 'python app.py', exit: 1, output: ERR })),
  { run: 'python app.py', exit: 1, output: ERR },
  { run: 'python3 app.py 2>&1 | tail -20', exit: 1, output: ERR },
  { run: 'python app.py && git status', exit: 1, output: ERR },
  { run: "bash -c 'python app.py'", exit: 1, output: ERR },
  { edit: 'lib.py', ok: false },
  { run: 'python app.py', exit: 1, output: ERR },
  { edit: 'lib.py' },
  { run: 'python app.py', exit: 1, output: ERR },
  { edit: 'lib.py' },
  { run: 'python app.py', exit: 1, output: ERR },
  { run: 'pytest tests/test_app.py', exit: 1, output: OTHER },
  { edit: 'setup.cfg' },
  { run: 'python app.py', exit: 1, output: ERR },
  { edit: 'lib.py' },
  { run: 'python app.py', exit: 1, output: ERR },
  { run: 'python app.py', exit: 0, output: 'total: 12\n' },
  { run: 'python app.py', exit: 0, output: 'total: 12\n' },
];

function trajectory(ws: string, events: Event[]): Trajectory {
  const commands: CorpusCommand[] = [];
  let edits: CorpusCommand['editsBefore'] = [];
  for (const e of events) {
    if ('edit' in e) edits.push({ tool: 'Edit', path: join(ws, e.edit), ok: e.ok !== false });
    else {
      commands.push({ command: e.run, exitCode: e.exit, cwd: ws, output: e.output ?? '', ...(edits.length ? { editsBefore: edits } : {}) });
      edits = [];
    }
  }
  return { source: 'parity', commands };
}

/** The kind of answer a Claude Code pre hook gave. */
function kindOf(r: HookReply): 'deny' | 'ask' | 'allow' {
  if (!r.stdout) return 'allow';
  const d = JSON.parse(r.stdout)?.hookSpecificOutput?.permissionDecision;
  return d === 'deny' || d === 'ask' ? d : 'allow';
}

/** What Claude Code does with a decision of the gate (the harness's mapping). */
const shaped = (d: Decision): 'deny' | 'ask' | 'allow' => {
  const s = gateShape('claude', d);
  return s === 'deny' || s === 'ask' ? s : 'allow';
};

async function throughHooks(ws: string, events: Event[], threshold: number): Promise<Array<'deny' | 'ask' | 'allow'>> {
  const env = { CLAUDE_PROJECT_DIR: ws };
  // the hooks read the workspace's settings, as they would in the user's project
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'failureMemory.threshold': threshold }));
  const opts = { record: recordHookResult, readFull: readMemoryFull, recordEdits: recordHookEdits, env };
  const answers: Array<'deny' | 'ask' | 'allow'> = [];
  let call = 0;
  for (const e of events) {
    const id = `toolu_${++call}`;
    if ('edit' in e) {
      const file = join(ws, e.edit);
      const payload = { session_id: 's', cwd: ws, hook_event_name: e.ok === false ? 'PostToolUseFailure' : 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: file, old_string: 'a', new_string: 'b' }, tool_use_id: id, ...(e.ok === false ? { error: 'String to replace not found in file.' } : { tool_response: { filePath: file } }) };
      await runHook('claude', 'post', JSON.stringify(payload), opts);
      continue;
    }
    const pre = await runHook('claude', 'pre', JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: e.run }, tool_use_id: id }), opts);
    answers.push(kindOf(pre));
    // the run happens whatever the gate said (as the replay records it): the history is the same
    const post = e.exit === 0
      ? { session_id: 's', cwd: ws, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: e.run }, tool_use_id: id, tool_response: { stdout: e.output ?? '', stderr: '', interrupted: false, isImage: false } }
      : { session_id: 's', cwd: ws, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: e.run }, tool_use_id: id, error: `Exit code ${e.exit}\n${e.output ?? ''}`, is_interrupt: false };
    await runHook('claude', 'post', JSON.stringify(post), opts);
  }
  return answers;
}

describe('the replay decides as the live gate', () => {
  for (const threshold of [3, 5]) {
    test(`a session's history through Claude Code's hooks and through the replay: the same decision for every run (threshold ${threshold})`, async () => {
      const ws = realpathSync(tempDir());
      const live = await throughHooks(ws, SESSION, threshold);
      const replayed = (await replayTrajectory(trajectory(ws, SESSION), { threshold })).map(s => shaped(s.decision));
      assert.deepEqual(live, replayed);
      // the history exercised every answer: the loop denied, the fix run, the budget spent, the pass
      assert.ok(replayed.includes('deny') && replayed.includes('allow'));
      assert.ok(replayed.includes('ask'), 'three wrong fixes, then a person decides');
    });
  }
});
