import type { GrepSink } from './grep-sink.js';

/**
 * Options for an {@link OrderedGrepMerge}: the flags that decide what one pass would print.
 */
export interface OrderedGrepMergeOptions {
  /** Parts number their lines; without it, lines are reported as -1 and never deduplicated. */
  tracksLines: boolean;
  /** Print `--` between groups that are not adjacent. */
  context: boolean;
  after: number;
  maxCount: number;
}

/**
 * Joins the lines that part scans printed, part after part, into what one pass prints. Each
 * part scan also looked at the lines just before its part, so it printed the before-context of
 * its first matches and the after-context spilling from the previous part's last ones; a line
 * two parts printed is written once (parts come in order, so it is at or before the last line
 * written). The merge also places `--` between groups and applies `-m` over the whole file:
 * after the N-th selected line, only its trailing context, then stop.
 *
 * @example
 * ```ts
 * const merge = new OrderedGrepMerge({ tracksLines: true, context: true, after: 2, maxCount: Infinity }, sink);
 * merge.startPart(0);
 * merge.line(lineBytes, 0, true);
 * ```
 */
export class OrderedGrepMerge {
  readonly #options: OrderedGrepMergeOptions;
  readonly #sink: GrepSink | undefined;
  #firstLineNumber = 0;
  #lastWritten = -1;
  #selected = 0;
  #lastToPrint = Number.POSITIVE_INFINITY;
  #stoppedBySink = false;

  constructor(options: OrderedGrepMergeOptions, sink: GrepSink | undefined) {
    this.#options = options;
    this.#sink = sink;
  }

  /** Selected lines written so far. */
  get selected(): number {
    return this.#selected;
  }

  get stoppedBySink(): boolean {
    return this.#stoppedBySink;
  }

  /** The lines that follow have numbers relative to `firstLineNumber` (0-based, whole file). */
  startPart(firstLineNumber: number): void {
    this.#firstLineNumber = firstLineNumber;
  }

  /**
   * One line a part printed, numbered relative to its part. Returns `false` when nothing more
   * will be written: `-m` and its trailing context are done, or the sink asked to stop.
   */
  line(bytes: Uint8Array, relativeLineNumber: number, selected: boolean): boolean {
    const { tracksLines } = this.#options;
    const lineNumber = tracksLines ? this.#firstLineNumber + relativeLineNumber : -1;
    if (tracksLines && lineNumber <= this.#lastWritten) return true;
    if (lineNumber > this.#lastToPrint) return false;
    // Past the N-th selected line, a selected line is trailing context, as in one pass.
    const counts = selected && this.#lastToPrint === Number.POSITIVE_INFINITY;
    if (counts) this.#selected++;
    if (this.#sink) {
      if (this.#options.context && this.#lastWritten >= 0 && lineNumber > this.#lastWritten + 1) {
        this.#sink.separator();
      }
      if (this.#sink.line(bytes, lineNumber, counts) === false) {
        this.#stoppedBySink = true;
        return false;
      }
    }
    this.#lastWritten = lineNumber;
    if (counts && this.#selected === this.#options.maxCount) {
      this.#lastToPrint = lineNumber + this.#options.after;
    }
    return lineNumber < this.#lastToPrint;
  }
}
