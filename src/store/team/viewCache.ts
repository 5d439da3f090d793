// The cached team view (team-view.json beside memory.json): what the last pull saw, and whether the
// database answered. `check` and the guard read only this file (never the network).

import { mkdir, open, rename, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { errnoCode, randomHex } from '../lock';
import { VIEW_FILE_NAME, type TeamViewFile } from './viewFile';
import { readRegular } from '../regularFile';

export type { TeamViewFile } from './viewFile';

export class ViewCache {
  readonly file: string;
  private cached: { mtimeMs: number; data: TeamViewFile } | undefined;

  constructor(readonly dir: string) {
    this.file = path.join(dir, VIEW_FILE_NAME);
  }

  /** The file's content (re-read only when it changed). Missing or unreadable: state 'never'. */
  async read(): Promise<TeamViewFile> {
    try {
      const s = await stat(this.file);
      if (this.cached && this.cached.mtimeMs === s.mtimeMs) return this.cached.data;
      const data = JSON.parse(await readRegular(this.file)) as TeamViewFile;
      if (!data || data.version !== 1) return { version: 1, state: 'never' };
      this.cached = { mtimeMs: s.mtimeMs, data };
      return data;
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') return { version: 1, state: 'never', error: `team view unreadable: ${(e as Error).message}` };
      return { version: 1, state: 'never' };
    }
  }

  /** The last read content, without touching the disk (the guard's path). */
  peek(): TeamViewFile | undefined {
    return this.cached?.data;
  }

  async write(data: TeamViewFile): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temp = path.join(this.dir, `.${VIEW_FILE_NAME}.${process.pid}.${randomHex(4)}.tmp`);
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(JSON.stringify(data), 'utf8');
    } finally {
      await handle.close();
    }
    await rename(temp, this.file);
    const s = await stat(this.file);
    this.cached = { mtimeMs: s.mtimeMs, data };
  }
}
