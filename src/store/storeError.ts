// The store's errors: every failure of the store surfaces as a StoreError, with a message meant for a person.

export type StoreErrorCode = 'READ_ONLY' | 'LOCK_TIMEOUT' | 'IO' | 'TOO_LARGE' | 'UNSAFE_PATH';

/** Every failure of the store surfaces as this, with a message meant for a person. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Thrown by migrateMemory when the document is not memory at all: the store moves such a file aside. */
export class CorruptMemoryError extends Error {}

/** A file-system error as a StoreError that says what could not be done, where, and why, in words. */
export function fsError(err: unknown, where: string, action: 'read' | 'write'): StoreError {
  const code = errnoCode(err) ?? 'EIO';
  const session = action === 'write' ? ' Memory is kept in this session only.' : '';
  const start = `Failure Memory cannot ${action} ${action === 'write' ? 'to ' : ''}${where}`;
  let why: string;
  let storeCode: StoreErrorCode = 'IO';
  switch (code) {
    case 'EROFS':
      why = 'the folder is read-only';
      storeCode = 'READ_ONLY';
      break;
    case 'EACCES':
    case 'EPERM':
      why = 'permission denied';
      storeCode = action === 'write' ? 'READ_ONLY' : 'IO';
      break;
    case 'ENOSPC':
    case 'EDQUOT':
      why = 'the disk is full';
      break;
    case 'EISDIR':
      why = 'a folder is in the way of a file';
      break;
    case 'ENOTDIR':
    case 'EEXIST':
      why = 'a file is in the way of the folder';
      break;
    default:
      why = (err as Error)?.message ?? String(err);
  }
  return new StoreError(storeCode, where, `${start}: ${why} (${code}).${session}`, { cause: err });
}

function errnoCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
