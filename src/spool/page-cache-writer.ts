import type { FileHandle } from 'node:fs/promises';
import { writeFully, writeFullySync } from './file-io.js';
import { YieldPacer } from './yield-pacer.js';

/** Writes up to this size may run synchronously (a page-cache copy of tens of microseconds). */
const synchronousWriteBytes = 1024 * 1024;
/** A synchronous write slower than this (healthy ones take 20 µs, 4 ms at worst) means the disk is pushing back. */
const slowWriteMilliseconds = 10;

/**
 * Writes the chunks of one file as fast as its disk allows. Chunks of up to 1 MiB go straight
 * into the page cache synchronously: a thread-pool round trip per 64 KiB chunk halves ingestion
 * speed. Once one is slow (the kernel throttling dirty pages on a slow disk), the rest go
 * through the thread pool, so the event loop is never held long; synchronous writes also wait
 * a turn every 8 MiB.
 *
 * @example
 * ```ts
 * const writer = new PageCacheWriter(handle);
 * await writer.write(chunk, offset);
 * ```
 */
export class PageCacheWriter {
  readonly #handle: FileHandle;
  #synchronous = true;
  /**
   * Synchronous writes wait a turn every 8 MiB, so a source that never waits itself (an
   * in-memory generator) still lets timers and aborts in.
   */
  readonly #pacer = new YieldPacer();

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /** Writes all of `bytes` at `position`. */
  async write(bytes: Uint8Array, position: number): Promise<void> {
    if (this.#synchronous && bytes.length <= synchronousWriteBytes) {
      const started = performance.now();
      writeFullySync(this.#handle.fd, bytes, position);
      if (performance.now() - started > slowWriteMilliseconds) this.#synchronous = false;
      const pause = this.#pacer.after(bytes.length);
      if (pause) await pause;
      return;
    }
    await writeFully(this.#handle, bytes, position);
  }
}
