// Agents in the real VS Code: the language-model tools are registered, and vscode.lm.invokeTool
// ('failure_memory_check') answers "exhausted" for an approach whose five failures an agent
// recorded from outside (the CLI, as a hook would). The MCP server definition offered to VS Code
// launches a server that sees the same memory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from './harness.mjs';

export const timeout = 150_000;

const CLI = path.join(REPO_ROOT, 'dist/cli.js');
const PRISMA = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /home/dev/app/node_modules/.prisma/client/index.js\n";
const TOOLS = ['failure_memory_add_learning', 'failure_memory_check', 'failure_memory_edit', 'failure_memory_recall', 'failure_memory_record'];


export async function run(h) {
  await h.waitForActivation();

  // the MCP provider: registered on 1.100 through contributes.modelContextServerCollections
  const provider = await h.waitForEvent(e => e.event === 'mcpProvider', { what: 'the mcpProvider event' });
  assert.equal(provider.registered, true, `MCP provider not registered: ${provider.reason}`);
  const defs = await h.waitForEvent(e => e.event === 'mcpDefinitions', { what: 'the MCP server definitions' });
  assert.equal(defs.servers.length, 1);
  const server = defs.servers[0];
  assert.deepEqual(server.args.slice(1), ['mcp', '--workspace', h.workspace]);
  assert.equal(path.basename(server.args[0]), 'cli.js');

  // an agent outside VS Code records five failures (as the PostToolUse hook does)
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(process.execPath, [CLI, 'record', '--command', 'npx prisma generate', '--exit-code', '1', '--source', 'agent', '--workspace', h.workspace], { input: PRISMA, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }

  // the registered tool, through vscode.lm.invokeTool, in the extension host
  const check = await h.invokeTool('failure_memory_check', { command: 'npx prisma generate' });
  assert.equal(check.error, undefined, check.error);
  assert.deepEqual([...check.tools].sort(), TOOLS, 'all five tools are listed in vscode.lm.tools');
  assert.equal(check.json.status, 'exhausted');
  assert.equal(check.json.verdict, 'block');
  assert.equal(check.json.attempts, 5);
  assert.match(check.json.lastError, /@prisma\/client/);
  assert.match(check.text, /^EXHAUSTED — do not run ⟦npx prisma generate⟧/);
  assert.match(check.text, /NOT RUN/);
  assert.match(check.text, /ask the user/);

  // a cwd inside the workspace folder resolves to it; another command is clear
  const clear = await h.invokeTool('failure_memory_check', { command: 'npm run build', cwd: h.workspace });
  assert.equal(clear.json.status, 'clear');
  assert.match(clear.text, /^CLEAR/);

  const recall = await h.invokeTool('failure_memory_recall', { query: "Cannot find module '@prisma/client'" });
  assert.equal(recall.json.hits[0].key, '.::prisma generate');

  // the server VS Code would launch answers the same
  const transport = new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' });
  const client = new Client({ name: 'e2e', version: '0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: 'failure_memory_check', arguments: { command: 'npx prisma generate' } });
    assert.equal(JSON.parse(r.content[1].text).status, 'exhausted');
  } finally {
    await client.close();
  }

  await h.screenshot('lmtools');
}
