import { throwIfAborted } from '../shared/spoolforge-error.js';

/** Synchronous I/O lets timers, I/O and aborts in every 8 MiB. */
const bytesBetweenYields = 8 * 1024 * 1024;

/**
 * Paces synchronous reads and writes (a page-cache copy never waits): once 8 MiB have been
 * counted since the last pause, {@link YieldPacer.pause} waits one turn of the event loop, so
 * timers, I/O and aborts get in even when the source or the consumer never waits itself. Until
 * then it returns `undefined`, so the hot path allocates no promise.
 *
 * @example
 * ```ts
 * const pacer = new YieldPacer();
 * const fd = openSync('big.log', 'r');
 * for (let position = 0, bytesRead = 1; bytesRead > 0; position += bytesRead) {
 *   const pause = pacer.pause(signal);
 *   if (pause) await pause;
 *   bytesRead = readSync(fd, recycledBuffer, 0, recycledBuffer.length, position);
 *   pacer.count(bytesRead);
 * }
 * ```
 */
export class YieldPacer {
  #sinceYield = 0;

  /** Counts `bytes` read or written synchronously. */
  count(bytes: number): void {
    this.#sinceYield += bytes;
  }

  /**
   * Once 8 MiB have been counted since the last pause: a promise that settles after one turn of
   * the event loop (a callback `setImmediate` queued before it runs first), rejecting with
   * `E_ABORTED` if `signal` has fired by then. Before that, `undefined`.
   */
  pause(signal?: AbortSignal): Promise<void> | undefined {
    if (this.#sinceYield < bytesBetweenYields) return undefined;
    this.#sinceYield = 0;
    return nextTurn(signal);
  }

  /** {@link YieldPacer.count} `bytes`, then {@link YieldPacer.pause}: for a write just done. */
  after(bytes: number, signal?: AbortSignal): Promise<void> | undefined {
    this.#sinceYield += bytes;
    return this.pause(signal);
  }
}

async function nextTurn(signal: AbortSignal | undefined): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}
