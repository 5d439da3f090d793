import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.e2e/**', 'out/**', '**/*.js', '**/*.mjs'] },
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
    // the engine and the store are plain Node/TypeScript: never the vscode API
    files: ['src/core/**/*.ts', 'src/store/**/*.ts', 'src/shared/**/*.ts', 'src/embeddings/**/*.ts', 'src/agents/**/*.ts', 'src/cli.ts', 'webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/host may import vscode.' }] }] },
  },
  {
    // the engine decides; it does not touch files
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode', 'fs', 'node:fs', 'fs/promises', 'node:fs/promises'] }] },
  },
  {
    files: ['src/host/**/*.ts', 'src/extension.ts'],
    rules: { 'no-console': 'error' },
  },
);
