// setup-agents with the user's own configuration files, as a careful package manager treats them:
// edited in place (comments, indentation, key order, the user's empty lists kept; --remove gives the
// file back byte for byte), never written through a symbolic link, and all or nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { appendElement, appendProperty, removeAt, styleOf } from '../../src/agents/jsoncEdit';
import { hookCommand, isOurCommand } from '../../src/agents/setup';
import { applySetup, planSetup, SetupWriteError } from '../../src/agents/setupFiles';
import { HARNESS_IDS, HOOK_EVENTS, type HarnessId } from '../../src/agents/hooks/types';
import { tempFolders } from '../support/tempFolders';

const CLI = resolve(__dirname, '../../dist/cli.js');
const temp = tempFolders('fm-setup-files-');
const tmp = () => realpathSync(temp());
const read = (ws: string, f: string) => readFileSync(join(ws, f), 'utf8');
const put = (ws: string, f: string, text: string) => {
  mkdirSync(join(ws, f, '..'), { recursive: true });
  writeFileSync(join(ws, f), text);
};
const setup = (ws: string, harnesses: HarnessId[], remove = false) => applySetup(ws, planSetup(ws, { harnesses, remove }));

/**
 * dist/cli.js (one self-contained bundle) copied into a temp folder `user` may read: the clone may
 * live where only root can go (a 0700 `mktemp -d`, root's home). A reason to skip when `user` still
 * cannot run it there (Node itself out of reach, the temp folder private).
 */
function cliCopyFor(user: string, ws: string): string | { skip: string } {
  const dir = temp();
  chmodSync(dir, 0o755);
  const cli = join(dir, 'cli.js');
  copyFileSync(CLI, cli);
  const probe = spawnSync('runuser', ['-u', user, '--', process.execPath, '-e', 'for (const p of process.argv.slice(1)) require("node:fs").accessSync(p)', cli, ws], { encoding: 'utf8' });
  if (probe.status === 0) return cli;
  return { skip: `${user} cannot run ${process.execPath} on ${cli} in ${ws}: ${(probe.error?.message ?? probe.stderr).trim().split('\n')[0]}` };
}

const CLAUDE_4_SPACES = `{
    // project settings, shared with the team
    "permissions": {
        "allow": ["Bash(ls)", "Bash(git status)"]
    },
    "model": "opus",
    "hooks": {
        "Stop": [],
        "PreToolUse": [
            {
                "matcher": "Edit",
                "hooks": [{ "type": "command", "command": "echo mine" }]
            }
        ]
    },
    /* trailing settings */
    "env": { "FOO": "1" }
}
`;

describe('the user\'s file, given back byte for byte', () => {
  test('claude: 4-space indent, comments, key order and an empty "Stop": [] survive setup, and --remove restores the file exactly', () => {
    const ws = tmp();
    put(ws, '.claude/settings.json', CLAUDE_4_SPACES);
    setup(ws, ['claude']);
    const after = read(ws, '.claude/settings.json');
    assert.ok(after.startsWith('{\n    // project settings, shared with the team\n    "permissions": {\n        "allow": ["Bash(ls)", "Bash(git status)"]\n    },\n    "model": "opus",\n    "hooks": {\n        "Stop": [],\n'), after);
    assert.match(after, /\/\* trailing settings \*\/\n {4}"env": \{ "FOO": "1" \}\n\}\n$/);
    // ours after the user's own hook, indented like the file
    assert.match(after, /"hooks": \[\{ "type": "command", "command": "echo mine" \}\]\n {12}\},\n {12}\{\n {16}"matcher": "Bash[|\w]*",/);
    assert.ok(planSetup(ws, { harnesses: ['claude'] }).every(c => c.action === 'unchanged'), 'a second run changes nothing');
    setup(ws, ['claude'], true);
    assert.equal(read(ws, '.claude/settings.json'), CLAUDE_4_SPACES);
  });

  test('cursor with tabs and CRLF line endings; codex with no hooks yet: both restored exactly', () => {
    const ws = tmp();
    const cursor = '{\r\n\t"version": 1,\r\n\t"hooks": {\r\n\t\t"stop": [{ "command": "./notify.sh" }]\r\n\t}\r\n}\r\n';
    const codex = '{\n  "model": "o4"\n}\n';
    put(ws, '.cursor/hooks.json', cursor);
    put(ws, '.codex/hooks.json', codex);
    setup(ws, ['cursor', 'codex']);
    const c = read(ws, '.cursor/hooks.json');
    assert.ok(!/[^\r]\n/.test(c), 'CRLF kept on every line');
    assert.match(c, /\r\n\t\t"beforeShellExecution": \[\r\n\t\t\t\{\r\n\t\t\t\t"command": /);
    assert.match(read(ws, '.codex/hooks.json'), /^\{\n {2}"model": "o4",\n {2}"hooks": \{\n {4}"PreToolUse": \[/);
    setup(ws, ['cursor', 'codex'], true);
    assert.equal(read(ws, '.cursor/hooks.json'), cursor);
    assert.equal(read(ws, '.codex/hooks.json'), codex);
  });

  test('gemini settings.json with // comments (JSONC, which Gemini reads) is edited, not skipped', () => {
    const ws = tmp();
    const gemini = '{\n  // the model we use\n  "model": { "name": "gemini-2.5-pro" },\n  "hooks": {\n    // our own formatter\n    "AfterTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "prettier -w" }] }],\n  },\n}\n';
    put(ws, '.gemini/settings.json', gemini);
    const plan = planSetup(ws, { harnesses: ['gemini'] });
    assert.equal(plan[0].action, 'update', plan[0].reason);
    applySetup(ws, plan);
    const after = read(ws, '.gemini/settings.json');
    assert.match(after, /\/\/ the model we use/);
    assert.match(after, /\/\/ our own formatter/);
    assert.match(after, /"command": "prettier -w" \}\] \}, \{"matcher":"run_shell_command[|\w]*"/, 'a list written on one line stays on one line');
    setup(ws, ['gemini'], true);
    assert.equal(read(ws, '.gemini/settings.json'), gemini);
  });

  test('an older version of our entries is replaced in place; a file only we filled is deleted by --remove', () => {
    const ws = tmp();
    setup(ws, ['windsurf']);
    const ours = read(ws, '.windsurf/hooks.json');
    put(ws, '.windsurf/hooks.json', ours.replace('hook windsurf pre', 'hook windsurf pre ').replace('show_output', 'x_show_output'));
    const plan = planSetup(ws, { harnesses: ['windsurf'] });
    assert.equal(plan[0].action, 'update');
    applySetup(ws, plan);
    assert.equal(read(ws, '.windsurf/hooks.json'), ours);
    setup(ws, ['windsurf'], true);
    assert.equal(existsSync(join(ws, '.windsurf/hooks.json')), false);
  });
});

describe('never through a symbolic link', () => {
  test('a hooks file that links outside the repository is skipped and said so; the file it points to is untouched', () => {
    const ws = tmp();
    const outside = join(tmp(), 'elsewhere.json');
    writeFileSync(outside, '{"hooks": {}}\n');
    mkdirSync(join(ws, '.windsurf'));
    symlinkSync(outside, join(ws, '.windsurf/hooks.json'));
    const plan = planSetup(ws, { harnesses: ['windsurf', 'claude'] });
    const w = plan.find(c => c.file === '.windsurf/hooks.json')!;
    assert.equal(w.action, 'skip');
    assert.match(w.reason!, /symbolic link/);
    applySetup(ws, plan);
    assert.equal(readFileSync(outside, 'utf8'), '{"hooks": {}}\n');
    assert.ok(existsSync(join(ws, '.claude/settings.json')), 'the other harness is set up');
    // a linked folder on the way is a link too
    const dir = tmp();
    symlinkSync(dir, join(ws, '.codex'));
    assert.match(planSetup(ws, { harnesses: ['codex'] })[0].reason!, /^\.codex is a symbolic link/);
    // through the CLI: said on stdout, exit 1, nothing written there
    const r = spawnSync(process.execPath, [CLI, 'setup-agents', '--harness', 'windsurf,codex', '--workspace', ws], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /skip \.windsurf\/hooks\.json \(windsurf\) — it is a symbolic link: left untouched/);
    assert.equal(readFileSync(outside, 'utf8'), '{"hooks": {}}\n');
    assert.equal(existsSync(join(dir, 'hooks.json')), false);
  });

  test('a link that appears between the plan and the write stops the whole plan', () => {
    const ws = tmp();
    const plan = planSetup(ws, { harnesses: ['claude', 'windsurf'] });
    const outside = join(tmp(), 'x.json');
    writeFileSync(outside, 'theirs');
    mkdirSync(join(ws, '.windsurf'));
    symlinkSync(outside, join(ws, '.windsurf/hooks.json'));
    assert.throws(() => applySetup(ws, plan), (e: unknown) => e instanceof SetupWriteError && /\.windsurf\/hooks\.json: it is a symbolic link/.test(e.message));
    assert.equal(existsSync(join(ws, '.claude/settings.json')), false, 'nothing written');
    assert.equal(readFileSync(outside, 'utf8'), 'theirs');
  });
});

describe('all or nothing', () => {
  test('a write that fails midway puts back the files written before it', () => {
    const ws = tmp();
    put(ws, '.claude/settings.json', CLAUDE_4_SPACES);
    const plan = planSetup(ws, { harnesses: ['claude', 'windsurf'] });
    // the second file appears after the plan: its create must not overwrite it
    put(ws, '.windsurf/hooks.json', '{"mine": true}');
    assert.throws(() => applySetup(ws, plan), (e: unknown) => e instanceof SetupWriteError && /^\.windsurf\/hooks\.json: cannot be written \(EEXIST\); the files written before it were put back/.test(e.message));
    assert.equal(read(ws, '.claude/settings.json'), CLAUDE_4_SPACES);
    assert.equal(read(ws, '.windsurf/hooks.json'), '{"mine": true}');
  });

  test('a read-only file: one clear line per file, no stack trace, and nothing else is written', t => {
    const ws = tmp();
    put(ws, '.claude/settings.json', '{}\n');
    put(ws, '.cursor/hooks.json', '{"version": 1}\n');
    mkdirSync(join(ws, '.gemini'));
    chmodSync(join(ws, '.claude/settings.json'), 0o444);
    chmodSync(join(ws, '.cursor/hooks.json'), 0o444);
    // root may write a read-only file: run as an ordinary user then, in folders it may write
    const asRoot = process.getuid?.() === 0;
    if (asRoot) for (const d of ['', '.claude', '.cursor', '.gemini']) chmodSync(join(ws, d), 0o777);
    const cli = asRoot ? cliCopyFor('nobody', ws) : CLI;
    if (typeof cli !== 'string') return t.skip(cli.skip);
    const args = [cli, 'setup-agents', '--harness', 'claude,cursor,gemini', '--workspace', ws];
    const r = asRoot ? spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, ...args], { encoding: 'utf8' }) : spawnSync(process.execPath, args, { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual(r.stderr.trim().split('\n'), [
      'failure-memory: .claude/settings.json: read-only (EACCES); nothing was written.',
      'failure-memory: .cursor/hooks.json: read-only (EACCES); nothing was written.',
    ]);
    assert.equal(existsSync(join(ws, '.gemini/settings.json')), false, 'the writable target is not written either');
    assert.equal(read(ws, '.claude/settings.json'), '{}\n');
  });
});

describe('odd files: a byte order mark, deep nesting', () => {
  test('a UTF-8 byte order mark (as Windows editors write) is accepted, kept, and --remove gives the file back byte for byte', () => {
    const ws = tmp();
    const original = `\ufeff${CLAUDE_4_SPACES}`;
    put(ws, '.claude/settings.json', original);
    setup(ws, ['claude']);
    const after = read(ws, '.claude/settings.json');
    assert.ok(after.startsWith('\ufeff{\n    // project settings'), 'the mark is still first');
    assert.match(after, /failure-memory/);
    assert.ok(planSetup(ws, { harnesses: ['claude'] }).every(c => c.action === 'unchanged'));
    setup(ws, ['claude'], true);
    assert.deepEqual(readFileSync(join(ws, '.claude/settings.json')), Buffer.from(original));
  });

  test('a file nested 100,000 deep: setup and doctor say so in a sentence, no stack trace, nothing written', () => {
    const ws = tmp();
    const deep = `{"permissions": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    put(ws, '.claude/settings.json', deep);
    const [plan] = planSetup(ws, { harnesses: ['claude'] });
    assert.equal(plan.action, 'skip');
    assert.match(plan.reason ?? '', /nested more than 512 levels deep/);
    const home = tmp();
    for (const args of [['setup-agents', '--harness', 'claude'], ['doctor', '--harness', 'claude']]) {
      const r = spawnSync(process.execPath, [CLI, ...args, '--workspace', ws], { encoding: 'utf8', env: { ...process.env, HOME: home, FAILURE_MEMORY_STATE_DIR: join(home, 'state') } });
      assert.doesNotMatch(r.stdout + r.stderr, /RangeError|Maximum call stack|\n\s+at /, args[0]);
      if (args[0] === 'setup-agents') assert.match(r.stdout, /skip \.claude\/settings\.json \(claude\) — not valid JSON \(nested more than 512 levels deep\)/);
    }
    assert.equal(read(ws, '.claude/settings.json'), deep);
  });
});

describe('the JSONC editor', () => {
  test('add then remove is the identity, whatever the layout', () => {
    const texts = ['{}', '{\n}\n', '{"a": [1, 2]}', '{\n  "a": [\n    1\n  ],\n  "b": {},\n}', '{\n\t"a": [] // none yet\n}', '[\n  1,\n  2\n]'];
    for (const text of texts) {
      const style = styleOf(text);
      if (text.startsWith('[')) {
        assert.equal(removeAt(appendElement(text, [], { x: 1 }, style), [2]), text);
        continue;
      }
      const added = appendProperty(text, [], 'hooks', { Pre: [{ command: 'x' }] }, style);
      assert.equal(removeAt(added, ['hooks']), text.replace(/^\{\n\}/, '{}'), JSON.stringify(text));
      if (text.includes('"a": [')) assert.equal(removeAt(appendElement(text, ['a'], 'y', style), ['a', text.includes('1') ? (text.includes('2') ? 2 : 1) : 0]), text);
    }
  });

  test('our entries are recognised, whichever harness wrote them', () => {
    assert.ok(isOurCommand('f="${FAILURE_MEMORY_BIN:-$HOME/.failure-memory/bin/failure-memory}"; exec "$f" hook claude pre'));
    assert.ok(!isOurCommand('echo hook claude pre'));
    for (const h of HARNESS_IDS) for (const e of HOOK_EVENTS) assert.ok(isOurCommand(hookCommand(h, e)), `${h} ${e}`);
    assert.ok(!isOurCommand('failure-memory hook claudex pre'));
  });
});
