// The layer rules of eslint.config.mjs, run through ESLint's own API on fixture texts placed at
// virtual paths (no real source file is touched): a forbidden import must fail, an allowed one pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintWithRule } from '../support/lintRule';

const violations = lintWithRule('@typescript-eslint/no-restricted-imports');

async function assertForbidden(file: string, source: string, because: RegExp): Promise<void> {
  const messages = await violations(file, source);
  assert.equal(messages.length, 1, `${file}: \`${source}\` should be refused once, got ${JSON.stringify(messages)}`);
  assert.match(messages[0], because);
}

async function assertAllowed(file: string, source: string): Promise<void> {
  assert.deepEqual(await violations(file, source), [], `${file}: \`${source}\` should be allowed`);
}

const CORE = 'src/core/__layer_fixture__.ts';
const CORE_NESTED = 'src/core/testResults/__layer_fixture__.ts';
const WEBVIEW = 'webview/__layer_fixture__.ts';
const STORE = 'src/store/__layer_fixture__.ts';
const AGENTS = 'src/agents/__layer_fixture__.ts';
const AGENTS_NESTED = 'src/agents/hooks/__layer_fixture__.ts';
const APP = 'src/app/__layer_fixture__.ts';
const CLI = 'src/cli/commands/__layer_fixture__.ts';
const EMBEDDINGS = 'src/embeddings/__layer_fixture__.ts';
const SHARED = 'src/shared/__layer_fixture__.ts';
const VIEWS = 'src/views/__layer_fixture__.ts';

test('core refuses Node built-ins, with or without the node: prefix', async () => {
  await assertForbidden(CORE, "import { spawn } from 'node:child_process';\nexport const s = spawn;", /no Node built-ins/);
  await assertForbidden(CORE, "import { readFileSync } from 'fs';\nexport const r = readFileSync;", /no Node built-ins/);
  await assertForbidden(CORE, "import { join } from 'path';\nexport const j = join;", /no Node built-ins/);
  await assertForbidden(CORE, "import * as fsp from 'node:fs/promises';\nexport const f = fsp;", /no Node built-ins/);
  await assertForbidden(CORE, "export { createHash } from 'crypto';", /no Node built-ins/);
});

test('core refuses vscode and every layer above it, at any depth', async () => {
  await assertForbidden(CORE, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
  for (const target of ['../store/memoryStore', '../host/guard', '../embeddings/index', '../agents/tools', '../cli', '../cli/commands/check', '../extension']) {
    await assertForbidden(CORE, `import { x } from '${target}';\nexport const y = x;`, /bottom layer/);
  }
  await assertForbidden(CORE_NESTED, "import type { MemoryStore } from '../../store/memoryStore';\nexport type S = MemoryStore;", /bottom layer/);
  await assertForbidden(CORE_NESTED, "import fs = require('node:fs');\nexport const f = fs;", /no Node built-ins/);
});

test('core may import core only: the views and the webview protocol are built on it, never under it', async () => {
  await assertAllowed(CORE, "import { x } from './types';\nimport { y } from './text/signature';\nexport const z = [x, y];");
  await assertAllowed(CORE_NESTED, "import { x } from '../types';\nimport { y } from './jest';\nexport const z = [x, y];");
  await assertForbidden(CORE, "import { x } from '../shared/protocol';\nexport const z = x;", /bottom layer/);
  await assertForbidden(CORE_NESTED, "import type { PanelSnapshot } from '../../views/panelModel';\nexport type P = PanelSnapshot;", /bottom layer/);
  // a name that merely contains a layer's name is not that layer
  await assertAllowed(CORE, "import { x } from './storeKeys';\nimport { y } from './hostname';\nexport const z = [x, y];");
});

test('the webview imports only src/shared from our code: never core, host, store, vscode or Node', async () => {
  for (const target of ['../src/core/memory', '../src/host/panel', '../src/store/memoryStore', '../src/embeddings/index']) {
    await assertForbidden(WEBVIEW, `import { x } from '${target}';\nexport const y = x;`, /only through src\/shared/);
  }
  await assertForbidden(WEBVIEW, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
  await assertForbidden(WEBVIEW, "import { readFile } from 'node:fs';\nexport const r = readFile;", /browser/);
  await assertAllowed(WEBVIEW, "import type { ToWebview } from '../src/shared/protocol';\nimport { el } from './dom';\nexport type T = ToWebview;\nexport const e = el;");
});

test('the store may use Node and core, never vscode, the application layer or anything above it', async () => {
  await assertForbidden(STORE, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
  for (const target of ['../app/workspaceMemory', '../host/guard', '../embeddings', '../agents/tools', '../cli/main', '../replay/replay', '../shared/protocol']) {
    await assertForbidden(STORE, `import { x } from '${target}';\nexport const y = x;`, /imports only src\/core/);
  }
  await assertForbidden('src/store/team/__layer_fixture__.ts', "import type { WorkspaceMemory } from '../../app/workspaceMemory';\nexport type W = WorkspaceMemory;", /imports only src\/core/);
  await assertAllowed(STORE, "import { readFile } from 'node:fs/promises';\nimport type { Memory } from '../core/types';\nimport { withLock } from './lock';\nexport const r = [readFile, withLock];\nexport type M = Memory;");
});

test('the application layer applies core to the store: it imports core and store, nothing above', async () => {
  await assertAllowed(APP, "import { checkCommand } from '../core/rules/check';\nimport { MemoryStore } from '../store/memoryStore';\nimport { readFile } from 'node:fs/promises';\nexport const z = [checkCommand, MemoryStore, readFile];");
  await assertForbidden(APP, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
  for (const target of ['../host/registry', '../agents/tools', '../cli/main', '../embeddings', '../replay/replay', '../extension']) {
    await assertForbidden(APP, `import { x } from '${target}';\nexport const y = x;`, /imports only src\/core and src\/store/);
  }
});

test('the front doors (agents, CLI, replay) and the host may import the application layer', async () => {
  await assertAllowed(AGENTS, "import type { WorkspaceMemory } from '../app/workspaceMemory';\nexport type W = WorkspaceMemory;");
  await assertAllowed(AGENTS_NESTED, "import { WorkspaceMemory } from '../../app/workspaceMemory';\nexport const W = WorkspaceMemory;");
  await assertAllowed(CLI, "import { WorkspaceMemory } from '../../app/workspaceMemory';\nexport const W = WorkspaceMemory;");
  await assertAllowed('src/replay/__layer_fixture__.ts', "import { WorkspaceMemory } from '../app/workspaceMemory';\nexport const W = WorkspaceMemory;");
  await assertAllowed('src/host/__layer_fixture__.ts', "import { WorkspaceMemory } from '../app/workspaceMemory';\nexport const W = WorkspaceMemory;");
});

test('memory\'s files are read and written through src/app: no door, entry or host file imports the store\'s memory modules', async () => {
  const doors: Array<[string, string]> = [
    [AGENTS, '../store/memoryStore'], [AGENTS_NESTED, '../../store/journalStore'], [AGENTS_NESTED, '../../store/quickView'], [CLI, '../../store/memoryStore'],
    ['src/hookPost.ts', './store/journal'], ['src/teamSync.ts', './store/memoryStore'], ['src/hookLoader.ts', './store/memoryIndex'],
    ['src/replay/__layer_fixture__.ts', '../store/inMemoryStore'], ['src/host/__layer_fixture__.ts', '../store/memoryStore'], ['src/host/__layer_fixture__.ts', '../store/folderLock'],
  ];
  for (const [file, target] of doors) await assertForbidden(file, `import { x } from '${target}';\nexport const y = x;`, /through src\/app/);
  await assertAllowed(AGENTS_NESTED, "import { openJournalStore } from '../../app/stores';\nimport { readMemorySnapshot } from '../../app/hookMemory';\nexport const y = [openJournalStore, readMemorySnapshot];");
  await assertAllowed('src/host/__layer_fixture__.ts', "import { openMemoryStore } from '../app/stores';\nexport const y = openMemoryStore;");
  await assertAllowed(APP, "import { MemoryStore } from '../store/memoryStore';\nexport const y = MemoryStore;");
});

test('the doors reach the rest of the store through src/app too: only paths, regularFile and storeError are imported directly', async () => {
  const doors: Array<[string, string]> = [
    [AGENTS, '../store/gateGuard'], [AGENTS_NESTED, '../../store/gateCopy'], [AGENTS_NESTED, '../../store/agentRuns'], [AGENTS_NESTED, '../../store/team/viewFile'],
    [CLI, '../../store/team/database'], [CLI, '../../store/team'], ['src/cli/__layer_fixture__.ts', '../store/team/teamMemory'],
    ['src/hook.ts', './store/scriptTables'], ['src/hookPost.ts', './store/gitContext'], ['src/teamSync.ts', './store/team/syncLock'], ['src/cli.ts', './store/codeCache'],
    ['src/hookLoader.ts', './store/gateGuard'], ['src/replay/__layer_fixture__.ts', '../store/frozen'],
    ['src/host/__layer_fixture__.ts', '../store/workspaceSettings'], ['src/host/__layer_fixture__.ts', '../store/team/config'], ['src/extension.ts', './store/agentRuns'],
  ];
  for (const [file, target] of doors) await assertForbidden(file, `import { x } from '${target}';\nexport const y = x;`, /reach the store through src\/app/);
  // type-only imports and re-exports are refused alike
  await assertForbidden(CLI, "import type { TeamMemory } from '../../store/team/teamMemory';\nexport type T = TeamMemory;", /reach the store through src\/app/);
  await assertForbidden(AGENTS, "export { GateGuard } from '../store/gateGuard';", /reach the store through src\/app/);
  // the pure helpers with no state of memory
  for (const [file, target] of [[AGENTS_NESTED, '../../store/paths'], [AGENTS, '../store/regularFile'], [CLI, '../../store/storeError'], ['src/host/__layer_fixture__.ts', '../store/paths'], ['src/teamSync.ts', './store/paths.ts']]) {
    await assertAllowed(file, `import { x } from '${target}';\nexport const y = x;`);
  }
  // a name that merely starts like an allowed one is not it
  await assertForbidden(AGENTS, "import { x } from '../store/pathsCache';\nexport const y = x;", /reach the store through src\/app/);
  // the hook loader alone keeps the hooks' code cache (its bundle stays a few KB); no other door may
  await assertAllowed('src/hookLoader.ts', "import { readCache } from './store/codeCache';\nexport const r = readCache;");
  await assertForbidden('src/hook.ts', "import { readCache } from './store/codeCache';\nexport const r = readCache;", /reach the store through src\/app/);
  // the memory modules keep their own message (one refusal per import)
  await assertForbidden(AGENTS, "import { x } from '../store/memoryStore';\nexport const y = x;", /Memory's files are read and written through src\/app/);
  // the application layer and the store themselves import the store freely
  await assertAllowed(APP, "import { GateGuard } from '../store/gateGuard';\nimport { TeamMemory } from '../store/team/teamMemory';\nexport const y = [GateGuard, TeamMemory];");
  await assertAllowed(STORE, "import { shortName } from './agentRuns';\nexport const y = shortName;");
});

test('nothing but the extension entry imports the host', async () => {
  const entries = ['src/cli.ts', 'src/hook.ts', 'src/hookPost.ts', 'src/hookLoader.ts', 'src/teamSync.ts', 'src/__layer_fixture__.ts'].map(f => [f, './host/guard']);
  for (const [file, target] of [[AGENTS, '../host/guard'], [AGENTS_NESTED, '../../host/guard'], [CLI, '../../host/registry'], ...entries, ['src/replay/__layer_fixture__.ts', '../host/guard']]) {
    await assertForbidden(file, `import { x } from '${target}';\nexport const y = x;`, /Only src\/extension\.ts imports src\/host/);
  }
  await assertForbidden(EMBEDDINGS, "import { x } from '../host/registry';\nexport const y = x;", /imports only src\/core and src\/store/);
  await assertForbidden(APP, "import { x } from '../host/registry';\nexport const y = x;", /imports only src\/core and src\/store/);
  await assertAllowed('src/extension.ts', "import { Guard } from './host/guard';\nexport const g = Guard;");
});

test('embeddings score over core and the vector store, never the layers that use them', async () => {
  await assertAllowed(EMBEDDINGS, "import { VectorStore } from '../store/vectorStore';\nimport { recall } from '../core/recall';\nexport const z = [VectorStore, recall];");
  for (const target of ['../app/workspaceMemory', '../agents/tools', '../cli/main']) {
    await assertForbidden(EMBEDDINGS, `import { x } from '${target}';\nexport const y = x;`, /imports only src\/core and src\/store/);
  }
});

test('the shared protocol pulls nothing else of ours into the webview bundle', async () => {
  await assertAllowed(SHARED, "import type { ToWebview } from './protocol';\nexport type T = ToWebview;");
  // of core, the leaf that names the control characters (it imports nothing)
  await assertAllowed(SHARED, "import { CONTROL_RE } from '../core/text/controls';\nexport const c = CONTROL_RE;");
  for (const target of ['../core/types', '../store/memoryStore', '../app/workspaceMemory', '../host/panel']) {
    await assertForbidden(SHARED, `import { x } from '${target}';\nexport const y = x;`, /imports nothing else of ours/);
  }
  await assertForbidden(SHARED, "import { readFile } from 'node:fs';\nexport const r = readFile;", /no Node built-ins/);
});

test('only the host may import vscode: the agents and the entries other than the extension\'s may not', async () => {
  await assertForbidden(AGENTS, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
  for (const entry of ['src/hookPost.ts', 'src/teamSync.ts', 'src/hookLoader.ts']) await assertForbidden(entry, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
  await assertAllowed('src/host/__layer_fixture__.ts', "import * as vscode from 'vscode';\nexport const v = vscode;");
});

test('views lay out core data in the protocol\'s types: core and shared only, no Node built-ins, no vscode', async () => {
  await assertAllowed(VIEWS, "import type { Approach } from '../core/types';\nimport type { ReflectionDoc } from '../shared/reflectionDoc';\nexport type Z = [Approach, ReflectionDoc];");
  for (const target of ['../store/memoryStore', '../app/workspaceMemory', '../host/panel', '../agents/tools', '../cli/main']) {
    await assertForbidden(VIEWS, `import { x } from '${target}';\nexport const y = x;`, /imports only src\/core and src\/shared/);
  }
  await assertForbidden(VIEWS, "import { readFile } from 'node:fs/promises';\nexport const r = readFile;", /no Node built-ins/);
  await assertForbidden(VIEWS, "import * as vscode from 'vscode';\nexport const v = vscode;", /Only src\/host/);
});

test('the pure unit tier imports no way to start a process, a worker or a socket; the integration tier may', async () => {
  for (const mod of ['node:child_process', 'child_process', 'node:worker_threads', 'node:net', 'node:dgram']) {
    await assertForbidden('test/unit/__layer_fixture__.test.ts', `import * as m from '${mod}';\nexport const x = m;`, /belongs in test\/integration/);
  }
  await assertAllowed('test/integration/__layer_fixture__.test.ts', "import { spawnSync } from 'node:child_process';\nexport const s = spawnSync;");
  await assertAllowed('test/unit/__layer_fixture__.test.ts', "import * as fs from 'node:fs';\nexport const f = fs;");
});
