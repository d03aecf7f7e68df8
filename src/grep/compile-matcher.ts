import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { InThreadRegexLineMatcher } from './in-thread-regex-line-matcher.js';
import { isLiteralPattern } from './is-literal-pattern.js';
import { BytesLineMatcher, CaseFoldingBytesLineMatcher, type LineMatcher } from './line-matcher.js';
import { LiteralSequenceLineMatcher, literalSequence } from './literal-sequence-line-matcher.js';
import { literalRarity } from './needle-anchor.js';
import { PrefilteredLineMatcher } from './prefiltered-line-matcher.js';
import { RegexLineMatcher } from './regex-line-matcher.js';
import { requiredLiterals } from './required-literal.js';

/**
 * How a pattern is read.
 */
export interface PatternOptions {
  /** Treat the pattern as a literal string (`grep -F`). */
  fixed?: boolean;
  /** Case-insensitive (`grep -i`). */
  ignoreCase?: boolean;
  /**
   * Only matches that form whole words (`grep -w`): preceded and followed by the line's edge or
   * a character other than an ASCII letter, digit or `_` (GNU grep's word in the C locale).
   */
  wordRegexp?: boolean;
  /** Only matches of the whole line (`grep -x`). */
  lineRegexp?: boolean;
  /** Milliseconds before a regex scan fails with `E_REGEX_TIMEOUT`. */
  timeout?: number;
  signal?: AbortSignal;
  /**
   * What a regex scan does when the regex worker pool's queue is full: wait its turn (the
   * default: your own code) or fail at once with `E_BUSY` (the model-facing tools).
   */
  whenBusy?: 'wait' | 'fail';
  /**
   * Run a regex on the calling thread (then `timeout` and `signal` do not apply to it): for
   * callers that are a worker thread themselves, which their owner can terminate.
   */
  inThread?: boolean;
}

/**
 * The options that decide what a pattern matches (the rest say how long to try): what a
 * parallel scan hands each of its threads.
 */
export type PatternSyntax = Pick<
  PatternOptions,
  'fixed' | 'ignoreCase' | 'wordRegexp' | 'lineRegexp'
>;

const nonAscii = /[\u0080-\uffff]/;
const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}/-]/g, '\\$&');

/**
 * Compiles a grep pattern (JavaScript regex syntax; a `\n` in it separates alternatives, as in
 * grep) into the fastest safe matcher: a byte search for literals; byte searches alone for a
 * regex of literals joined by `.*`; for any other regex, a byte search for the literals every
 * match must contain, then the regex (in a worker thread) on those lines. `.` matches any character of a line, `\r` included. An invalid pattern fails here
 * with `E_REGEX_INVALID`.
 *
 * @example
 * ```ts
 * const matcher = compileMatcher('timeout after \\d+ms', { ignoreCase: true, timeout: 5_000 });
 * ```
 */
export function compileMatcher(pattern: string, options: PatternOptions = {}): LineMatcher {
  const alternatives = pattern.split('\n');
  const literal = options.fixed || isLiteralPattern(pattern);
  const whole = options.wordRegexp === true || options.lineRegexp === true;
  const caseMatters =
    options.ignoreCase === true && pattern.toLowerCase() !== pattern.toUpperCase();
  if (alternatives.length === 1 && literal && !whole && !caseMatters) {
    return new BytesLineMatcher(Buffer.from(pattern, 'utf8'));
  }
  if (alternatives.length === 1 && literal && !whole && !nonAscii.test(pattern)) {
    return new CaseFoldingBytesLineMatcher(pattern);
  }
  const regex = patternRegex(pattern, options);
  const sequence =
    alternatives.length === 1 && !whole && !options.ignoreCase
      ? literalSequence(pattern)
      : undefined;
  if (sequence) return new LiteralSequenceLineMatcher(sequence);
  const matcherOptions = {
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.whenBusy ? { whenBusy: options.whenBusy } : {}),
  };
  const regexMatcher = options.inThread
    ? new InThreadRegexLineMatcher(regex)
    : new RegexLineMatcher(regex, matcherOptions);
  // Every match contains these literals (a whole word or line contains the pattern's own).
  const literals = alternatives.length !== 1 ? [] : literal ? [pattern] : requiredLiterals(pattern);
  const required = literals[0];
  if (required === undefined || required === '') return regexMatcher;
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

/** GNU grep's word constituents in the C locale. */
const wordCharacter = '[A-Za-z0-9_]';

/**
 * The JavaScript regex a grep pattern stands for, as {@link compileMatcher} applies it to a
 * line (flag `s`, and `i` for `ignoreCase`): `\n`-separated alternatives, `fixed` escaped,
 * `wordRegexp` and `lineRegexp` wrapped in their boundaries. Pass `global` to walk the matches
 * of a line (`grep -o`). An invalid pattern fails with `E_REGEX_INVALID`.
 *
 * @example
 * ```ts
 * patternRegex('a.b', { fixed: true, wordRegexp: true }); // /(?<![A-Za-z0-9_])(?:a\.b)(?![A-Za-z0-9_])/s
 * ```
 */
export function patternRegex(
  pattern: string,
  options: PatternSyntax & { global?: boolean } = {},
): RegExp {
  const sources = pattern
    .split('\n')
    .map((alternative) => (options.fixed ? escapeRegex(alternative) : alternative));
  let source = sources.length === 1 ? (sources[0] ?? '') : sources.map((s) => `(?:${s})`).join('|');
  if (options.lineRegexp) source = `^(?:${source})$`;
  else if (options.wordRegexp) source = `(?<!${wordCharacter})(?:${source})(?!${wordCharacter})`;
  return compileRegex(source, `${options.global ? 'g' : ''}s${options.ignoreCase ? 'i' : ''}`);
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
