// Where a workspace's memory lives. Its own module (node:path only) so that the hook's quick read
// finds the folder the store writes without loading the store.

import { join } from 'node:path';

export const MEMORY_DIR_NAME = '.vscode/failure-memory';

export function memoryDirFor(workspaceFolder: string): string {
  return join(workspaceFolder, ...MEMORY_DIR_NAME.split('/'));
}
