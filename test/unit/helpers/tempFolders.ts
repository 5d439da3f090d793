// Throwaway folders for one test file: each made in the OS temp dir, all removed when the file's tests end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** A maker of fresh temp folders named `<prefix>XXXXXX` (in `parent`, default the OS temp dir); registers their removal in an `after` hook. */
export function tempFolders(prefix: string, parent = tmpdir()): () => string {
  const roots: string[] = [];
  after(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(parent, prefix));
    roots.push(d);
    return d;
  };
}
