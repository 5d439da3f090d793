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

