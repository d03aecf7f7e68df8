import { countNewlines, newline } from '../spool/newlines.js';
import { lastLinesStart, lineEndAt } from './block-lines.js';
import type { GrepScanOptions } from './grep-scan-options.js';
import { GrepSelection } from './grep-selection.js';
import type { GrepSink } from './grep-sink.js';
import type { OnlyMatching } from './only-matching.js';
import { selectedText } from './selected-text.js';

/**
 * What a {@link grepScan} has selected so far and how it goes through a block: the way its
 * options allow (a mode chosen once), each block's matching lines, or its count of them, given
 * to {@link GrepSelection}'s rules.
 *
 * @example
 * ```ts
 * const matcher = compileMatcher('ERROR');
 * const state = new GrepScanState({ matcher, countOnly: true }, undefined);
 * state.apply(block, await matcher.matchingLines(block));
 * ```
 */
export class GrepScanState extends GrepSelection {
  /** How a block's matching lines are gone through (see the methods of that name). */
  readonly #mode: 'runs' | 'walk' | 'skim' | 'jump' | 'matches';
  /**
   * Only the number of selected lines is wanted: a matcher may count matching lines instead of
   * listing them (with invert, the block's other lines are counted).
   */
  readonly countsOnly: boolean;
  readonly #invert: boolean;
  /** A block's bytes are read after its answer: one answered later must be kept intact. */
  readonly needsBytes: boolean;

  constructor(options: GrepScanOptions, sink: GrepSink | undefined) {
    super(options, sink);
    const skim =
      options.lineNumbers === true ||
      options.context === true ||
      (options.before ?? 0) > 0 ||
      (options.after ?? 0) > 0;
    const invert = options.invert === true;
    const only = this.onlyMatching !== undefined;
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
  }

  /**
   * Takes a block's answer: the starts of its matching lines, or (with `countsOnly`) how many
   * there are. Whether to go on.
   */
  apply(block: Uint8Array, answer: ArrayLike<number> | number): boolean {
    if (typeof answer === 'number') {
      return this.add(this.#invert ? linesIn(block) - answer : answer);
    }
    return this[this.#mode](block, answer);
  }

  /**
   * Fast path: no line numbers, no context, no invert; go from match to match. A sink that
   * takes whole lines (`text`) gets each run of adjacent matching lines at once, `\n`s and all,
   * rather than a call, a view and a newline per line.
   */
  jump(block: Uint8Array, starts: ArrayLike<number>): boolean {
    const sink = this.sink;
    // Counting: nothing about a line but that it matched.
    if (!sink) return this.add(starts.length);
    if (sink.text && !this.onlyMatching && this.matchCount + starts.length < this.maxCount) {
      const text = selectedText(block, starts, false);
      if (text) {
        this.matchCount += starts.length;
        return this.text(text, 0, text.length, starts.length);
      }
    }
    let runStart = 0;
    let runEnd = 0;
    let runLines = 0;
    for (let index = 0; index < starts.length; index++) {
      const start = starts[index] ?? 0;
      this.matchCount++;
      const end = block.indexOf(newline, start);
      if (sink?.text && end !== -1 && !this.onlyMatching) {
        if (start !== runEnd) {
          if (!this.text(block, runStart, runEnd, runLines)) return false;
          runStart = start;
          runLines = 0;
        }
        runEnd = end + 1;
        runLines++;
      } else if (sink) {
        // A last line without `\n` (the end of the input) is printed as a line of its own.
        if (!this.text(block, runStart, runEnd, runLines)) return false;
        runLines = 0;
        if (!this.emit(block.subarray(start, end === -1 ? block.length : end), -1, true)) {
          return false;
        }
      }
      if (this.matchCount >= this.maxCount) {
        return this.text(block, runStart, runEnd, runLines) && false;
      }
    }
    return this.text(block, runStart, runEnd, runLines);
  }

  /**
   * `grep -o` without line numbers, context or a cap: a block's matches go to the sink's `text`
   * at once, one per line.
   */
  matches(block: Uint8Array, starts: ArrayLike<number>): boolean {
    const only = this.onlyMatching as OnlyMatching;
    only.appendLines(Buffer.from(block.buffer, block.byteOffset, block.length), starts);
    this.matchCount += starts.length;
    const text = only.take();
    return this.text(text, 0, text.length, starts.length);
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
      if (!this.visit(block, matchStart, end, true)) return false;
      this.lineNumber++;
      position = end + 1;
    }
    this.keepPending();
    return true;
  }

  /** Lines `[from, to)` of `block` that do not match; `to` is a line start or the block's end. */
  #passOver(block: Uint8Array, from: number, to: number): boolean {
    let position = from;
    while (position < to && (this.afterRemaining > 0 || this.maxReached)) {
      const end = lineEndAt(block, position);
      if (!this.visit(block, position, end, false)) return false;
      this.lineNumber++;
      position = end + 1;
    }
    const keepFrom =
      this.sink && this.before > 0 ? lastLinesStart(block, position, to, this.before) : to;
    if (keepFrom > position) {
      this.lineNumber += countNewlines(block, position, keepFrom);
      // At least `before` lines follow them: nothing pending can be printed any more.
      this.pending = [];
      position = keepFrom;
    }
    while (position < to) {
      const end = lineEndAt(block, position);
      if (!this.visit(block, position, end, false)) return false;
      this.lineNumber++;
      position = end + 1;
    }
    return true;
  }

  /**
   * Invert without line numbers or context: counts the lines between matches in bulk and, for
   * a sink that takes whole runs of lines, hands each run over at once.
   */
  runs(block: Uint8Array, starts: ArrayLike<number>): boolean {
    // Counting: the block's lines less its matching ones.
    if (!this.sink) return this.add(linesIn(block) - starts.length);
    const text = selectedText(block, starts, true);
    if (text) {
      const lines = linesIn(block) - starts.length;
      return this.add(lines) && this.text(text, 0, text.length, lines);
    }
    let position = 0;
    for (let index = 0; index <= starts.length; index++) {
      const matchStart = index < starts.length ? (starts[index] as number) : block.length;
      if (matchStart > position && !this.#run(block, position, matchStart)) return false;
      if (index === starts.length) break;
      position = lineEndAt(block, matchStart) + 1;
    }
    return this.matchCount < this.maxCount;
  }

  /** The lines of `block[from, to)`, none of them matching; `to` is a line start or the end. */
  #run(block: Uint8Array, from: number, to: number): boolean {
    // A last line without `\n` (the end of the input) is printed as a line of its own.
    const unterminated = block[to - 1] !== newline;
    const whole = unterminated ? block.lastIndexOf(newline, to - 1) + 1 : to;
    const lines = countNewlines(block, from, whole);
    this.add(lines);
    if (!this.text(block, from, whole, lines)) return false;
    const sink = this.sink;
    if (unterminated) {
      this.add(1);
      const last = Math.max(whole, from);
      if (sink && !this.emit(block.subarray(last, to), -1, true)) return false;
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
      if (!this.visit(block, position, end, isMatch)) return false;
      this.lineNumber++;
      position = end + 1;
    }
    this.keepPending();
    return true;
  }
}

/** The lines of a block: its `\n`s, and a last line without one. */
function linesIn(block: Uint8Array): number {
  return countNewlines(block) + (block.length > 0 && block.at(-1) !== newline ? 1 : 0);
}
