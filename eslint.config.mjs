import { builtinModules } from 'node:module';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

// ---- comments say why the code is as it is, not its history ------------------------------------
// An issue or seed number in a comment sends the reader to a tracker or a document the repository
// does not hold; the reason belongs in the comment itself (the commit message keeps the history).
// A test's name says what holds, so it cites none either.
const HISTORY_REF = /\b(?:issue|seed)s?\s*#?\d+/i;
const TEST_CALLS = new Set(['test', 'describe', 'it', 'suite']);
// ---- one gate decision: the policy is applied in src/app/gate.ts only (decideGate, decideGateNow) ---
// The terminal guard, the hooks, the CLI, MCP and the language-model tools all call it; a second
// caller of the policy itself would be a second path to a decision, to be kept equal by hand.
const POLICY_ENTRIES = new Set(['checkCommand', 'judgeExhausted', 'judgeCause', 'judgeEnvironmentLoop']);
const oneGate = {
  meta: { type: 'problem', schema: [], messages: { second: '{{name}} is the policy itself: decide through src/app/gate.ts (decideGate / decideGateNow), the one gate decision.' } },
  create(context) {
    // a namespace import (`import * as rules from …`) reaches the same functions as `rules.checkCommand`
    const namespaces = new Set();
    return {
      ImportSpecifier(node) {
        const name = node.imported.name ?? node.imported.value;
        if (!POLICY_ENTRIES.has(name) || node.parent.importKind === 'type' || node.importKind === 'type') return;
        context.report({ node, messageId: 'second', data: { name } });
      },
      ImportNamespaceSpecifier(node) {
        if (node.parent.importKind !== 'type') namespaces.add(node.local.name);
      },
      MemberExpression(node) {
        if (node.object.type !== 'Identifier' || !namespaces.has(node.object.name)) return;
        const name = node.computed ? (node.property.type === 'Literal' ? String(node.property.value) : undefined) : node.property.name;
        if (name && POLICY_ENTRIES.has(name)) context.report({ node, messageId: 'second', data: { name } });
      },
    };
  },
};

const local = {
  rules: {
    'one-gate': oneGate,
    'no-history-comments': {
      meta: {
        type: 'suggestion', schema: [],
        messages: {
          history: 'Comment cites "{{ref}}": say why the code is as it is, not which issue or seed it came from.',
          testName: 'Test name cites "{{ref}}": say what holds, not which issue or seed it came from.',
        },
      },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              const m = HISTORY_REF.exec(comment.value);
              if (m) context.report({ loc: comment.loc, messageId: 'history', data: { ref: m[0] } });
            }
          },
          CallExpression(node) {
            const name = node.arguments[0];
            if (node.callee.type !== 'Identifier' || !TEST_CALLS.has(node.callee.name) || !name) return;
            const text = name.type === 'Literal' ? String(name.value) : name.type === 'TemplateLiteral' ? name.quasis.map(q => q.value.cooked).join(' ') : '';
            const m = HISTORY_REF.exec(text);
            if (m) context.report({ node: name, messageId: 'testName', data: { ref: m[0] } });
          },
        };
      },
    },
  },
};

// ---- the layers (data flows one way: event → core decides → store persists → UI) ----------------
// Relative imports whose path names one of these folders, at any depth: '../store/x', '../../host'.
const layer = (...names) => `^\\.{1,2}/(?:.*/)?(?:${names.join('|')})(?:\\.[cm]?[jt]s)?(?:/|$)`;
const vscode = { name: 'vscode', message: 'Only src/host (and src/extension.ts) may import vscode.' };
const nodeBuiltins = message => builtinModules.filter(m => !m.startsWith('_')).map(name => ({ name, message }));
// @typescript-eslint's version also sees `import x = require('...')` and `export ... from`.
const restrict = (paths, patterns = []) => ({
  'no-restricted-imports': 'off',
  '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
});

// memory's files (memory.json, its journal and index, the folder's lock) are read and written by the
// stores src/app builds (app/stores.ts, app/hookMemory.ts): a door never builds or reads one itself
const memoryThroughApp = {
  regex: '^\\.{1,2}/(?:.*/)?store/(?:memoryStore|journalStore|journal|quickView|memorySchema|memoryIndex|inMemoryStore|folderLock|lock)(?:\\.[cm]?[jt]s)?$',
  message: 'Memory\'s files are read and written through src/app (app/stores.ts builds every store, app/hookMemory.ts reads for the hooks): the doors and the host never import the store\'s memory modules.',
};
// Every other store module is reached through src/app too (the gate's copy: app/gateRestore.ts and
// app/gateTamper.ts; team memory: app/team.ts, app/hookTeam.ts; agent runs: app/agentRuns.ts; settings,
// script tables, git state: app/settings.ts, app/scripts.ts, app/openMemory.ts), so that every writer
// has one way in. Three pure helpers that hold no state of memory stay importable: store/paths (the
// names of the folders), store/regularFile (opening a file that may be a FIFO without waiting on it),
// store/storeError (the error type a door reports).
const storeThroughApp = (except = []) => ({
  regex: `^\\.{1,2}/(?:.*/)?store/(?!(?:${['paths', 'regularFile', 'storeError', ...except].join('|')})(?:\\.[cm]?[jt]s)?$)(?!(?:memoryStore|journalStore|journal|quickView|memorySchema|memoryIndex|inMemoryStore|folderLock|lock)(?:\\.[cm]?[jt]s)?$)`,
  message: 'The doors reach the store through src/app (the gate: app/gateRestore.ts, app/gateTamper.ts; team memory: app/team.ts, app/hookTeam.ts; agent runs: app/agentRuns.ts; settings: app/settings.ts): only store/paths, store/regularFile and store/storeError, pure helpers, are imported directly.',
});

const layerRules = {
  core: restrict(
    [vscode, ...nodeBuiltins('src/core is pure TypeScript: no Node built-ins (the store and the host do the I/O).')],
    [
      { group: ['node:*'], message: 'src/core is pure TypeScript: no Node built-ins (the store and the host do the I/O).' },
      { regex: layer('store', 'host', 'embeddings', 'agents', 'cli', 'shared', 'views', 'extension'), message: 'src/core is the bottom layer: it imports only src/core (views and the webview protocol build on it, not the other way).' },
    ],
  ),
  webview: restrict(
    [vscode, ...nodeBuiltins('The webview runs in a browser: no Node built-ins.')],
    [
      { group: ['node:*'], message: 'The webview runs in a browser: no Node built-ins.' },
      { regex: '^(?:\\.\\./)+src/(?!shared/)', message: 'The webview talks to the extension only through src/shared (the typed protocol).' },
    ],
  ),
  // what people read, laid out from core's data: the panel's snapshot, the reflection document
  views: restrict([vscode, ...nodeBuiltins('src/views lays out core data for people: no Node built-ins.')], [
    { group: ['node:*'], message: 'src/views lays out core data for people: no Node built-ins.' },
    { regex: layer('store', 'app', 'host', 'embeddings', 'agents', 'cli', 'replay', 'extension'), message: 'src/views lays out core data in the webview protocol\'s types: it imports only src/core and src/shared.' },
  ]),
  store: restrict([vscode], [
    { regex: layer('app', 'host', 'embeddings', 'agents', 'cli', 'replay', 'shared', 'views', 'extension'), message: 'src/store persists what core decides: it imports only src/core (and src/store).' },
  ]),
  // the application services (WorkspaceMemory): core's decisions applied to the store
  app: restrict([vscode], [
    { regex: layer('host', 'embeddings', 'agents', 'cli', 'replay', 'shared', 'views', 'extension'), message: 'src/app applies core to the store: it imports only src/core and src/store.' },
  ]),
  embeddings: restrict([vscode], [
    { regex: layer('app', 'host', 'agents', 'cli', 'replay', 'views', 'extension'), message: 'src/embeddings scores for recall: it imports only src/core and src/store.' },
  ]),
  // the front doors (agents, CLI, the replay of agent histories) sit on app; only the extension entry reaches the host
  doors: restrict([vscode], [
    { regex: layer('host', 'extension'), message: 'Only src/extension.ts imports src/host: the CLI and the agents go through src/app.' },
    memoryThroughApp,
    storeThroughApp(),
  ]),
  // dist/hook.js stays a few KB and runs before any bundle is loaded: it reads and writes the hooks'
  // code cache itself (store/codeCache), since going through src/app would pull more into it
  hookLoader: restrict([vscode], [
    { regex: layer('host', 'extension'), message: 'Only src/extension.ts imports src/host: the CLI and the agents go through src/app.' },
    memoryThroughApp,
    storeThroughApp(['codeCache']),
  ]),
  // the VS Code adapters: anything but the composition root's own files
  host: restrict([], [memoryThroughApp, storeThroughApp()]),
  // the host ↔ webview protocol: the webview bundles it, so it must pull in nothing else of ours
  shared: restrict([vscode, ...nodeBuiltins('src/shared is bundled into the webview too: no Node built-ins.')], [
    { group: ['node:*'], message: 'src/shared is bundled into the webview too: no Node built-ins.' },
    { regex: layer('store', 'app', 'host', 'embeddings', 'agents', 'cli', 'replay', 'views', 'extension'), message: 'src/shared is bundled into the webview: it imports nothing else of ours.' },
    // of core, only the leaf that names the control characters (no imports: it pulls nothing in)
    { regex: '^\\.{1,2}/(?:.*/)?core(?:/(?!text/controls$).*)?$', message: 'src/shared is bundled into the webview: it imports nothing else of ours but core/text/controls (the control characters, a leaf).' },
  ]),
};

// Node's globals, for the JavaScript files (ES modules; test/electron is CommonJS)
const nodeGlobals = Object.fromEntries([
  'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask',
  'structuredClone', 'performance', 'fetch', 'global', 'Blob', 'Event', 'EventTarget', 'crypto', 'WebAssembly',
].map(g => [g, 'readonly']));
// what page.evaluate() callbacks of the e2e tests see: they run in the browser
const browserGlobals = Object.fromEntries(['window', 'document', 'getComputedStyle', 'HTMLElement', 'Element', 'Node', 'navigator', 'location']
  .map(g => [g, 'readonly']));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.e2e/**', '.agents/**', 'out/**', '.try/**', 'test-artifacts/**', '.vscode-test/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'webview/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: nodeGlobals },
    rules: {
      'no-undef': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['test/e2e/**/*.mjs'], languageOptions: { globals: { ...nodeGlobals, ...browserGlobals } } },
  {
    // runs inside desktop VS Code under mocha (tdd): CommonJS
    files: ['test/electron/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, require: 'readonly', module: 'writable', suite: 'readonly', test: 'readonly', suiteSetup: 'readonly', suiteTeardown: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // the pure unit tier starts nothing: no process, worker thread or socket (test/support/pureTier.mjs
  // refuses them at run time too); such tests belong in test/integration
  {
    files: ['test/unit/**/*.ts'],
    rules: restrict(['child_process', 'worker_threads', 'net', 'dgram', 'cluster'].flatMap(m => [m, `node:${m}`]).map(name => ({
      name,
      message: 'test/unit is the pure tier (npm run check): a test that starts a process, a worker or a socket belongs in test/integration.',
    }))),
  },
  // the layers: only src/host and src/extension.ts may import vscode
  { files: ['src/shared/**/*.ts'], rules: layerRules.shared },
  // every entry at src/'s top (the CLI's, the hooks' and their loader, the team sync's) is a door; only extension.ts is the host's
  { files: ['src/agents/**/*.ts', 'src/cli/**/*.ts', 'src/replay/**/*.ts', 'src/*.ts'], ignores: ['src/extension.ts', 'src/hookLoader.ts'], rules: layerRules.doors },
  { files: ['src/hookLoader.ts'], rules: layerRules.hookLoader },
  { files: ['src/core/**/*.ts'], rules: layerRules.core },
  { files: ['src/views/**/*.ts'], rules: layerRules.views },
  { files: ['src/store/**/*.ts'], rules: layerRules.store },
  { files: ['src/app/**/*.ts'], rules: layerRules.app },
  { files: ['src/embeddings/**/*.ts'], rules: layerRules.embeddings },
  { files: ['webview/**/*.ts'], rules: layerRules.webview },
  { files: ['src/host/**/*.ts', 'src/extension.ts'], rules: layerRules.host },
  {
    files: ['src/host/**/*.ts', 'src/extension.ts'],
    rules: { 'no-console': 'error' },
  },
  // No super-linear regular expression: nested quantifiers, quantifiers that can trade characters
  // (`\s*[:=]?\s*`) and `x+$`-style moves are errors in src. The files below run their patterns only
  // on bounded input and are kept out knowingly: the test-result parsers see lines cut to 4,096
  // characters with blank runs shortened first (core/testResults/common.ts); the CLI's option errors
  // are Node's own messages; the team, embedding, replay and reflection code is off the hook path and
  // reads git remotes, model names and reflection texts, never terminal output.
  {
    files: ['src/**/*.ts'],
    ignores: [
      'src/core/testResults/**', 'src/cli/main.ts', 'src/core/rules/team.ts', 'src/store/team/**', 'src/embeddings/**',
      'src/replay/**', 'src/core/prompts/lmReflection.ts', 'src/core/reflection.ts',
    ],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error', 'regexp/no-super-linear-move': 'error' },
  },
  { files: ['src/**/*.ts', 'webview/**/*.ts', 'test/**/*.{ts,mjs,js}', 'bench/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs}'], plugins: { local }, rules: { 'local/no-history-comments': 'error' } },
  { files: ['src/**/*.ts'], ignores: ['src/app/gate.ts', 'src/core/rules/**'], plugins: { local }, rules: { 'local/one-gate': 'error' } },
  // a function a newcomer can hold: a longer one says why, in an eslint-disable comment above it;
  // a file one can read through: a longer one is split by meaning
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      'max-lines': ['error', { max: 600 }],
    },
  },
);
