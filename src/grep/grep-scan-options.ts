import type { LineBlocksOptions } from '../spool/line-blocks.js';
import type { LineMatcher } from './line-matcher.js';

/**
 * Options for `grepScan`; the grep flags, already parsed.
 */
export interface GrepScanOptions extends LineBlocksOptions {
  matcher: LineMatcher;
  invert?: boolean;
  /** Stop after this many selected lines (then print their trailing context, as grep does). */
  maxCount?: number;
  before?: number;
  after?: number;
  /** Context was asked for (even 0 lines): print separators between groups, as grep does. */
  context?: boolean;
  /**
   * `grep -o`: the pattern's regex with the `g` flag. A selected line then reaches the sink as
   * its non-empty matches joined by `\n` (empty when it has none), never through `text`.
   */
  onlyMatching?: RegExp;
  /** Count only; the sink gets no lines. */
  countOnly?: boolean;
  /** Track 0-based line numbers; without it, lines are reported as -1 where no walk is needed. */
  lineNumbers?: boolean;
  /** The number of the first line of `chunks`, when the scan starts mid-file. Default 0. */
  firstLineNumber?: number;
  /** Called after each block; a returned promise is awaited (back-pressure for output). */
  onProgress?: (bytesScanned: number) => void | Promise<void>;
}

/**
 * The outcome of a `grepScan`.
 *
 * @example
 * ```ts
 * const { matchCount } = await grepScan(chunks, { matcher, maxCount: 5 }, sink);
 * ```
 */
export interface GrepScanResult {
  /** Selected lines (matching, or not matching with `invert`), at most `maxCount`. */
  matchCount: number;
  /** The sink asked to stop before the input ended. */
  stoppedBySink: boolean;
  /**
   * The number the line after the last one scanned would have. Tracked with line numbers or
   * context (and invert with either); a part scan uses it to number the next part's lines.
   */
  nextLineNumber: number;
}
