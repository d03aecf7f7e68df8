import { countNewlines, newline } from '../spool/newlines.js';
import { lastLinesStart, lineEndAt } from './block-lines.js';
import type { GrepScanOptions, GrepScanResult } from './grep-scan-options.js';
import type { GrepSink } from './grep-sink.js';
import { OnlyMatching } from './only-matching.js';

interface Pending {
  bytes: Uint8Array;
  lineNumber: number;
}

/**
 * What a {@link grepScan} has selected so far and how it goes through a block: GNU grep's
 * selection rules (invert, max count with trailing context, before/after context, `--` between
 * groups) applied to each block's matching lines, or to its count of them.
 *
 * @example
 * ```ts
 * const matcher = compileMatcher('ERROR');
 * const state = new GrepScanState({ matcher, countOnly: true }, undefined);
 * state.apply(block, await matcher.matchingLines(block));
 * ```
 */
export class GrepScanState {
  readonly #options: GrepScanOptions;
  readonly #sink: GrepSink | undefined;
  readonly #maxCount: number;
  readonly #before: number;
  readonly #after: number;
  #matchCount = 0;
  #lineNumber = 0;
  #lastEmitted = -1;
  #afterRemaining = 0;
  #maxReached = false;
  #stoppedBySink = false;
  #pending: Pending[] = [];

  /** How a block's matching lines are gone through (see the methods of that name). */
  readonly #mode: 'runs' | 'walk' | 'skim' | 'jump' | 'matches';
  /** `grep -o`: what the sink gets of a selected line is its matches. */
  readonly #onlyMatching: OnlyMatching | undefined;
  /**
   * Only the number of selected lines is wanted: a matcher may count matching lines instead of
   * listing them (with invert, the block's other lines are counted).
   */
  readonly countsOnly: boolean;
  readonly #invert: boolean;
  /** A block's bytes are read after its answer: one answered later must be kept intact. */
  readonly needsBytes: boolean;

  constructor(options: GrepScanOptions, sink: GrepSink | undefined) {
    this.#options = options;
    const skim =
      options.lineNumbers === true ||
      options.context === true ||
      (options.before ?? 0) > 0 ||
      (options.after ?? 0) > 0;
    const invert = options.invert === true;
    const only =
      options.onlyMatching && options.countOnly !== true ? options.onlyMatching : undefined;
    this.#onlyMatching = only && new OnlyMatching(options.matcher, only);
    const wholeText = sink?.text !== undefined && options.maxCount === undefined;
    // -v without line numbers or context: the lines between two matches go out as one run.
    const runs = invert && !skim && (options.countOnly === true || (wholeText && !only));
    this.#mode = runs
      ? 'runs'
      : invert
        ? 'walk'
        : skim
          ? 'skim'
          : only && wholeText
            ? 'matches'
            : 'jump';
    this.countsOnly = options.countOnly === true;
    this.#invert = invert;
    this.needsBytes = options.countOnly !== true || invert || skim;
    this.#sink = options.countOnly ? undefined : sink;
    this.#maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    this.#before = options.before ?? 0;
    this.#after = options.after ?? 0;
    this.#lineNumber = options.firstLineNumber ?? 0;
  }

  result(): GrepScanResult {
    return {
      matchCount: this.#matchCount,
      stoppedBySink: this.#stoppedBySink,
      nextLineNumber: this.#lineNumber,
    };
  }

  /**
   * Takes a block's answer: the starts of its matching lines, or (with `countsOnly`) how many
   * there are. Whether to go on.
   */
  apply(block: Uint8Array, answer: ArrayLike<number> | number): boolean {
    if (typeof answer === 'number') {
      if (!this.#invert) return this.#add(answer);
      // Every line but the matching ones; a last line without `\n` is a line too.
      const lines = countNewlines(block) + (block.length > 0 && block.at(-1) !== newline ? 1 : 0);
      return this.#add(lines - answer);
    }
    return this[this.#mode](block, answer);
  }

  /** Counts `count` more selected lines, up to the maximum; whether to go on. */
  #add(count: number): boolean {
    this.#matchCount = Math.min(this.#matchCount + count, this.#maxCount);
    return this.#matchCount < this.#maxCount;
  }

  /**
   * Fast path: no line numbers, no context, no invert; go from match to match. A sink that
   * takes whole lines (`text`) gets each run of adjacent matching lines at once, `\n`s and all,
   * rather than a call, a view and a newline per line.
   */
  jump(block: Uint8Array, starts: ArrayLike<number>): boolean {
    const sink = this.#sink;
    // Counting: nothing about a line but that it matched.
    if (!sink) return this.#add(starts.length);
    let runStart = 0;
    let runEnd = 0;
    let runLines = 0;
    for (let index = 0; index < starts.length; index++) {
      const start = starts[index] ?? 0;
      this.#matchCount++;
      const end = block.indexOf(newline, start);
      if (sink?.text && end !== -1 && !this.#onlyMatching) {
        if (start !== runEnd) {
          if (!this.#text(block, runStart, runEnd, runLines)) return false;
          runStart = start;
          runLines = 0;
        }
        runEnd = end + 1;
        runLines++;
      } else if (sink) {
        // A last line without `\n` (the end of the input) is printed as a line of its own.
        if (!this.#text(block, runStart, runEnd, runLines)) return false;
        runLines = 0;
        if (!this.#emit(block.subarray(start, end === -1 ? block.length : end), -1, true)) {
          return false;
        }
      }
      if (this.#matchCount >= this.#maxCount) {
        return this.#text(block, runStart, runEnd, runLines) && false;
      }
    }
    return this.#text(block, runStart, runEnd, runLines);
  }

  /**
   * `grep -o` without line numbers, context or a cap: a block's matches go to the sink's `text`
   * at once, one per line.
   */
  matches(block: Uint8Array, starts: ArrayLike<number>): boolean {
    const only = this.#onlyMatching as OnlyMatching;
    only.appendLines(Buffer.from(block.buffer, block.byteOffset, block.length), starts);
    this.#matchCount += starts.length;
    const text = only.take();
    return this.#text(text, 0, text.length, starts.length);
  }

  /** Hands the `lineCount` lines of `block[from, to)`, `\n`s and all, to the sink's `text`. */
  #text(block: Uint8Array, from: number, to: number, lineCount: number): boolean {
    if (lineCount > 0 && this.#sink?.text?.(block.subarray(from, to), lineCount) === false) {
      this.#stoppedBySink = true;
      return false;
    }
    return true;
  }

  /**
   * For line numbers and context without invert: from match to match, counting the lines in
   * between in bulk, and visiting one by one only those that may be printed (after-context, and
   * the last `before` lines ahead of a match). No per-line work on the lines nobody sees.
   */
  skim(block: Uint8Array, starts: ArrayLike<number>): boolean {
    let position = 0;
    for (let index = 0; index <= starts.length; index++) {
      const matchStart = index < starts.length ? (starts[index] ?? 0) : block.length;
      if (!this.#passOver(block, position, matchStart)) return false;
      if (index === starts.length) break;
      const end = lineEndAt(block, matchStart);
      if (!this.#visit(block, matchStart, end, true)) return false;
      this.#lineNumber++;
      position = end + 1;
    }
    this.#keepPending();
    return true;
  }

  /** Lines `[from, to)` of `block` that do not match; `to` is a line start or the block's end. */
  #passOver(block: Uint8Array, from: number, to: number): boolean {
    let position = from;
    while (position < to && (this.#afterRemaining > 0 || this.#maxReached)) {
      const end = lineEndAt(block, position);
      if (!this.#visit(block, position, end, false)) return false;
      this.#lineNumber++;
      position = end + 1;
    }
    const keepFrom =
      this.#sink && this.#before > 0 ? lastLinesStart(block, position, to, this.#before) : to;
    if (keepFrom > position) {
      this.#lineNumber += countNewlines(block, position, keepFrom);
      // At least `before` lines follow them: nothing pending can be printed any more.
      this.#pending = [];
      position = keepFrom;
    }
    while (position < to) {
      const end = lineEndAt(block, position);
      if (!this.#visit(block, position, end, false)) return false;
      this.#lineNumber++;
      position = end + 1;
    }
    return true;
  }

  /**
   * Invert without line numbers or context: counts the lines between matches in bulk and, for
   * a sink that takes whole runs of lines, hands each run over at once.
   */
  runs(block: Uint8Array, starts: ArrayLike<number>): boolean {
    let position = 0;
    for (let index = 0; index <= starts.length; index++) {
      const matchStart = index < starts.length ? (starts[index] as number) : block.length;
      if (matchStart > position && !this.#run(block, position, matchStart)) return false;
      if (index === starts.length) break;
      position = lineEndAt(block, matchStart) + 1;
    }
    return this.#matchCount < this.#maxCount;
  }

  /** The lines of `block[from, to)`, none of them matching; `to` is a line start or the end. */
  #run(block: Uint8Array, from: number, to: number): boolean {
    // A last line without `\n` (the end of the input) is printed as a line of its own.
    const unterminated = block[to - 1] !== newline;
    const whole = unterminated ? block.lastIndexOf(newline, to - 1) + 1 : to;
    const lines = countNewlines(block, from, whole);
    this.#add(lines);
    if (!this.#text(block, from, whole, lines)) return false;
    const sink = this.#sink;
    if (unterminated) {
      this.#add(1);
      const last = Math.max(whole, from);
      if (sink && !this.#emit(block.subarray(last, to), -1, true)) return false;
    }
    return true;
  }

  /** Visits every line: needed for invert with line numbers or context. */
  walk(block: Uint8Array, starts: ArrayLike<number>): boolean {
    let nextMatchIndex = 0;
    let nextMatch = starts.length > 0 ? (starts[0] ?? -1) : -1;
    let position = 0;
    while (position < block.length) {
      const found = block.indexOf(newline, position);
      const end = found === -1 ? block.length : found;
      const isMatch = position === nextMatch;
      if (isMatch) {
        nextMatchIndex++;
        nextMatch = nextMatchIndex < starts.length ? (starts[nextMatchIndex] ?? -1) : -1;
      }
      if (!this.#visit(block, position, end, isMatch)) return false;
      this.#lineNumber++;
      position = end + 1;
    }
    this.#keepPending();
    return true;
  }

  /** Before-context may outlive this block, whose buffer the next read may recycle. */
  #keepPending(): void {
    for (const pending of this.#pending) pending.bytes = Buffer.from(pending.bytes);
  }

  #visit(block: Uint8Array, start: number, end: number, isMatch: boolean): boolean {
    const lineNumber = this.#lineNumber;
    if (this.#maxReached) {
      if (this.#afterRemaining === 0) return false;
      this.#afterRemaining--;
      return this.#emit(block.subarray(start, end), lineNumber, false) && this.#afterRemaining > 0;
    }
    if (isMatch !== (this.#options.invert === true)) {
      this.#matchCount++;
      if (this.#sink) {
        for (const pending of this.#pending) {
          if (!this.#emit(pending.bytes, pending.lineNumber, false)) return false;
        }
        this.#pending = [];
        if (!this.#emit(block.subarray(start, end), lineNumber, true)) return false;
        this.#afterRemaining = this.#after;
      }
      if (this.#matchCount >= this.#maxCount) {
        this.#maxReached = true;
        return this.#afterRemaining > 0;
      }
      return true;
    }
    if (!this.#sink) return true;
    if (this.#afterRemaining > 0) {
      this.#afterRemaining--;
      return this.#emit(block.subarray(start, end), lineNumber, false);
    }
    if (this.#before > 0) {
      if (this.#pending.length === this.#before) this.#pending.shift();
      this.#pending.push({ bytes: block.subarray(start, end), lineNumber });
    }
    return true;
  }

  #emit(bytes: Uint8Array, lineNumber: number, isMatch: boolean): boolean {
    const sink = this.#sink;
    if (!sink) return true;
    if (this.#options.context && this.#lastEmitted >= 0 && lineNumber > this.#lastEmitted + 1) {
      sink.separator();
    }
    this.#lastEmitted = lineNumber;
    const shown = isMatch && this.#onlyMatching ? this.#onlyMatching.ofLine(bytes) : bytes;
    if (sink.line(shown, lineNumber, isMatch) === false) {
      this.#stoppedBySink = true;
      return false;
    }
    return true;
  }
}
