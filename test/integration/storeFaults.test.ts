// The store under injected faults (fast-check): ENOSPC, EIO and EACCES at each step of the atomic
// write (creating the temp file, writing it, fsync, the rename), and a process killed between the
// write and the rename. For every random sequence of records and faults: no acknowledged record is
// lost, a refused one is refused with a StoreError a person can read and leaves nothing behind, and
// the memory is readable afterwards (also by the process that starts after the kill).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { MemoryStore, memoryDirFor } from '../../src/store/memoryStore';
import { StoreError } from '../../src/store/storeError';
import { params } from '../support/fuzz';
import { tempFolders } from '../support/tempFolders';

// on a memory file system where there is one: a thousand fsyncs on a busy disk take a minute, not seconds
const temp = tempFolders('fm-store-faults-', existsSync('/dev/shm') ? '/dev/shm' : undefined);

type Step = 'open' | 'write' | 'sync' | 'rename';
type Code = 'ENOSPC' | 'EIO' | 'EACCES';
interface Fault {
  step: Step;
  code: Code;
}

// The store calls node:fs/promises through the module object at call time: the injector swaps its
// functions for the duration of this file, and a fault hits only the write of memory.json it is armed for.
const real = { open: fsp.open, rename: fsp.rename };
let armed: Fault | 'kill' | undefined;
let onKill: ((temp: string) => void) | undefined;
const isMemoryTemp = (p: unknown) => typeof p === 'string' && /\.memory\.json\.\d+\.[0-9a-f]+\.tmp$/.test(p);
const errno = (code: Code, syscall: string, path: string) => Object.assign(new Error(`${code}: injected, ${syscall} '${path}'`), { code, syscall, path });

function take(step: Step): Fault | undefined {
  if (!armed || armed === 'kill' || armed.step !== step) return undefined;
  const f = armed;
  armed = undefined;
  return f;
}

// the module object itself (a default import), whose functions the store's calls look up each time
const mutableFs = fsp as unknown as Record<string, unknown>;
mutableFs.open = async (path: string, ...rest: unknown[]) => {
  if (!isMemoryTemp(path)) return (real.open as (...a: unknown[]) => Promise<fsp.FileHandle>)(path, ...rest);
  const f = take('open');
  if (f) throw errno(f.code, 'open', path);
  const handle = await (real.open as (...a: unknown[]) => Promise<fsp.FileHandle>)(path, ...rest);
  return new Proxy(handle, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'writeFile' || prop === 'sync') {
        return async (...args: unknown[]) => {
          const fault = take(prop === 'writeFile' ? 'write' : 'sync');
          if (fault) {
            // a full disk may have taken part of the bytes before it said no
            if (prop === 'writeFile' && fault.code === 'ENOSPC') await target.write('{"half":');
            throw errno(fault.code, prop === 'writeFile' ? 'write' : 'fsync', path);
          }
          return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
};
mutableFs.rename = async (from: string, to: string) => {
  if (isMemoryTemp(from)) {
    if (armed === 'kill') {
      armed = undefined;
      onKill?.(from);
      throw Object.assign(new Error('killed'), { killed: true });
    }
    const f = take('rename');
    if (f) throw errno(f.code, 'rename', from);
  }
  return real.rename(from, to);
};
after(() => {
  mutableFs.open = real.open;
  mutableFs.rename = real.rename;
});

/** A pid no process has now (a child that already exited). */
const DEAD_PID = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout.trim();

const fault = fc.record({ step: fc.constantFrom<Step>('open', 'write', 'sync', 'rename'), code: fc.constantFrom<Code>('ENOSPC', 'EIO', 'EACCES') });
const command = fc.constantFrom('npm test', 'make', 'cargo build', 'npx prisma generate');

/** Attempt ids in a workspace's memory, read by a store that starts fresh. */
async function storedIds(ws: string): Promise<Set<string>> {
  const data = await new MemoryStore(memoryDirFor(ws), { cache: false }).read();
  return new Set(Object.values(data.approaches).flatMap(a => a.attempts.map(t => t.id)));
}

const settings = { shortTermWindow: 100, threshold: 1000 };
const memoryOf = (ws: string) => new WorkspaceMemory(ws, { settings, git: false, cache: false, onWarning: () => undefined });

/**
 * One workspace the cases of a property run on in turn (a fresh one every 20 cases): each case is
 * one write, so a thousand cases are a thousand writes, and the memory they build is checked after each.
 */
class Rolling {
  ws = '';
  memory!: WorkspaceMemory;
  acknowledged: string[] = [];
  private cases = 0;
  next(): void {
    if (this.cases++ % 20) return;
    this.ws = realpathSync(temp());
    this.memory = memoryOf(this.ws);
    this.acknowledged = [];
  }
  async record(cmd: string): Promise<string> {
    const id = (await this.memory.record({ command: cmd, exitCode: 1, output: 'Error: boom', source: 'cli' })).attempt.id;
    this.acknowledged.push(id);
    return id;
  }
  async check(): Promise<void> {
    assert.deepEqual([...(await storedIds(this.ws))].sort(), [...this.acknowledged].sort(), 'exactly the acknowledged records');
  }
}

describe('the store under injected faults', () => {
  test('ENOSPC, EIO, EACCES at any step of a write: acknowledged records kept, refused ones refused cleanly, memory readable', async () => {
    const r = new Rolling();
    await fc.assert(
      fc.asyncProperty(command, fc.option(fault, { freq: 2 }), async (cmd, f) => {
        r.next();
        armed = f ?? undefined;
        try {
          await r.record(cmd);
          assert.equal(f, null, 'a faulted write is never acknowledged');
        } catch (e) {
          assert.ok(f, `only an injected fault fails a write: ${(e as Error)?.message}`);
          assert.ok(e instanceof StoreError, `a StoreError, not a raw ${(e as Error)?.name}`);
          assert.match(e.message, new RegExp(f.code === 'EACCES' ? 'permission|EACCES|read-only' : f.code), e.message);
          assert.doesNotMatch(e.message, /\n\s+at /, 'no stack trace in the message');
        } finally {
          armed = undefined;
        }
        await r.check();
        const dir = memoryDirFor(r.ws);
        if (existsSync(dir)) assert.deepEqual(readdirSync(dir).filter(n => n.endsWith('.tmp')), [], 'no temp file left');
      }),
      params(),
    );
  });

  test('a process killed between the write and the rename: the next one reads the memory as it was, and goes on', async () => {
    const r = new Rolling();
    await fc.assert(
      fc.asyncProperty(command, command, async (killedCmd, nextCmd) => {
        r.next();
        // the disk as the killed process leaves it: its temp file written, its lock held by a dead pid
        onKill = tempFile => {
          const dir = memoryDirFor(r.ws);
          const lock = join(dir, 'memory.json.lock');
          if (existsSync(lock)) writeFileSync(lock, readFileSync(lock, 'utf8').replace(/"pid":\d+/, `"pid":${DEAD_PID}`));
          const name = tempFile.slice(tempFile.lastIndexOf('/') + 1);
          renameSync(join(dir, name), join(dir, name.replace(/\.\d+\.([0-9a-f]+)\.tmp$/, `.${DEAD_PID}.$1.tmp`)));
        };
        armed = 'kill';
        await assert.rejects(r.record(killedCmd), (e: { killed?: boolean; cause?: { killed?: boolean } }) => !!(e.killed || e.cause?.killed));
        armed = undefined;
        onKill = undefined;
        // the next process: it reads what was acknowledged, breaks the dead lock, cleans the orphan and records on
        r.memory = memoryOf(r.ws);
        await r.check();
        await r.record(nextCmd);
        await r.check();
        assert.deepEqual(readdirSync(memoryDirFor(r.ws)).filter(n => n.endsWith('.tmp')), [], "the killed writer's temp file is cleaned up");
      }),
      params(),
    );
  });
});
