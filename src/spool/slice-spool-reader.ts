import type { ReadOptions, SpoolReader } from './spool-reader.js';

/**
 * A {@link SpoolReader} over the bytes `[start, end)` of another reader, read in place: a part
 * of a spool of any size is passed on without a copy. Closing it leaves the other reader open
 * (its owner closes that).
 *
 * @example
 * ```ts
 * const lines = new SliceSpoolReader(artifact.reader, { start: 4096, end: 8192 });
 * await lines.byteLength(); // 4096
 * ```
 */
export class SliceSpoolReader implements SpoolReader {
  readonly #reader: SpoolReader;
  readonly #start: number;
  readonly #length: number;
  /** Bound only where the other reader has it: `readerChunks` picks its fast path by it. */
  readonly readIntoSync?: (target: Uint8Array, position: number) => number;
  readonly stream?: (
    start?: number,
    end?: number,
    options?: ReadOptions,
  ) => AsyncIterable<Uint8Array>;

  constructor(reader: SpoolReader, range: { start: number; end: number }) {
    this.#reader = reader;
    this.#start = range.start;
    this.#length = Math.max(0, range.end - range.start);
    const { readIntoSync, stream } = reader;
    if (readIntoSync) {
      this.readIntoSync = (target, position) =>
        readIntoSync.call(
          reader,
          target.subarray(0, this.#left(position, target.length)),
          this.#start + position,
        );
    }
    if (stream) {
      this.stream = (start = 0, end = this.#length, options) =>
        stream.call(
          reader,
          this.#start + start,
          this.#start + Math.min(end, this.#length),
          options,
        );
    }
  }

  async byteLength(): Promise<number> {
    await this.#reader.byteLength(); // opens a file reader, as readIntoSync needs
    return this.#length;
  }

  read(position: number, length: number, options?: ReadOptions): Promise<Uint8Array> {
    const from = Math.max(0, position);
    return this.#reader.read(this.#start + from, this.#left(from, length), options);
  }

  /** Of `length` bytes asked from `position`, how many lie in the slice. */
  #left(position: number, length: number): number {
    return Math.max(0, Math.min(length, this.#length - position));
  }
}
