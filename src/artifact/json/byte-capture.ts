/**
 * Gathers the bytes of one value that may span many chunks: pieces a chunk boundary cuts are
 * copied (chunks are reused buffers), the last piece is used in place, and past `maxBytes` the
 * pieces are dropped and the value is only reported too large.
 *
 * @example
 * ```ts
 * const capture = new ByteCapture(16 << 20);
 * capture.start(valueStart);
 * capture.chunkEnded(chunk); // the value goes on in the next chunk
 * const bytes = capture.finish(nextChunk, valueEnd); // undefined when too large
 * ```
 */
export class ByteCapture {
  readonly #maxBytes: number;
  #pieces: Uint8Array[] = [];
  #chunkStart = -1;
  #bytes = 0;
  #tooLarge = false;

  constructor(maxBytes = Number.POSITIVE_INFINITY) {
    this.#maxBytes = maxBytes;
  }

  /** Whether a value is being gathered. */
  get active(): boolean {
    return this.#chunkStart !== -1;
  }

  /** Starts gathering at `index` of the current chunk. */
  start(index: number): void {
    this.#pieces = [];
    this.#chunkStart = index;
    this.#bytes = 0;
    this.#tooLarge = false;
  }

  /** A new chunk begins: the value goes on from its first byte. */
  chunkStarted(): void {
    if (this.active) this.#chunkStart = 0;
  }

  /** The current chunk ends inside the value: keep a copy of its part. */
  chunkEnded(chunk: Uint8Array): void {
    if (!this.active) return;
    const piece = chunk.subarray(this.#chunkStart);
    // Buffer.from copies; a chunk is often a Buffer, whose slice() is a view, not a copy.
    if (this.#count(piece.length)) this.#pieces.push(Buffer.from(piece));
  }

  /** The value ends before `end` of the current chunk: its bytes, or `undefined` when too large. */
  finish(chunk: Uint8Array, end: number): Uint8Array | undefined {
    const last = chunk.subarray(this.#chunkStart, end);
    const fits = this.#count(last.length);
    const pieces = this.#pieces;
    this.#pieces = [];
    this.#chunkStart = -1;
    if (!fits) return undefined;
    return pieces.length ? Buffer.concat([...pieces, last]) : last;
  }

  #count(bytes: number): boolean {
    this.#bytes += bytes;
    if (this.#bytes > this.#maxBytes) {
      this.#tooLarge = true;
      this.#pieces = [];
    }
    return !this.#tooLarge;
  }
}
