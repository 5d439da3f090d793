// What each bundle of dist/ holds, against a size budget per bundle. The build writes esbuild's
// metafile (dist/meta/bundles.json: every input of every output, with the bytes it adds); a bundle
// past its budget fails naming its biggest inputs, so that whoever grew it sees where from (a new
// dependency, or an import that pulled a door's code into the hook path). The hook bundles are also
// held to what the hook path may load at all: no MCP SDK, no zod, no embeddings, no PostgreSQL
// driver (a hook call costs about one Node start). Budgets are for `node esbuild.mjs` (what the
// integration tier builds; the hooks are minified there too): about a tenth above today's sizes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '../..');
const META = resolve(ROOT, 'dist/meta/bundles.json');

/** Kilobytes (1,024 bytes) each bundle may weigh. A new bundle needs an entry here. */
const BUDGET_KB: Record<string, number> = {
  'dist/extension.js': 1780, // 1616 KB with pattern records and the gate's copy
  'dist/cli.js': 2400,
  'dist/team-sync.js': 1220, // 1105 KB with team pattern records
  'dist/embed-worker.js': 1600,
  // the hooks: dist/hook.js loads one of the others (and checks the signature of its code cache);
  // a tenth above their sizes with pattern records and the gate's copy (446, 489, 487 KB)
  'dist/hook.js': 6,
  'dist/hook-main.js': 490,
  'dist/hook-post.js': 540,
  'dist/hook-record.js': 535,
  // the panel's browser code
  'dist/webview.js': 130,
  // the reflection view checks its document with zod/mini, as the panel does (4.3 KB before, 48.7 KB with it; 22.6 KB minified)
  'dist/reflection.js': 54,
};

/** What the hook bundles must not hold: the MCP server, zod, recall by meaning, the team's database driver. */
const NOT_ON_THE_HOOK_PATH = [/^@modelcontextprotocol\//, /^zod(?:-to-json-schema)?$/, /^src\/embeddings\//, /^pg(?:-.+)?$/, /^@huggingface\//, /^onnxruntime/];

interface Output {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
}

function bundles(): Record<string, Output> {
  assert.ok(existsSync(META), `${META} is missing: build first (node esbuild.mjs)`);
  const { outputs } = JSON.parse(readFileSync(META, 'utf8')) as { outputs: Record<string, Output> };
  return Object.fromEntries(Object.entries(outputs).filter(([out]) => out.endsWith('.js')));
}

/** An input by what it belongs to: its npm package, or its file of ours. */
function owner(input: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return pkg ? pkg[1] : input;
}

/** A bundle's inputs grouped by owner, biggest first, in bytes. */
function contents(o: Output): Array<[string, number]> {
  const by = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(o.inputs)) by.set(owner(input), (by.get(owner(input)) ?? 0) + bytesInOutput);
  return [...by].sort((a, b) => b[1] - a[1]);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Each bundle past its budget, with its biggest inputs. */
function overBudget(outs: Record<string, Output>, budgets: Record<string, number>): string[] {
  const over: string[] = [];
  for (const [out, o] of Object.entries(outs)) {
    const budget = budgets[out];
    if (budget === undefined || o.bytes <= budget * 1024) continue;
    const top = contents(o).slice(0, 8).map(([name, bytes]) => `    ${kb(bytes).padStart(10)}  ${name}`);
    over.push(`${out}: ${kb(o.bytes)}, over its budget of ${budget} KB. Its biggest inputs:\n${top.join('\n')}`);
  }
  return over;
}

/** What a hook bundle holds that the hook path must not load. */
function offTheHookPath(outs: Record<string, Output>): string[] {
  const found: string[] = [];
  for (const [out, o] of Object.entries(outs)) {
    if (!/^dist\/hook[-.]/.test(out)) continue;
    for (const [name, bytes] of contents(o)) if (NOT_ON_THE_HOOK_PATH.some(re => re.test(name))) found.push(`${out}: ${name} (${kb(bytes)})`);
  }
  return found;
}

test('every bundle was written by the build that wrote the metafile, and has a budget', () => {
  const outs = bundles();
  for (const [out, o] of Object.entries(outs)) assert.equal(statSync(resolve(ROOT, out)).size, o.bytes, `${out} is not the build the metafile describes: build again`);
  assert.deepEqual(Object.keys(outs).sort(), Object.keys(BUDGET_KB).sort(), 'a bundle without a budget (add it to BUDGET_KB), or a budget for a bundle no longer built');
});

test('each bundle within its budget', () => {
  const over = overBudget(bundles(), BUDGET_KB);
  assert.deepEqual(over, [], over.join('\n'));
});

test('the hook bundles hold nothing the hook path must not load', () => {
  assert.deepEqual(offTheHookPath(bundles()), []);
});

test('a bundle past its budget is named with its biggest inputs; a door\'s package in a hook is named', () => {
  const outs: Record<string, Output> = {
    'dist/hook-main.js': { bytes: 5000, inputs: { 'node_modules/zod/v4/a.js': { bytesInOutput: 3000 }, 'node_modules/zod/v4/b.js': { bytesInOutput: 1000 }, 'src/hook.ts': { bytesInOutput: 1000 } } },
    'dist/webview.js': { bytes: 5000, inputs: { 'node_modules/zod/v4/a.js': { bytesInOutput: 5000 } } },
  };
  assert.deepEqual(overBudget(outs, { 'dist/hook-main.js': 4, 'dist/webview.js': 5 }), [
    'dist/hook-main.js: 4.9 KB, over its budget of 4 KB. Its biggest inputs:\n        3.9 KB  zod\n        1.0 KB  src/hook.ts',
  ]);
  assert.deepEqual(offTheHookPath(outs), ['dist/hook-main.js: zod (3.9 KB)']);
});
