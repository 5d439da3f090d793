// The outbox: every local write meant for the team waits here, beside memory.json
// (team-outbox.jsonl), until the pusher has it in the database. One JSON line per entry; appends and
// removals take team-outbox.jsonl.lock so that the extension, other windows and the CLI can share it.
// Bounded: when full, the oldest entries are evicted and the eviction is reported (onWarning).

import { constants } from 'node:fs';
import { appendFile, mkdir, open, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { boundOutbox, type OutboxEntry } from '../../core/rules/team';
import { outboxEntryOf } from '../../core/storedShapes';
import { errnoCode, withLock, randomHex } from '../lock';
import { O_NONBLOCK, readRegular } from '../regularFile';

export const OUTBOX_FILE_NAME = 'team-outbox.jsonl';

export class Outbox {
  readonly file: string;
  private readonly lockFile: string;

  constructor(
    readonly dir: string,
    private readonly max: number,
    private readonly onWarning: (message: string) => void,
  ) {
    this.file = path.join(dir, OUTBOX_FILE_NAME);
    this.lockFile = `${this.file}.lock`;
  }

  private lock<T>(fn: () => Promise<T>): Promise<T> {
    return withLock(this.lockFile, { timeoutMs: 5000, staleMs: 10000, onWarning: this.onWarning }, fn);
  }

  /**
   * Appends entries; evicts the oldest (and says so) when the outbox is over its bound. Waiting
   * entries that `replaces` matches are taken out in the same step (a newer record supersedes them).
   */
  async append(entries: OutboxEntry[], replaces?: (waiting: OutboxEntry) => boolean): Promise<void> {
    if (!entries.length) return;
    await mkdir(this.dir, { recursive: true });
    await this.lock(async () => {
      if (replaces) {
        const waiting = await this.readAll();
        const kept = waiting.filter(e => !replaces(e));
        if (kept.length !== waiting.length) await this.writeAll(kept);
      }
      // never waiting on a FIFO in its place (no reader: ENXIO at once)
      await appendFile(this.file, entries.map(e => `${JSON.stringify(e)}\n`).join(''), { encoding: 'utf8', flag: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NONBLOCK });
      const all = await this.readAll();
      if (all.length > this.max) {
        const { kept, evicted } = boundOutbox(all, this.max);
        await this.writeAll(kept);
        this.onWarning(`team memory: the outbox is full (${this.max} records waiting for the database); the ${evicted.length} oldest were dropped from it (they stay in local memory).`);
      }
    });
  }

  /** Everything waiting, oldest first (lock-free: appends are whole lines, rewrites are renames). */
  async readAll(): Promise<OutboxEntry[]> {
    let text: string;
    try {
      text = await readRegular(this.file, { noFollow: true });
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return [];
      throw e;
    }
    const out: OutboxEntry[] = [];
    let wrong = 0;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!line) continue;
      try {
        const e = outboxEntryOf(JSON.parse(line));
        if (e === 'wrong') wrong++;
        else if (e) out.push(e);
      } catch {
        // a torn last line (a writer died mid-append) is skipped; it was never acknowledged
      }
    }
    // it could never reach the database (and would stop every push behind it): left out, and said
    if (wrong) this.onWarning(`team memory: ${wrong} record(s) in ${OUTBOX_FILE_NAME} are not of their kind's shape; they are left out of the push.`);
    return out;
  }

  /** How many entries wait (newlines counted, nothing parsed: `check` asks this on every call). */
  async count(): Promise<number> {
    let text: string;
    try {
      text = await readRegular(this.file, { noFollow: true });
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return 0;
      throw e;
    }
    let n = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    return n;
  }

  /** Removes the entries the database has acknowledged (others appended meanwhile stay). */
  async remove(ids: ReadonlySet<string>): Promise<void> {
    if (!ids.size) return;
    await this.lock(async () => {
      const all = await this.readAll();
      const kept = all.filter(e => !ids.has(e.id));
      if (kept.length !== all.length) await this.writeAll(kept);
    });
  }

  private async writeAll(entries: OutboxEntry[]): Promise<void> {
    if (!entries.length) {
      await unlink(this.file).catch(e => {
        if (errnoCode(e) !== 'ENOENT') throw e;
      });
      return;
    }
    const temp = path.join(this.dir, `.${OUTBOX_FILE_NAME}.${process.pid}.${randomHex(4)}.tmp`);
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(entries.map(e => `${JSON.stringify(e)}\n`).join(''), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.file);
  }
}
