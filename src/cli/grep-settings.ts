import type { PatternSyntax } from '../grep/compile-matcher.js';
import type { GrepScanOptions } from '../grep/grep-scan-options.js';
import type { HttpSpoolReaderOptions } from '../spool/http/http-spool-reader-options.js';
import { parseArguments, parseCount, usageError } from './parse-arguments.js';
import { httpOptions, sourceOptions } from './source-operand.js';

const grepOptions = [
  { short: 'E', long: 'extended-regexp' },
  { short: 'F', long: 'fixed-strings' },
  { short: 'i', long: 'ignore-case' },
  { short: 'w', long: 'word-regexp' },
  { short: 'x', long: 'line-regexp' },
  { short: 'v', long: 'invert-match' },
  { short: 'c', long: 'count' },
  { short: 'n', long: 'line-number' },
  { short: 'o', long: 'only-matching' },
  { short: 'q', long: 'quiet' },
  { short: 's', long: 'no-messages' },
  { short: 'l', long: 'files-with-matches' },
  { short: 'L', long: 'files-without-match' },
  { short: 'H', long: 'with-filename' },
  { short: 'h', long: 'no-filename' },
  { short: 'm', long: 'max-count', takesValue: true },
  { short: 'A', long: 'after-context', takesValue: true },
  { short: 'B', long: 'before-context', takesValue: true },
  { short: 'C', long: 'context', takesValue: true },
  { short: 'e', long: 'regexp', takesValue: true, repeatable: true },
  ...sourceOptions,
];

/**
 * A `grep` command line, parsed: the pattern, the SOURCEs, and what to print.
 *
 * @example
 * ```ts
 * const settings: GrepSettings = parseGrepArguments(['-c', 'ERROR', 'a.log', 'b.log']);
 * ```
 */
export interface GrepSettings {
  pattern: string;
  /** At least one; `-` (standard input) when none was given. */
  sources: string[];
  syntax: PatternSyntax;
  /** What the scan of each SOURCE selects: `-v`, `-m`, context, and count-only for -c/-l/-L/-q. */
  scan: Required<Pick<GrepScanOptions, 'invert' | 'countOnly' | 'lineNumbers' | 'context'>> &
    Pick<GrepScanOptions, 'before' | 'after' | 'maxCount'>;
  maxCount: number | undefined;
  lineNumbers: boolean;
  countOnly: boolean;
  onlyMatching: boolean;
  quiet: boolean;
  noMessages: boolean;
  listFiles: 'with-matches' | 'without-match' | undefined;
  withFileName: boolean;
  http: Pick<HttpSpoolReaderOptions, 'timeout' | 'retries'>;
}

/**
 * Parses `grep`'s arguments as GNU grep reads them. `-e PATTERN` may be repeated (a line
 * matching any is selected) and then every operand is a SOURCE; `-E` is accepted and changes nothing (the
 * pattern is a JavaScript regex either way); of `-l` and `-L`, and of `-H` and `-h`, the last
 * given wins; `-q` stops at the first selected line; `-l`/`-L` at the first of each SOURCE.
 *
 * @example
 * ```ts
 * parseGrepArguments(['-inw', 'error', 'app.log']).syntax; // { fixed: false, ignoreCase: true, wordRegexp: true, lineRegexp: false }
 * ```
 */
export function parseGrepArguments(argv: readonly string[]): GrepSettings {
  const { options, repeated, operands } = parseArguments(argv, grepOptions);
  // With -e, every operand is a SOURCE; a line matching any of the patterns is selected.
  const patterns = repeated.get('e');
  const pattern = patterns ? patterns.join('\n') : operands.shift();
  const sources = operands;
  if (pattern === undefined) throw usageError('missing PATTERN');
  if (sources.length === 0) sources.push('-');
  const count = (letter: string, what: string) => {
    const value = options.get(letter);
    return value === undefined ? undefined : parseCount(value, what).value;
  };
  const contextLines = count('C', 'context lines');
  const before = count('B', 'context lines') ?? contextLines;
  const after = count('A', 'context lines') ?? contextLines;
  const maxCount = count('m', 'matches');
  const last = (...letters: string[]) =>
    [...options.keys()].findLast((key) => letters.includes(key));
  const list = last('l', 'L');
  const quiet = options.has('q');
  const countOnly = options.has('c');
  // Only whether a SOURCE has a selected line matters: stop at the first.
  const firstOnly = quiet || list !== undefined;
  const lineNumbers = options.has('n');
  return {
    pattern,
    sources,
    syntax: {
      fixed: options.has('F'),
      ignoreCase: options.has('i'),
      wordRegexp: options.has('w'),
      lineRegexp: options.has('x'),
    },
    scan: {
      invert: options.has('v'),
      countOnly: countOnly || firstOnly,
      lineNumbers,
      context: before !== undefined || after !== undefined,
      before: before ?? 0,
      after: after ?? 0,
      ...(firstOnly ? { maxCount: 1 } : maxCount === undefined ? {} : { maxCount }),
    },
    maxCount,
    lineNumbers,
    countOnly,
    onlyMatching: options.has('o'),
    quiet,
    noMessages: options.has('s'),
    listFiles: list === 'l' ? 'with-matches' : list === 'L' ? 'without-match' : undefined,
    withFileName: (last('H', 'h') ?? (sources.length > 1 ? 'H' : 'h')) === 'H',
    http: httpOptions(options),
  };
}
