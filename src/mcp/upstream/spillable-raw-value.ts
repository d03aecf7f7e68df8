import type { SpillSink } from './spill-sink.js';

/**
 * The `result.structuredContent` a `JsonSpillParser` is reading: the depth it opened at, where it
 * starts in the skeleton, and, once it is diverted (past `spillBytes`), its raw JSON text going
 * to a spill instead of the skeleton.
 *
 * @example
 * ```ts
 * const line = Buffer.from('{"rows":[1,2,3]}');
 * const value = new SpillableRawValue();
 * value.open(2, 40); // its `{` at depth 2, byte 40 of the skeleton
 * value.divert(sink, line.subarray(0, 8)); // what the skeleton held of it
 * value.append(line, 8, line.length);
 * if (value.closesAt(1)) console.log(value.close()); // the sink, for the parser to end and register
 * ```
 */
export class SpillableRawValue {
  #open: { depth: number; start: number; sink?: SpillSink } | undefined;

  /** Whether a value is open. */
  get inside(): boolean {
    return this.#open !== undefined;
  }

  /** Where the open value starts in the skeleton. */
  get start(): number {
    return this.#open?.start ?? 0;
  }

  /** Whether the open value's text goes to a spill. */
  get diverted(): boolean {
    return this.#open?.sink !== undefined;
  }

  /** A value opens at nesting `depth`, at `start` in the skeleton. */
  open(depth: number, start: number): void {
    this.#open = { depth, start };
  }

  /** Whether the open value has ended once the nesting is back at `depth`. */
  closesAt(depth: number): boolean {
    return this.#open !== undefined && depth < this.#open.depth;
  }

  /** From now on the text goes to `sink`, starting with what was read of it before. */
  divert(sink: SpillSink, before: Buffer): void {
    if (!this.#open) return;
    sink.append(before);
    this.#open.sink = sink;
  }

  /** Appends `buffer[start, end)` to the spill of a diverted value. */
  append(buffer: Buffer, start: number, end: number): void {
    this.#open?.sink?.append(buffer, start, end);
  }

  /** The value closes: its spill, if it was diverted (the caller ends it). */
  close(): SpillSink | undefined {
    const sink = this.#open?.sink;
    this.#open = undefined;
    return sink;
  }

  /** Frees the spill of a message being dropped; the value stays open, kept nowhere. */
  release(): void {
    this.#open?.sink?.release();
    if (this.#open) delete this.#open.sink;
  }

  /** A new line starts: no value is open. */
  reset(): void {
    this.#open = undefined;
  }
}
