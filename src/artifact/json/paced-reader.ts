import type { SpoolReader } from '../../spool/spool-reader.js';
import { YieldPacer } from '../../spool/yield-pacer.js';

/**
 * Reads into the caller's buffer: synchronously where the reader can (a file), which spares the
 * thread pool's round trip and a copy per read, letting timers, I/O and aborts in every 8 MiB;
 * else with the reader's `read`, copied in.
 *
 * @example
 * ```ts
 * const reads = new PacedReader(reader, { signal });
 * const bytesRead = await reads.readInto(Buffer.allocUnsafe(64 * 1024), 0);
 * ```
 */
export class PacedReader {
  readonly #reader: SpoolReader;
  readonly #signal: AbortSignal | undefined;
  readonly #limit: number;
  readonly #pacer = new YieldPacer();

  /** `limit`: no byte at or past it is read (default the reader's length when it was opened). */
  constructor(
    reader: SpoolReader,
    options: { limit?: number; signal?: AbortSignal | undefined } = {},
  ) {
    this.#reader = reader;
    this.#signal = options.signal;
    this.#limit = options.limit ?? Number.POSITIVE_INFINITY;
  }

  /** Fills `target` from `position` (up to the limit); how many bytes were read. */
  async readInto(target: Uint8Array, position: number): Promise<number> {
    const length = Math.min(target.length, this.#limit - position);
    if (length <= 0) return 0;
    const into = target.subarray(0, length);
    if (!this.#reader.readIntoSync) {
      const bytes = await this.#reader.read(
        position,
        length,
        this.#signal ? { signal: this.#signal } : {},
      );
      into.set(bytes);
      return bytes.length;
    }
    const pause = this.#pacer.pause(this.#signal);
    if (pause) await pause;
    const bytesRead = this.#reader.readIntoSync(into, position);
    this.#pacer.count(bytesRead);
    return bytesRead;
  }
}
