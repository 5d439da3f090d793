// Throwaway folders, each made in the OS temp dir and removed when the tests that made it end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/**
 * A maker of fresh temp folders named `<prefix>XXXXXX` (in `parent`, default the OS temp dir), for one
 * test file: call it at the file's top level; all its folders are removed when the file's tests end.
 */
export function tempFolders(prefix: string, parent = tmpdir()): () => string {
  const roots: string[] = [];
  after(() => {
    // retried: a background process a test started (a hook's team sync) may still be finishing a write there
    for (const r of roots) rmSync(r, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
  return () => {
    const d = mkdtempSync(join(parent, prefix));
    roots.push(d);
    return d;
  };
}

/**
 * One fresh temp folder, removed when the current test ends (called outside a test: when the current
 * file's tests end). For helpers shared by several test files, which have no file of their own.
 */
export function tempDir(prefix: string, parent = tmpdir()): string {
  const d = mkdtempSync(join(parent, prefix));
  after(() => rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  return d;
}
