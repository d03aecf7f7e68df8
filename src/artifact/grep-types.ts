import type { PatternOptions } from './grep/compile-matcher.js';

/**
 * Options for {@link SpooledArtifact.grep}, named after the grep flags they mirror.
 *
 * @example
 * ```ts
 * await artifact.grep('ERROR', { ignoreCase: true, context: 2, maxCount: 20 });
 * ```
 */
export interface GrepOptions extends PatternOptions {
  /** Select non-matching lines (`-v`). */
  invert?: boolean;
  /** Only count selected lines (`-c`); `lines` comes back empty. */
  count?: boolean;
  /** Stop after this many selected lines (`-m`). */
  maxCount?: number;
  /** Lines of context before each selected line (`-B`). */
  before?: number;
  /** Lines of context after each selected line (`-A`). */
  after?: number;
  /** Lines of context on both sides (`-C`); `before` / `after` win where given. */
  context?: number;
  /** Start at this 0-based line (to continue a search that was cut). Default 0. */
  startLine?: number;
}

/**
 * One line of a grep result. `lineNumber` is 0-based, like every line number of the TypeScript
 * API; `text` is UTF-8 decoded without its `\n`.
 *
 * @example
 * ```ts
 * const line: GrepLine = { lineNumber: 41, text: 'ERROR disk full', isMatch: true };
 * ```
 */
export interface GrepLine {
  lineNumber: number;
  text: string;
  /** False for a context line. */
  isMatch: boolean;
}

/**
 * The answer of {@link SpooledArtifact.grep}: selected lines and context, in file order.
 * A gap between consecutive `lineNumber`s is where grep would print `--`.
 *
 * @example
 * ```ts
 * const { matchCount, lines } = await artifact.grep('timeout');
 * ```
 */
export interface GrepResult {
  /** Selected lines, at most `maxCount`. */
  matchCount: number;
  lines: GrepLine[];
}
