import type { GrepScanOptions, GrepScanResult } from './grep-scan-options.js';
import type { GrepSink } from './grep-sink.js';
import { OnlyMatching } from './only-matching.js';

interface Pending {
  bytes: Uint8Array;
  lineNumber: number;
}

/**
 * GNU grep's selection rules, line by line: invert, max count with trailing context,
 * before/after context, `--` between groups, what the sink gets of a line (`-o`: its matches)
 * and its asking to stop. {@link GrepScanState} goes through each block's lines in the way its
 * options allow and hands them here; the state both share is plain fields, read and written in
 * its loops without a call.
 */
export abstract class GrepSelection {
  readonly #options: GrepScanOptions;
  protected readonly sink: GrepSink | undefined;
  protected readonly maxCount: number;
  protected readonly before: number;
  readonly #after: number;
  protected matchCount = 0;
  protected lineNumber = 0;
  #lastEmitted = -1;
  protected afterRemaining = 0;
  protected maxReached = false;
  #stoppedBySink = false;
  protected pending: Pending[] = [];
  /** `grep -o`: what the sink gets of a selected line is its matches. */
  protected readonly onlyMatching: OnlyMatching | undefined;

  constructor(options: GrepScanOptions, sink: GrepSink | undefined) {
    this.#options = options;
    const only =
      options.onlyMatching && options.countOnly !== true ? options.onlyMatching : undefined;
    this.onlyMatching = only && new OnlyMatching(options.matcher, only);
    this.sink = options.countOnly ? undefined : sink;
    this.maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    this.before = options.before ?? 0;
    this.#after = options.after ?? 0;
    this.lineNumber = options.firstLineNumber ?? 0;
  }

  result(): GrepScanResult {
    return {
      matchCount: this.matchCount,
      stoppedBySink: this.#stoppedBySink,
      nextLineNumber: this.lineNumber,
    };
  }

  /** Counts `count` more selected lines, up to the maximum; whether to go on. */
  protected add(count: number): boolean {
    this.matchCount = Math.min(this.matchCount + count, this.maxCount);
    return this.matchCount < this.maxCount;
  }

  /** Hands the `lineCount` lines of `block[from, to)`, `\n`s and all, to the sink's `text`. */
  protected text(block: Uint8Array, from: number, to: number, lineCount: number): boolean {
    if (lineCount > 0 && this.sink?.text?.(block.subarray(from, to), lineCount) === false) {
      this.#stoppedBySink = true;
      return false;
    }
    return true;
  }

  /** Before-context may outlive this block, whose buffer the next read may recycle. */
  protected keepPending(): void {
    for (const pending of this.pending) pending.bytes = Buffer.from(pending.bytes);
  }

  /** The line `block[start, end)`, numbered `lineNumber`; whether to go on. */
  protected visit(block: Uint8Array, start: number, end: number, isMatch: boolean): boolean {
    const lineNumber = this.lineNumber;
    if (this.maxReached) {
      if (this.afterRemaining === 0) return false;
      this.afterRemaining--;
      return this.emit(block.subarray(start, end), lineNumber, false) && this.afterRemaining > 0;
    }
    if (isMatch !== (this.#options.invert === true)) {
      this.matchCount++;
      if (this.sink) {
        for (const pending of this.pending) {
          if (!this.emit(pending.bytes, pending.lineNumber, false)) return false;
        }
        this.pending = [];
        if (!this.emit(block.subarray(start, end), lineNumber, true)) return false;
        this.afterRemaining = this.#after;
      }
      if (this.matchCount >= this.maxCount) {
        this.maxReached = true;
        return this.afterRemaining > 0;
      }
      return true;
    }
    if (!this.sink) return true;
    if (this.afterRemaining > 0) {
      this.afterRemaining--;
      return this.emit(block.subarray(start, end), lineNumber, false);
    }
    if (this.before > 0) {
      if (this.pending.length === this.before) this.pending.shift();
      this.pending.push({ bytes: block.subarray(start, end), lineNumber });
    }
    return true;
  }

  /** Prints a selected or context line, after `--` when it does not follow the last one. */
  protected emit(bytes: Uint8Array, lineNumber: number, isMatch: boolean): boolean {
    const sink = this.sink;
    if (!sink) return true;
    if (this.#options.context && this.#lastEmitted >= 0 && lineNumber > this.#lastEmitted + 1) {
      sink.separator();
    }
    this.#lastEmitted = lineNumber;
    const shown = isMatch && this.onlyMatching ? this.onlyMatching.ofLine(bytes) : bytes;
    if (sink.line(shown, lineNumber, isMatch) === false) {
      this.#stoppedBySink = true;
      return false;
    }
    return true;
  }
}
