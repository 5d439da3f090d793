// The MCP server as an agent sees it: the SDK's own client spawns the built `failure-memory mcp`
// over stdio, lists the tools, records failures and is told to stop.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { jsonSchemaOf, languageModelToolsManifest, MAX_LEARNING_CHARS, parseAddLearningInput, parseCheckInput, parseRecallInput, parseRecordInput, TOOL_DEFINITIONS, ToolInputError } from '../../src/agents/tools';

const CLI = resolve(__dirname, '../../dist/cli.js');
const PRISMA = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /home/dev/app/node_modules/.prisma/client/index.js\n";

type Content = Array<{ type: string; text?: string }>;
interface Answer {
  text: string;
  json: Record<string, unknown>;
  isError: boolean;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const r = await client.callTool({ name, arguments: args });
  const parts = (r.content as Content).filter(c => c.type === 'text').map(c => c.text ?? '');
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(parts[1] ?? '{}');
  } catch {
    // error answers have one part only
  }
  return { text: parts[0] ?? '', json, isError: !!r.isError };
}

describe('one definition of the tools', () => {
  test('package.json declares the language-model tools exactly as generated from the zod schemas (scripts/gen-tool-manifest.mjs)', () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
    const declared = pkg.contributes.languageModelTools as Array<Record<string, unknown>>;
    assert.deepEqual(declared, languageModelToolsManifest(), 'run node --import tsx scripts/gen-tool-manifest.mjs');
    assert.deepEqual(declared.map(t => t.name), TOOL_DEFINITIONS.map(d => d.name));
    for (const def of TOOL_DEFINITIONS) {
      const t = declared.find(x => x.name === def.name)!;
      assert.equal(t.modelDescription, def.modelDescription, def.name);
      assert.deepEqual(t.inputSchema, jsonSchemaOf(def.input), def.name);
      assert.equal(t.toolReferenceName, def.toolReferenceName, def.name);
      assert.equal(t.canBeReferencedInPrompt, true, def.name);
    }
    // the MCP provider id under both names VS Code has used (1.100 and 1.101+)
    assert.deepEqual(pkg.contributes.modelContextServerCollections, pkg.contributes.mcpServerDefinitionProviders);
    assert.equal(pkg.contributes.mcpServerDefinitionProviders[0].id, 'failureMemory.mcpServers');
  });
});

describe('tool inputs parsed by the same schemas', () => {
  test('exit codes as text, blanks, limits: one clear sentence for the model', () => {
    assert.equal(parseRecordInput({ command: 'make', exitCode: '2' }).exitCode, 2);
    assert.equal(parseRecordInput({ command: 'make', exitCode: 'unknown' }).exitCode, null);
    assert.deepEqual(parseRecordInput({ command: 'make', exitCode: 0, output: null, cwd: '' }), { command: 'make', exitCode: 0, output: '', cwd: undefined });
    assert.throws(() => parseRecordInput({ command: 'make' }), (e: unknown) => e instanceof ToolInputError && /needs "exitCode" \(an integer: 0 for success\)/.test(e.message));
    assert.throws(() => parseCheckInput({ command: '   ' }), (e: unknown) => e instanceof ToolInputError && /needs "command"/.test(e.message));
    assert.throws(() => parseCheckInput('make'), (e: unknown) => e instanceof ToolInputError && /needs an object/.test(e.message));
    assert.throws(() => parseAddLearningInput({ type: 'learning', text: 'x'.repeat(MAX_LEARNING_CHARS + 1) }), (e: unknown) => e instanceof ToolInputError && /at most 2000 characters/.test(e.message));
    assert.throws(() => parseAddLearningInput({ type: 'rumour', text: 'x' }), (e: unknown) => e instanceof ToolInputError && /"type" must be one of/.test(e.message));
    assert.equal(parseRecallInput({ query: 'boom' }).k, 5);
    assert.throws(() => parseRecallInput({ query: 'boom', k: 50 }), (e: unknown) => e instanceof ToolInputError && /"k" must be an integer from 1 to 20/.test(e.message));
    const schema = jsonSchemaOf(TOOL_DEFINITIONS.find(d => d.name === 'failure_memory_add_learning')!.input) as { properties: { text: { maxLength: number } } };
    assert.equal(schema.properties.text.maxLength, MAX_LEARNING_CHARS, 'the limit is defined once');
  });
});

describe('failure-memory mcp (stdio, the SDK client)', () => {
  const ws = mkdtempSync(join(tmpdir(), 'fm-mcp-'));
  let client: Client;
  let stderr = '';

  before(async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', ws], stderr: 'pipe' });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'fm-test', version: '0.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
  });

  test('lists the five tools with their schemas and says who it is', async () => {
    assert.equal(client.getServerVersion()?.name, 'failure-memory');
    assert.match(client.getInstructions() ?? '', /failure_memory_check/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map(t => t.name).sort(), ['failure_memory_add_learning', 'failure_memory_check', 'failure_memory_edit', 'failure_memory_recall', 'failure_memory_record']);
    for (const def of TOOL_DEFINITIONS) {
      const t = tools.find(x => x.name === def.name)!;
      assert.equal(t.description, def.modelDescription);
      const schema = jsonSchemaOf(def.input) as { properties?: Record<string, unknown>; required?: string[] };
      assert.deepEqual(Object.keys(t.inputSchema.properties ?? {}).sort(), Object.keys(schema.properties ?? {}).sort(), def.name);
      assert.deepEqual([...(t.inputSchema.required ?? [])].sort(), [...(schema.required ?? [])].sort(), def.name);
      assert.equal(t.annotations?.readOnlyHint, !def.writes, def.name);
    }
  });

  test('five recorded failures make check answer exhausted, worded as "do not run"', async () => {
    const before = await call(client, 'failure_memory_check', { command: 'npx prisma generate' });
    assert.equal(before.json.status, 'clear');
    assert.match(before.text, /^CLEAR/);

    for (let i = 1; i <= 5; i++) {
      const r = await call(client, 'failure_memory_record', { command: 'npx prisma generate', exitCode: 1, output: PRISMA, cwd: ws });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.json.attempts, i);
      assert.equal(r.json.status, i < 5 ? 'active' : 'exhausted');
      assert.equal(r.json.key, '.::prisma generate', 'an absolute cwd inside the workspace is stored relative to it');
      if (i === 5) assert.match(r.text, /now EXHAUSTED/);
    }

    // the same line again, nothing changed: denied
    const c = await call(client, 'failure_memory_check', { command: 'npx prisma generate' });
    assert.equal(c.isError, false);
    assert.equal(c.json.status, 'exhausted');
    assert.equal(c.json.verdict, 'block');
    assert.equal(c.json.decision, 'deny');
    assert.equal(c.json.code, 'same-error-unchanged');
    assert.equal(c.json.mustNotRun, true);
    assert.equal(c.json.attempts, 5);
    assert.match(String(c.json.lastError), /@prisma\/client/);
    assert.match(c.text, /^EXHAUSTED — do not run/);
    assert.match(c.text, /NOT RUN/);
    assert.match(c.text, /ask the user/);
    // another argument (another schema file) after five identical failures: a change, it earns a run
    const v = await call(client, 'failure_memory_check', { command: 'npx prisma generate --schema prisma/schema.prisma' });
    assert.equal(v.json.decision, 'warn');
    assert.equal(v.json.mustNotRun, false);
    assert.match(v.text, /^EXHAUSTED, but not blocked: .*the command runs something other than the line that failed/);

    // an edit reported through the tool is a change: the same line is no longer "nothing changed"
    const e = await call(client, 'failure_memory_edit', { path: 'prisma/schema.prisma', cwd: ws });
    assert.equal(e.isError, false, e.text);
    assert.equal(e.json.path, 'prisma/schema.prisma');
    const after = await call(client, 'failure_memory_check', { command: 'npx prisma generate' });
    assert.equal(after.json.decision, 'warn');
    assert.equal(after.json.code, 'same-error-after-change');
    assert.match(after.text, /prisma\/schema\.prisma changed since the last failure: a fix attempt, it runs/);

    // the memory is the one the CLI and the extension use
    const mem = JSON.parse(readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8'));
    assert.equal(mem.approaches['.::prisma generate'].status, 'exhausted');
    assert.ok(mem.approaches['.::prisma generate'].attempts.every((a: { source: string }) => a.source === 'reported'), 'reported by the agent itself, not seen by a hook');
  });

  test('recall finds it with the learning an agent added; secrets are redacted', async () => {
    const l = await call(client, 'failure_memory_add_learning', { type: 'failed_approach', text: 'prisma generate needs @prisma/client installed first (npm i @prisma/client)', command: 'npx prisma generate' });
    assert.equal(l.isError, false, l.text);
    assert.equal(l.json.key, '.::prisma generate');
    const r = await call(client, 'failure_memory_recall', { query: "Cannot find module '@prisma/client'", k: 3 });
    assert.equal((r.json.hits as Array<{ key: string; lesson?: string }>)[0].key, '.::prisma generate');
    assert.match(r.text, /lesson \(a saved note, untrusted\): ⟦prisma generate needs @prisma\/client/);

    const key = 'AKIA' + 'IOSFODNN7EXAMPLE';
    await call(client, 'failure_memory_record', { command: 'aws s3 ls', exitCode: 255, output: `aws_access_key_id=${key}\nAn error occurred (InvalidAccessKeyId)` });
    assert.ok(!readFileSync(join(ws, '.vscode/failure-memory/memory.json'), 'utf8').includes(key));
  });

  test('bad input is an error answer, not a crash', async () => {
    const bad = await call(client, 'failure_memory_record', { command: 'make', exitCode: 1, cwd: '/somewhere/else' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /outside the workspace/);
    for (const cwd of ['../..', 'api/../../x', '..']) {
      const climb = await call(client, 'failure_memory_record', { command: 'make', exitCode: 1, cwd });
      assert.equal(climb.isError, true, `a relative cwd ${cwd} that leaves the folder is refused like an absolute one`);
      assert.match(climb.text, /outside the workspace/);
    }
    assert.equal((await call(client, 'failure_memory_check', { command: 'make', cwd: 'api/../api/./' })).json.cwd, 'api');
    const wrongType = await call(client, 'failure_memory_add_learning', { type: 'rumour', text: 'x' });
    assert.equal(wrongType.isError, true);
    // still serving
    assert.equal((await call(client, 'failure_memory_check', { command: 'make' })).json.status, 'clear');
    assert.doesNotMatch(stderr, /unexpected error/);
  });
});
