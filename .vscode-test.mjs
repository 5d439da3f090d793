// For contributors whose machines can download VS Code: `npm run test:electron` runs
// test/electron/*.test.js inside a downloaded desktop VS Code (@vscode/test-electron).
// `npm test` does not use it: there, the end-to-end tests drive code-server (test/e2e/).
import { defineConfig } from '@vscode/test-cli';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scratch = mkdtempSync(join(tmpdir(), 'fm-electron-'));

export default defineConfig({
  files: 'test/electron/**/*.test.js',
  version: '1.100.3',
  workspaceFolder: mkdtempSync(join(scratch, 'workspace-')),
  // the extension appends each decision (recorded, blocked…) to this file as a JSON line
  env: { FAILURE_MEMORY_E2E_LOG: join(scratch, 'events.jsonl') },
  mocha: { ui: 'tdd', timeout: 60000 },
});
