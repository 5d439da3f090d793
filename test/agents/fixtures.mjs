// Turns hook payloads captured from the real harnesses (AGENTS_CAPTURE=dir npm run test:agents)
// into test fixtures: test/fixtures/hooks/<harness>/real-<version>/<name>.json, each
// naming the harness and version it came from (and the hook that ran, where the program runs another
// harness's entry: VS Code runs Copilot's), with its machine paths replaced by neutral ones.
// The expectation of each fixture is what the suite's scripts really did (the npm project's suite
// fails with "Cannot find module 'left-pad'" while src/pad.js requires it, as the capture hook saw the
// file, and passes after the fix; the sixth run is refused, the run after a fix is warned, each
// respelled form in the exhausted project is refused, the run after the spent change budget is an
// ask refused headless; the edit scenario writes notes.txt "alpha", edits it to "beta", then tries an
// edit whose old text is not there; VS Code's build.sh fails, ok.sh succeeds), never what the adapter
// says. Each keeps what the hook could tell of the session (capture-hook.sh: the harness's
// CLAUDE_CODE_ENTRYPOINT, its process's command line and stdin). Captures are kept per scenario
// (dir/<harness>/<tag>: session, respelled, edit-<tools>; loop for VS Code).
//
// usage: AGENTS_KEEP=1 AGENTS_CAPTURE=dir npm run test:agents, then node test/agents/fixtures.mjs dir
// (AGENTS_KEEP keeps the HOMEs: Codex's transcripts, read for exit codes and how the session started, live there)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_PACKAGES } from './install.mjs';
import { VSCODE_PROGRAM } from './vscodeAgent.mjs';
import { FUTILE_FIXES, RESPELLED } from './scenarios.mjs';
import { PAD, RIGHT_FIX } from './session.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(REPO_ROOT, 'test', 'fixtures', 'hooks');

/** Machine paths of the run (a temp root with ws/, other/ and home/) made neutral, in a text. */
function neutralText(text) {
  return text
    .replace(/\/tmp\/fm-agents-[A-Za-z0-9-]+\/(?:ws|other)/g, '{{ROOT}}')
    .replace(/\/tmp\/fm-agents-[A-Za-z0-9-]+\/home/g, '/home/dev')
    // the harness programs, wherever the suite installed them
    .replace(/\/[^"\s]*\/\.agents\/harnesses\/node_modules/g, '/usr/lib/node_modules')
    // VS Code's user data folder (the e2e harness keeps one per run)
    .replace(/\/[^"]*\/\.e2e\/runs\/[^/"]+\/udd/g, '/home/dev/.config/Code');
}

/** The same in every string of a value. */
const neutral = value => JSON.parse(neutralText(JSON.stringify(value)));

/** The call's expected result, from what the suite's scripts do. */
function expectation(harness, event, text) {
  const failing = text.includes('build.sh');
  const clear = text.includes('ok.sh');
  if (event === 'pre') return failing ? { command: 'build.sh' } : clear ? { command: 'ok.sh' } : {};
  if (event !== 'post') return {};
  // VS Code: the extension records its terminal's runs; the hook only hands the output over
  if (harness === 'vscode') return failing ? { command: 'build.sh', recorded: false, outputIncludes: "Cannot find module 'left-pad'" } : { command: 'ok.sh', recorded: false };
  if (text.includes('failure-memory refused')) return { recorded: false };
  if (failing) return { command: 'build.sh', exitCode: 1, outputIncludes: "Cannot find module 'left-pad'" };
  if (clear) return { command: 'ok.sh', exitCode: 0 };
  return {};
}

/**
 * An edit scenario's call: notes.txt written ("alpha"), edited to "beta", then an edit of "gamma" that
 * cannot apply. `files`: the workspace before the call (what Codex's check of a shell-given patch reads).
 */
function editExpectation(text) {
  if (!text.includes('notes.txt')) return undefined;
  if (text.includes('gamma')) return { edits: [{ path: 'notes.txt', ok: false }], files: { 'notes.txt': 'beta\n' } };
  if (/alpha[^"]{0,40}beta|"old_str(?:ing)?":"alpha"|"old_text":"alpha"|-alpha/.test(text)) return { edits: [{ path: 'notes.txt', ok: true }], files: { 'notes.txt': 'alpha\n' } };
  return { edits: [{ path: 'notes.txt', ok: true }], files: {} };
}

/** A shell call's command lines as the payload gives them (any harness's shape). */
function commandsIn(payload) {
  const input = payload.tool_input ?? payload.toolArgs ?? {};
  const args = typeof input === 'string' ? (() => { try { return JSON.parse(input); } catch { return {}; } })() : input;
  const cline = payload.tool_call?.input?.commands ?? payload.tool_result?.input?.commands;
  if (Array.isArray(cline)) return cline;
  if (Array.isArray(args.commands)) return args.commands;
  const c = args.command ?? args.cmd;
  return typeof c === 'string' ? [c] : Array.isArray(c) ? [c.join(' ')] : [];
}

const isTestRun = c => /^npm test(?: -- [\w-]+)?$/.test(c);
const slug = c => c.replace(/&&/g, ' and ').replace(/;/g, ' then ').replace(/\|/g, ' pipe ').replace(/\{/g, ' group ').replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');

/** An edit scenario's call, or a fix of src/pad.js in the whole session (its first: the wrong fix). */
function sessionEdit(raw) {
  if (raw.includes('NOTES.md')) return { kind: 'write', edits: [{ path: 'NOTES.md', ok: true }], files: {} };
  if (!raw.includes('src/pad.js')) return undefined;
  if (raw.includes('no such line')) return { kind: 'failed', edits: [{ path: 'src/pad.js', ok: false }], files: { 'src/pad.js': PAD.replace(RIGHT_FIX[0], RIGHT_FIX[1]) } };
  if (/leftPad\(String\(s\), n\)/.test(raw) && !/Number\(n\)/.test(raw)) return { kind: 'fix', edits: [{ path: 'src/pad.js', ok: true }], files: { 'src/pad.js': PAD } };
  return undefined;
}

function editFixture(tag, event, raw) {
  const session = tag.startsWith('edit-') ? undefined : sessionEdit(raw);
  const e = tag.startsWith('edit-') ? editExpectation(raw) : session && { edits: session.edits, files: session.files };
  // Codex applies a shell-given patch itself: its pre hook is the one report of the edit
  const shellPatch = event === 'pre' && raw.includes('apply_patch <<');
  if (!e || (event !== 'post' && !shellPatch)) return undefined;
  if (session) return { name: `${shellPatch ? 'pre-apply-patch' : 'post-edit'}-${session.kind}`, expect: e };
  const base = shellPatch ? 'pre-apply-patch' : `post-${tag}`;
  return { name: e.edits[0].ok ? (e.files['notes.txt'] ? `${base}-update` : base) : `${base}-failed`, expect: e };
}

/**
 * A whole session's call (./scenarios.mjs harnessSession), from what the suite did: the first run of the
 * failing suite, its results (failing or passing, by the project's state when the hook ran), the sixth
 * run (exhausted, nothing changed), the run after the wrong fix; in the second project each respelled
 * form, and the run after the change budget is spent (the ask, refused headless).
 */
function sessionFixture(harness, tag, event, x, nth) {
  // VS Code's whole session is one window: the respelled forms and the ask come in its own project, and
  // its post payloads are not records (the extension records the terminal): only its pre calls are kept
  if (harness === 'vscode') return event === 'pre' ? vscodeFixture(x, nth) : undefined;
  const commands = commandsIn(x.payload);
  const command = commands.find(c => !c.startsWith(': failure-memory refused')) ?? '';
  if (event === 'session-start' || event === 'prompt') return tag === 'session' ? { name: event, expect: {} } : undefined;
  if (event === 'post') {
    if (commands.some(c => c.startsWith(': failure-memory refused'))) return { name: 'post-refused', expect: { recorded: false } };
    if (tag !== 'session' || !isTestRun(command)) return undefined;
    return x.context.suite === 'passes' ? { name: 'post-success', expect: { command: 'npm test', exitCode: 0 } } : { name: 'post-failure', expect: { command: 'npm test', exitCode: 1, outputIncludes: "Cannot find module 'left-pad'" } };
  }
  if (event !== 'pre') return undefined;
  if (tag === 'session' && isTestRun(command)) {
    const n = nth(command);
    if (n === 1) return { name: 'pre', expect: { command: 'npm test' } };
    if (n === 6) return { name: 'pre-exhausted', expect: { command, decision: 'deny' } };
    if (n === 8) return { name: 'pre-after-fix', expect: { command: 'npm test', decision: 'warn' } };
    return undefined;
  }
  if (tag === 'respelled') {
    if (RESPELLED.includes(command)) return { name: `pre-${slug(command)}`, expect: { command, decision: 'deny' } };
    if (command === 'npm test' && nth(command) === 3) return { name: 'pre-ask', expect: { command: 'npm test', decision: 'deny', asked: true } };
  }
  return undefined;
}

/** VS Code's pre calls: the sixth run, the run after the wrong fix, each respelled form, the ask (put to the person). */
function vscodeFixture(x, nth) {
  const command = commandsIn(x.payload)[0] ?? '';
  if (RESPELLED.includes(command)) return { name: `pre-${slug(command)}`, expect: { command, decision: 'deny' } };
  if (!isTestRun(command)) return undefined;
  const n = nth(command);
  if (n === 6) return { name: 'pre-exhausted', expect: { command, decision: 'deny' } };
  if (n === 8) return { name: 'pre-after-fix', expect: { command: 'npm test', decision: 'warn' } };
  if (n === 9 + FUTILE_FIXES.length) return { name: 'pre-ask', expect: { command: 'npm test', decision: 'ask', asked: true } };
  return undefined;
}

/** The fixture name and expectation of one captured call of scenario `tag`, or undefined to skip it. */
function classify(harness, tag, x, nth) {
  const edit = harness === 'vscode' ? undefined : editFixture(tag, x.event, x.raw);
  if (edit || tag.startsWith('edit-')) return edit;
  if (tag === 'session' || tag === 'respelled') return sessionFixture(harness, tag, x.event, x, nth);
  if (tag !== 'loop') return undefined;
  const exp = expectation(harness, x.event, x.raw);
  const outcome = exp.exitCode === 0 || (harness === 'vscode' && exp.command === 'ok.sh') ? 'post-success' : exp.exitCode === 1 || exp.command === 'build.sh' ? 'post-failure' : 'post';
  const name = x.event === 'post' ? (exp.recorded === false && harness !== 'vscode' ? 'post-refused' : outcome) : x.event;
  return { name, expect: exp };
}

/** What the hook could tell of the session and the project when it ran (capture-hook.sh's .context file). */
function contextOf(file) {
  const ctx = { argv: [] };
  let text = '';
  try {
    text = fs.readFileSync(file.replace(/\.json$/, '.context'), 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const m = /^(\w+)=(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'argv') ctx.argv.push(neutralText(m[2]));
    else if (m[1] === 'CLAUDE_CODE_ENTRYPOINT') ctx.env = m[2] ? { CLAUDE_CODE_ENTRYPOINT: m[2] } : {};
    else if (m[1] === 'tty') ctx.tty = /^\/dev\/(?:pts\/|tty)/.test(m[2]);
    else ctx[m[1]] = m[2];
  }
  return ctx;
}

/** Codex keeps the exit code in its transcript: the lines for this call go into the fixture. */
function transcriptLines(payload) {
  const file = payload.transcript_path;
  const id = payload.tool_use_id;
  if (payload.hook_event_name !== 'PostToolUse' || !file || !id || !fs.existsSync(file)) return undefined;
  return fs.readFileSync(file, 'utf8').split('\n').filter(l => l.includes(id) && l.includes('exit_code')).map(l => neutral(JSON.parse(l)));
}

/** Codex's first transcript line (session_meta) without its instructions: how the session was started. */
function sessionMeta(payload) {
  const file = payload.transcript_path;
  if (!file || !fs.existsSync(file)) return undefined;
  try {
    const first = JSON.parse(fs.readFileSync(file, 'utf8').split('\n', 1)[0]);
    if (first.type !== 'session_meta') return undefined;
    const { base_instructions: _b, ...meta } = first.payload ?? {};
    return neutral({ ...first, payload: meta });
  } catch {
    return undefined;
  }
}

function pick(harness, tag, files) {
  const byKind = new Map();
  const parsed = files
    .map(f => ({ f, m: /^(\d+)-(\w+)-(pre|post|session-start|prompt)\.json$/.exec(path.basename(f)) }))
    .filter(x => x.m)
    .map(({ f, m }) => ({ hook: m[2], event: m[3], raw: fs.readFileSync(f, 'utf8'), context: contextOf(f) ?? {} }))
    .map(x => ({ ...x, payload: JSON.parse(x.raw) }));
  // how many pre calls of a command came before (a harness may run two hooks for one call: counted once)
  const seen = new Map();
  for (const x of parsed) {
    let nth = () => 0;
    if (x.event === 'pre' && (x.hook === harness || harness === 'vscode')) {
      for (const c of commandsIn(x.payload)) seen.set(c, (seen.get(c) ?? 0) + 1);
      const counts = new Map(seen);
      nth = c => (isTestRun(c) ? [...counts].filter(([k]) => isTestRun(k)).reduce((n, [, v]) => n + v, 0) : (counts.get(c) ?? 0));
    }
    const c = classify(harness, tag, x, nth);
    if (!c || byKind.has(c.name)) continue;
    const meta = c.expect.asked && harness === 'codex' ? sessionMeta(x.payload) : undefined;
    // Codex's exit code and session mode are in its transcript, under the run's HOME (AGENTS_KEEP=1 keeps it)
    const transcript = transcriptLines(x.payload);
    if (harness === 'codex' && ((x.event === 'post' && c.expect.exitCode !== undefined && !transcript?.length) || (c.expect.asked && !meta))) {
      console.warn(`skipped ${c.name}: Codex's transcript is gone (capture with AGENTS_KEEP=1)`);
      continue;
    }
    const { argv, tty, env } = x.context;
    const session = argv?.length ? { env: env ?? {}, argv, tty: !!tty } : undefined;
    byKind.set(c.name, { hook: x.hook, event: x.event, payload: x.payload, expect: c.expect, transcript, sessionMeta: meta, session });
  }
  return byKind;
}

/** Where each program came from, for the fixture's $doc. */
function origin(harness, info) {
  if (harness === 'vscode') return `VS Code ${info.version} (code-server@${info.codeServer} from npm, its built-in Copilot Chat in agent mode on a BYOK Ollama mock)`;
  return `${info.pkg}@${info.version} (the real ${harness} CLI from npm)`;
}

/**
 * A harness's captures by scenario (dir/<harness>/<tag>/); files right under dir/<harness> are the loop
 * scenario. A call in the whole session's second project belongs to its `respelled` session wherever it
 * was kept: Cline CLI runs the hooks of later sessions in the hub daemon its first session started,
 * with that session's environment (and so its capture folder).
 */
function scenarios(harnessDir) {
  const entries = fs.readdirSync(harnessDir).sort();
  const byTag = new Map();
  const add = (tag, f) => byTag.set(tag, [...(byTag.get(tag) ?? []), f]);
  for (const e of entries) {
    const p = path.join(harnessDir, e);
    if (fs.statSync(p).isFile()) add('loop', p);
    else for (const f of fs.readdirSync(p).sort()) add(e === 'session' && f.endsWith('.json') && /fm-agents-[A-Za-z0-9-]+\/other\b/.test(fs.readFileSync(path.join(p, f), 'utf8')) ? 'respelled' : e, path.join(p, f));
  }
  for (const files of byTag.values()) files.sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
  return [...byTag];
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node test/agents/fixtures.mjs <capture dir>');
  process.exit(2);
}
for (const harness of fs.readdirSync(dir)) {
  const info = harness === 'vscode' ? VSCODE_PROGRAM : HARNESS_PACKAGES[harness];
  if (!info) continue;
  const outDir = path.join(OUT, harness, `real-${info.version}`);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [tag, files] of scenarios(path.join(dir, harness))) {
    for (const [name, f] of pick(harness, tag, files)) {
      const fixture = {
        $doc: `Captured from ${origin(harness, info)} by the agents suite: AGENTS_CAPTURE=dir npm run test:agents, then node test/agents/fixtures.mjs dir`,
        harness,
        ...(f.hook !== harness ? { hook: f.hook } : {}),
        version: info.version,
        event: f.event,
        payload: neutral(f.payload),
        expect: f.expect,
        ...(f.transcript?.length ? { transcript: f.transcript } : {}),
        ...(f.sessionMeta ? { sessionMeta: f.sessionMeta } : {}),
        ...(f.session ? { session: f.session } : {}),
      };
      fs.writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
      console.log(`${path.relative(REPO_ROOT, path.join(outDir, `${name}.json`))}`);
    }
  }
}
