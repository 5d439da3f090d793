// Runs the given test files in this one process, each as a suite named by its path (its top-level
// tests and hooks belong to that suite): the pure unit tier pays for Node, tsx and the source
// modules once instead of once per file. A file that fails to load or whose hooks fail fails its
// own suite; the other files still run.
// usage: node --import tsx --import ./test/support/pureTier.mjs --test-reporter=spec test/support/runInProcess.mjs FILE...
import { relative, resolve } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  const path = resolve(file);
  describe(relative(process.cwd(), path), async () => {
    await import(pathToFileURL(path).href);
  });
}
