import type { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { caughtSpoolforgeError } from './caught-spoolforge-error.js';
import { JsonStringDecoder } from './json-string-decoder.js';
import type { SpillSink } from './spill-sink.js';
import { StringEndFinder } from './string-end-finder.js';

/**
 * The JSON string a `JsonSpillParser` is reading: where its opening quote is in the skeleton,
 * where it closes, and, once it is diverted (past `spillBytes`), its content decoded into a
 * spill instead of kept. An escape that does not decode is returned as the error, for the
 * parser to drop its message with.
 *
 * @example
 * ```ts
 * const string = new SpillableString();
 * const line = Buffer.from('"a long value", "next"');
 * string.newChunk();
 * string.open(0);
 * string.divert(sink, line.subarray(1, 7));
 * const close = string.findEnd(line, 7, line.length); // 13
 * string.write(line, 7, close);
 * const closed = string.close(); // { sink }: `a long value`, for the parser to end and register
 * ```
 */
export class SpillableString {
  readonly #ends = new StringEndFinder();
  #inside = false;
  #start = 0;
  #spill: { decoder: JsonStringDecoder; sink: SpillSink } | undefined;

  /** Whether a string is open. */
  get inside(): boolean {
    return this.#inside;
  }

  /** Where the open string's quote is in the skeleton. */
  get start(): number {
    return this.#start;
  }

  /** Whether the open string's content goes to a spill. */
  get diverted(): boolean {
    return this.#spill !== undefined;
  }

  /** Forgets the quote and escape positions found: the next bytes are a new chunk's. */
  newChunk(): void {
    this.#ends.newChunk();
  }

  /** The open string's closing quote in `buffer[index, end)`, or -1 if it is not there. */
  findEnd(buffer: Buffer, index: number, end: number): number {
    return this.#ends.find(buffer, index, end);
  }

  /** A string opens, its quote at `start` in the skeleton. */
  open(start: number): void {
    this.#inside = true;
    this.#start = start;
  }

  /** From now on the content goes to `sink`, decoded, starting with what was read of it before. */
  divert(sink: SpillSink, before: Buffer): SpoolforgeError | undefined {
    const decoder = new JsonStringDecoder(sink);
    this.#spill = { decoder, sink };
    return caughtSpoolforgeError(() => decoder.write(before));
  }

  /** Decodes `buffer[start, end)` of a diverted string into its spill. */
  write(buffer: Buffer, start: number, end: number): SpoolforgeError | undefined {
    return caughtSpoolforgeError(() => this.#spill?.decoder.write(buffer, start, end));
  }

  /**
   * The string closes. Diverted, it gives its spill's `sink`, decoded to the end (the caller
   * ends it), or the `failure` of an escape cut off at the end (the sink then released).
   */
  close(): { sink: SpillSink } | { failure: SpoolforgeError } | undefined {
    this.#inside = false;
    const spill = this.#spill;
    this.#spill = undefined;
    if (!spill) return undefined;
    const { decoder, sink } = spill;
    const failure = caughtSpoolforgeError(() => decoder.end());
    if (!failure) return { sink };
    sink.release();
    return { failure };
  }

  /** Frees the spill of a message being dropped. */
  release(): void {
    this.#spill?.sink.release();
    this.#spill = undefined;
  }

  /** A new line starts: no string is open. */
  reset(): void {
    this.#inside = false;
    this.#ends.reset();
  }
}
