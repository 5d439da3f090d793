// Turns hook payloads captured from the real harnesses (AGENTS_CAPTURE=dir npm run test:agents)
// into unit-test fixtures: test/unit/fixtures/hooks/<harness>/real-<version>/<name>.json, each
// naming the harness and version it came from (and the hook that ran, where the program runs another
// harness's entry: VS Code runs Copilot's), with its machine paths replaced by neutral ones.
// The expectation of each fixture is what the suite's scripts really did (build.sh fails with exit
// 1 and "Cannot find module 'left-pad'", ok.sh succeeds), never what the adapter says.
//
// usage: node test/agents/fixtures.mjs <capture dir>
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_PACKAGES } from './install.mjs';
import { VSCODE_PROGRAM } from './vscodeAgent.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(REPO_ROOT, 'test', 'unit', 'fixtures', 'hooks');

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

/** Codex keeps the exit code in its transcript: the lines for this call go into the fixture. */
function transcriptLines(payload) {
  const file = payload.transcript_path;
  const id = payload.tool_use_id;
  if (payload.hook_event_name !== 'PostToolUse' || !file || !id || !fs.existsSync(file)) return undefined;
  return fs.readFileSync(file, 'utf8').split('\n').filter(l => l.includes(id) && l.includes('exit_code')).map(l => neutral(JSON.parse(l)));
}

/** `harness`: the program (the capture folder); each file names the hook that ran (VS Code runs Copilot's entries too). */
function pick(harness, files) {
  const byKind = new Map();
  for (const f of files) {
    const [, , hook, event] = /^(\d+)-(\w+)-(pre|post|session-start|prompt)\.json$/.exec(path.basename(f)) ?? [];
    if (!hook) continue;
    const raw = fs.readFileSync(f, 'utf8');
    const payload = JSON.parse(raw);
    const exp = expectation(harness, event, raw);
    const outcome = exp.exitCode === 0 || (harness === 'vscode' && exp.command === 'ok.sh') ? 'post-success' : exp.exitCode === 1 || exp.command === 'build.sh' ? 'post-failure' : 'post';
    const name = event === 'post' ? (exp.recorded === false && harness !== 'vscode' ? 'post-refused' : outcome) : event;
    if (!byKind.has(name)) byKind.set(name, { hook, event, payload, expect: exp, transcript: transcriptLines(payload) });
  }
  return byKind;
}

/** Where each program came from, for the fixture's $doc. */
function origin(harness, info) {
  if (harness === 'vscode') return `VS Code ${info.version} (code-server@${info.codeServer} from npm, its built-in Copilot Chat in agent mode on a BYOK Ollama mock)`;
  return `${info.pkg}@${info.version} (the real ${harness} CLI from npm)`;
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node test/agents/fixtures.mjs <capture dir>');
  process.exit(2);
}
for (const harness of fs.readdirSync(dir)) {
  const info = harness === 'vscode' ? VSCODE_PROGRAM : HARNESS_PACKAGES[harness];
  if (!info) continue;
  const files = fs.readdirSync(path.join(dir, harness)).sort().map(f => path.join(dir, harness, f));
  const outDir = path.join(OUT, harness, `real-${info.version}`);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, f] of pick(harness, files)) {
    const fixture = {
      $doc: `Captured from ${origin(harness, info)} by the agents suite: AGENTS_CAPTURE=dir npm run test:agents, then node test/agents/fixtures.mjs dir`,
      harness,
      ...(f.hook !== harness ? { hook: f.hook } : {}),
      version: info.version,
      event: f.event,
      payload: neutral(f.payload),
      expect: f.expect,
      ...(f.transcript?.length ? { transcript: f.transcript } : {}),
    };
    fs.writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
    console.log(`${path.relative(REPO_ROOT, path.join(outDir, `${name}.json`))}`);
  }
}
