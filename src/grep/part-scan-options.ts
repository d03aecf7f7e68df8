import { type PatternSyntax, patternRegex } from './compile-matcher.js';
import type { GrepScanOptions } from './grep-scan-options.js';

/**
 * The grep flags every part of a parallel scan is grepped with, whichever thread greps it.
 */
export interface PartScanFlags {
  pattern: string;
  patternOptions: PatternSyntax;
  invert: boolean;
  before: number;
  after: number;
  /** Line numbers are needed (printed, or to merge context across parts). */
  tracksLines: boolean;
  countOnly: boolean;
  /** No part can add more than this many selected lines to the total. */
  maxCount: number;
  /** `grep -o`: a selected line is sent as its non-empty matches joined by `\n`. */
  onlyMatching: boolean;
}

/**
 * The `grepScan` options of one part for `flags`, but its matcher, start line and progress.
 * A count is capped by the scan itself; printed lines are capped by whoever receives them
 * (lines before the part, read for context, must not count).
 *
 * @example
 * ```ts
 * const flags = { pattern: 'ERROR', patternOptions: {}, invert: false, before: 0, after: 0 };
 * const options = partScanOptions({ ...flags, tracksLines: false, countOnly: true, maxCount: 10, onlyMatching: false });
 * ```
 */
export function partScanOptions(
  flags: PartScanFlags,
): Omit<GrepScanOptions, 'matcher' | 'firstLineNumber' | 'onProgress'> {
  return {
    invert: flags.invert,
    countOnly: flags.countOnly,
    lineNumbers: flags.tracksLines,
    before: flags.before,
    after: flags.after,
    ...(flags.onlyMatching
      ? { onlyMatching: patternRegex(flags.pattern, { ...flags.patternOptions, global: true }) }
      : {}),
    ...(flags.countOnly ? { maxCount: flags.maxCount } : {}),
  };
}
