import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import type { ReaderDescriptor, ReadOptions, SpoolReader } from './spool-reader.js';

/**
 * A {@link SpoolReader} over bytes already in memory. Reads return views, not copies.
 *
 * @example
 * ```ts
 * const reader = new MemorySpoolReader('line one\nline two\n');
 * console.log(await reader.byteLength()); // 18
 * ```
 */
export class MemorySpoolReader implements SpoolReader {
  readonly #bytes: Uint8Array;

  constructor(source: Uint8Array | string) {
    this.#bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  }

  async byteLength(): Promise<number> {
    return this.#bytes.length;
  }

  async read(position: number, length: number, options?: ReadOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal);
    const start = Math.max(0, position);
    return this.#bytes.subarray(start, start + Math.max(0, length));
  }

  /** Always throws `E_NOT_REOPENABLE`: these bytes live in this process only. */
  describe(): ReaderDescriptor {
    throw notReopenable('memory');
  }
}

/**
 * The error `describe()` throws for a spool that lives in one process's memory or private temp
 * files, which no other process can reopen.
 *
 * @example
 * ```ts
 * throw notReopenable('temp'); // from the describe() of a temp-file spool
 * ```
 */
export function notReopenable(where: 'memory' | 'temp'): SpoolforgeError {
  return new SpoolforgeError(
    'E_NOT_REOPENABLE',
    `A ${where} spool lives in one process and cannot be reopened elsewhere; put it in an ArtifactStore to reopen it from another process`,
  );
}
