// Turns hook payloads captured from the real harnesses (AGENTS_CAPTURE=dir npm run test:agents)
// into unit-test fixtures: test/unit/fixtures/hooks/<harness>/real-<version>/<name>.json, each
// naming the harness and version it came from, with its machine paths replaced by neutral ones.
// The expectation of each fixture is what the suite's scripts really did (build.sh fails with exit
// 1 and "Cannot find module 'left-pad'", ok.sh succeeds; the edit scenario writes notes.txt "alpha",
// edits it to "beta", then tries an edit whose old text is not there; the ask scenario's last
// build.sh run comes after five identical failures and an edit), never what the adapter says.
// Captures are kept per scenario (dir/<harness>/<tag>: loop, edit-<tools>, ask).
//
// usage: node test/agents/fixtures.mjs <capture dir>
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_PACKAGES } from './install.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(REPO_ROOT, 'test', 'unit', 'fixtures', 'hooks');

/** Machine paths of the run (a temp root with ws/ and home/) made neutral, in every string. */
function neutral(value) {
  const text = JSON.stringify(value)
    .replace(/\/tmp\/fm-agents-[A-Za-z0-9-]+\/ws/g, '{{ROOT}}')
    .replace(/\/tmp\/fm-agents-[A-Za-z0-9-]+\/home/g, '/home/dev');
  return JSON.parse(text);
}

/** The call's expected result, from what the suite's scripts do. */
function expectation(event, text) {
  const failing = text.includes('build.sh');
  const clear = text.includes('ok.sh');
  if (event === 'pre') return failing ? { command: 'build.sh' } : clear ? { command: 'ok.sh' } : {};
  if (event !== 'post') return {};
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
  const exp = expectation(event, raw);
  const name = event === 'post' ? (exp.recorded === false ? 'post-refused' : exp.exitCode === 0 ? 'post-success' : exp.exitCode === 1 ? 'post-failure' : 'post') : event;
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
    .map(({ f, m }) => ({ harness: m[2], event: m[3], raw: fs.readFileSync(f, 'utf8') }));
  const lastBuild = parsed.findLast(x => x.event === 'pre' && x.raw.includes('build.sh'));
  for (const x of parsed) {
    const c = classify(harness, tag, x.event, x.raw, x === lastBuild);
    if (!c || byKind.has(c.name)) continue;
    const payload = JSON.parse(x.raw);
    const meta = tag === 'ask' && harness === 'codex' ? sessionMeta(payload) : undefined;
    byKind.set(c.name, { harness: x.harness, event: x.event, payload, expect: c.expect, transcript: transcriptLines(payload), sessionMeta: meta });
  }
  return byKind;
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node test/agents/fixtures.mjs <capture dir>');
  process.exit(2);
}
for (const harness of fs.readdirSync(dir)) {
  const info = HARNESS_PACKAGES[harness];
  if (!info) continue;
  const outDir = path.join(OUT, harness, `real-${info.version}`);
  fs.mkdirSync(outDir, { recursive: true });
  for (const tag of fs.readdirSync(path.join(dir, harness))) {
    const tagDir = path.join(dir, harness, tag);
    if (!fs.statSync(tagDir).isDirectory()) continue;
    const files = fs.readdirSync(tagDir).sort().map(f => path.join(tagDir, f));
    for (const [name, f] of pick(harness, tag, files)) {
      const fixture = {
        $doc: `Captured from ${info.pkg}@${info.version} (the real ${harness} CLI from npm) by the agents suite: AGENTS_CAPTURE=dir npm run test:agents, then node test/agents/fixtures.mjs dir`,
        harness,
        version: info.version,
        event: f.event,
        ...(f.harness !== harness ? { hookFormat: f.harness } : {}),
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
