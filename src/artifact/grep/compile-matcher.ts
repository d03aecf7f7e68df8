import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { InThreadRegexLineMatcher } from './in-thread-regex-line-matcher.js';
import {
  BytesLineMatcher,
  CaseFoldingBytesLineMatcher,
  type LineMatcher,
  literalRarity,
} from './line-matcher.js';
import { PrefilteredLineMatcher } from './prefiltered-line-matcher.js';
import { RegexLineMatcher } from './regex-line-matcher.js';
import { requiredLiterals } from './required-literal.js';

/**
 * How a pattern is read.
 *
 * @example
 * ```ts
 * const options: PatternOptions = { fixed: true, ignoreCase: true };
 * ```
 */
export interface PatternOptions {
  /** Treat the pattern as a literal string (`grep -F`). */
  fixed?: boolean;
  /** Case-insensitive (`grep -i`). */
  ignoreCase?: boolean;
  /** Milliseconds before a regex scan fails with `E_REGEX_TIMEOUT`. */
  timeout?: number;
  signal?: AbortSignal;
  /**
   * Run a regex on the calling thread (then `timeout` and `signal` do not apply to it): for
   * callers that are a worker thread themselves, which their owner can terminate.
   */
  inThread?: boolean;
}

const regexSyntax = /[\\^$.|?*+()[\]{}]/;
const nonAscii = /[\u0080-\uffff]/;
const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}/-]/g, '\\$&');

/**
 * Compiles a grep pattern (JavaScript regex syntax; a `\n` in it separates alternatives, as in
 * grep) into the fastest safe matcher: a byte search for literals; for a regex, a byte search
 * for the literals every match must contain, then the regex (in a worker thread) on those lines. `.` matches any character of a line, `\r` included. An invalid pattern fails here
 * with `E_REGEX_INVALID`.
 *
 * @example
 * ```ts
 * const matcher = compileMatcher('timeout after \\d+ms', { ignoreCase: true, timeout: 5_000 });
 * ```
 */
export function compileMatcher(pattern: string, options: PatternOptions = {}): LineMatcher {
  const alternatives = pattern.split('\n');
  const literal = options.fixed || !regexSyntax.test(pattern);
  const caseMatters =
    options.ignoreCase === true && pattern.toLowerCase() !== pattern.toUpperCase();
  if (alternatives.length === 1 && literal && !caseMatters) {
    return new BytesLineMatcher(Buffer.from(pattern, 'utf8'));
  }
  if (alternatives.length === 1 && literal && !nonAscii.test(pattern)) {
    return new CaseFoldingBytesLineMatcher(pattern);
  }
  const regex = patternRegex(pattern, options);
  const matcherOptions = {
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const regexMatcher = options.inThread
    ? new InThreadRegexLineMatcher(regex)
    : new RegexLineMatcher(regex, matcherOptions);
  const literals = alternatives.length === 1 && !options.fixed ? requiredLiterals(pattern) : [];
  const required = literals[0];
  if (required === undefined) return regexMatcher;
  if (!options.ignoreCase) {
    // The search starts from the literal with the rarest byte; the others check its lines.
    const [first, ...others] = literals
      .map((literal) => Buffer.from(literal, 'utf8'))
      .sort((a, b) => literalRarity(b) - literalRarity(a));
    return new PrefilteredLineMatcher(new BytesLineMatcher(first as Buffer), regexMatcher, others);
  }
  if (nonAscii.test(required)) return regexMatcher;
  return new PrefilteredLineMatcher(new CaseFoldingBytesLineMatcher(required), regexMatcher);
}

/**
 * A grep pattern as one JavaScript regex, with grep's meaning: alternatives on separate lines,
 * `fixed` literals, `ignoreCase`, and `.` matching any character of a line. An invalid pattern
 * fails with `E_REGEX_INVALID`.
 *
 * @example
 * ```ts
 * patternRegex('a.b', { fixed: true }).source; // 'a\\.b'
 * ```
 */
export function patternRegex(
  pattern: string,
  options: Pick<PatternOptions, 'fixed' | 'ignoreCase'> = {},
): RegExp {
  const sources = pattern
    .split('\n')
    .map((alternative) => (options.fixed ? escapeRegex(alternative) : alternative));
  const source =
    sources.length === 1 ? (sources[0] ?? '') : sources.map((s) => `(?:${s})`).join('|');
  return compileRegex(source, `s${options.ignoreCase ? 'i' : ''}`);
}

function compileRegex(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new SpoolforgeError(
      'E_REGEX_INVALID',
      `Invalid regular expression /${source}/: ${(error as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /, '')}`,
      { cause: error },
    );
  }
}
