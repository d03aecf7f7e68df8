/**
 * Enough to reopen a reader in another process: `kind` names the backend, `locator` where it reads.
 */
export interface ReaderDescriptor {
  kind: string;
  locator: string;
}

/**
 * Options for a read that may take long.
 *
 * @example
 * ```ts
 * await reader.read(0, 1024, { signal: AbortSignal.timeout(1_000) });
 * ```
 */
export interface ReadOptions {
  signal?: AbortSignal;
}

/**
 * Byte-oriented random access to spooled bytes. Lines are a layer above; every backend only
 * knows bytes. Returned arrays must be treated as read-only: a backend may hand out views of its
 * own storage instead of copies.
 *
 * @example
 * ```ts
 * const reader: SpoolReader = new FileSpoolReader('/var/log/build.log');
 * const firstKibibyte = await reader.read(0, 1024);
 * ```
 */
export interface SpoolReader {
  /** Current length in bytes; a spool that is still being written may grow. */
  byteLength(): Promise<number>;
  /** Up to `length` bytes from `position`; fewer only at the end. */
  read(position: number, length: number, options?: ReadOptions): Promise<Uint8Array>;
  /**
   * Reads up to `target.length` bytes from `position` into `target`, synchronously, and returns
   * how many. For local storage only (a file, memory): a scan reading cache-sized chunks into
   * recycled buffers this way allocates nothing per chunk and runs 2-3x faster than through the
   * thread pool. Optional; valid once `byteLength()` has resolved.
   */
  readIntoSync?(target: Uint8Array, position: number): number;
  /** Bytes in `[start, end)` as a stream of chunks (end defaults to the current length). */
  stream?(start?: number, end?: number, options?: ReadOptions): AsyncIterable<Uint8Array>;
  /** How to reopen this reader elsewhere. */
  describe?(): ReaderDescriptor;
  /** Releases file handles or memory. */
  close?(): Promise<void>;
}
