// Turns hook payloads captured from the real harnesses (AGENTS_CAPTURE=dir npm run test:agents)
// into test fixtures: test/fixtures/hooks/<harness>/real-<version>/<name>.json, each
// naming the harness and version it came from (and the hook that ran, where the program runs another
// harness's entry: VS Code runs Copilot's), with its machine paths replaced by neutral ones.
// The expectation of each fixture is what the suite's scripts really did (build.sh fails with exit
// 1 and "Cannot find module 'left-pad'", ok.sh succeeds; the edit scenario writes notes.txt "alpha",
// edits it to "beta", then tries an edit whose old text is not there; the ask scenario's last
// build.sh run comes after five identical failures and an edit), never what the adapter says.
// Captures are kept per scenario (dir/<harness>/<tag>: loop, edit-<tools>, ask).
//
// usage: AGENTS_KEEP=1 AGENTS_CAPTURE=dir npm run test:agents, then node test/agents/fixtures.mjs dir
// (AGENTS_KEEP keeps the HOMEs: Codex's transcripts, read for exit codes and how the session started, live there)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_PACKAGES } from './install.mjs';
import { VSCODE_PROGRAM } from './vscodeAgent.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(REPO_ROOT, 'test', 'fixtures', 'hooks');

/** Machine paths of the run (a temp root with ws/ and home/) made neutral, in every string. */
function neutral(value) {
  const text = JSON.stringify(value)
    .replace(/\/tmp\/fm-agents-[A-Za-z0-9-]+\/ws/g, '{{ROOT}}')
    .replace(/\/tmp\/fm-agents-[A-Za-z0-9-]+\/home/g, '/home/dev')
    // VS Code's user data folder (the e2e harness keeps one per run)
    .replace(/\/[^"]*\/\.e2e\/runs\/[^/"]+\/udd/g, '/home/dev/.config/Code');
  return JSON.parse(text);
}

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

/** What each harness does with the gate's ask in the suite (test/agents/evidence.mjs ASK_OUTCOMES). */
const ASKED = { claude: 'ask', copilot: 'ask', codex: 'deny', gemini: 'warn', cline: 'warn' };

/** The fixture name and expectation of one captured call of scenario `tag`, or undefined to skip it. */
function classify(harness, tag, event, raw, isLastBuild) {
  if (tag === 'ask') return event === 'pre' && isLastBuild ? { name: 'pre-ask', expect: { command: 'build.sh', decision: ASKED[harness] } } : undefined;
  if (tag.startsWith('edit-')) {
    const e = editExpectation(raw);
    // Codex applies a shell-given patch itself: its pre hook is the one report of the edit
    const shellPatch = event === 'pre' && raw.includes('apply_patch <<');
    if (!e || (event !== 'post' && !shellPatch)) return undefined;
    const base = shellPatch ? 'pre-apply-patch' : `post-${tag}`;
    return { name: e.edits[0].ok ? (e.files['notes.txt'] ? `${base}-update` : base) : `${base}-failed`, expect: e };
  }
  const exp = expectation(harness, event, raw);
  const outcome = exp.exitCode === 0 || (harness === 'vscode' && exp.command === 'ok.sh') ? 'post-success' : exp.exitCode === 1 || exp.command === 'build.sh' ? 'post-failure' : 'post';
  const name = event === 'post' ? (exp.recorded === false && harness !== 'vscode' ? 'post-refused' : outcome) : event;
  return { name, expect: exp };
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
    .map(({ f, m }) => ({ hook: m[2], event: m[3], raw: fs.readFileSync(f, 'utf8') }));
  const lastBuild = parsed.findLast(x => x.event === 'pre' && x.raw.includes('build.sh'));
  for (const x of parsed) {
    const c = classify(harness, tag, x.event, x.raw, x === lastBuild);
    if (!c || byKind.has(c.name)) continue;
    const payload = JSON.parse(x.raw);
    const meta = tag === 'ask' && harness === 'codex' ? sessionMeta(payload) : undefined;
    byKind.set(c.name, { hook: x.hook, event: x.event, payload, expect: c.expect, transcript: transcriptLines(payload), sessionMeta: meta });
  }
  return byKind;
}

/** Where each program came from, for the fixture's $doc. */
function origin(harness, info) {
  if (harness === 'vscode') return `VS Code ${info.version} (code-server@${info.codeServer} from npm, its built-in Copilot Chat in agent mode on a BYOK Ollama mock)`;
  return `${info.pkg}@${info.version} (the real ${harness} CLI from npm)`;
}

/** A harness's captures by scenario (dir/<harness>/<tag>/); files right under dir/<harness> are the loop scenario. */
function scenarios(harnessDir) {
  const entries = fs.readdirSync(harnessDir).sort();
  const tags = entries.filter(e => fs.statSync(path.join(harnessDir, e)).isDirectory())
    .map(tag => [tag, fs.readdirSync(path.join(harnessDir, tag)).sort().map(f => path.join(harnessDir, tag, f))]);
  const flat = entries.filter(e => fs.statSync(path.join(harnessDir, e)).isFile()).map(f => path.join(harnessDir, f));
  return flat.length ? [['loop', flat], ...tags] : tags;
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
      };
      fs.writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
      console.log(`${path.relative(REPO_ROOT, path.join(outDir, `${name}.json`))}`);
    }
  }
}
