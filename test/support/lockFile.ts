// A lock file as another process would leave it: its JSON, and an age set through the file's mtime.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes `dir`/memory.json.lock holding `info`, `ageMs` old; returns its path. */
export function writeLock(dir: string, info: object, ageMs = 0): string {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'memory.json.lock');
  fs.writeFileSync(lock, JSON.stringify(info));
  if (ageMs) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lock, then, then);
  }
  return lock;
}
