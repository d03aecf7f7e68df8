import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { AnchoredLiteralLineMatcher } from './anchored-literal-line-matcher.js';
import { AnyLiteralLineMatcher } from './any-literal-line-matcher.js';
import { CaseFoldingBytesLineMatcher } from './case-folding-bytes-line-matcher.js';
import { classSequence } from './class-sequence.js';
import { anchorRuns, ClassSequenceLineMatcher } from './class-sequence-line-matcher.js';
import { DfaLineMatcher } from './dfa-line-matcher.js';
import { InThreadRegexLineMatcher } from './in-thread-regex-line-matcher.js';
import { literalText } from './is-literal-pattern.js';
import { BytesLineMatcher, type LineMatcher } from './line-matcher.js';
import { LiteralSequenceLineMatcher, literalSequence } from './literal-sequence-line-matcher.js';
import { PrefilteredLineMatcher } from './prefiltered-line-matcher.js';
import { RegexLineMatcher } from './regex-line-matcher.js';
import { requiredLiterals, topLevelAlternatives } from './required-literal.js';
import { WordLiteralLineMatcher } from './word-literal-line-matcher.js';

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
 * grep) into the fastest safe matcher: a byte search for literals (whole words checked at each
 * hit), for each of an alternation of literals, and for a literal with a newline beside it for `^literal` and `literal$`; byte
 * searches alone for a regex of literals joined by `.*`; for any other regex, byte searches for
 * the literals every match must contain (for one of each alternative's), then a line automaton
 * (see `DfaLineMatcher`) on those lines, or the regex in a worker thread where the automaton
 * does not take it (a backreference, a lookaround, `\b`, `-w`). `.` matches any character of a
 * line, `\r` included. An invalid pattern fails here with `E_REGEX_INVALID`.
 *
 * @example
 * ```ts
 * const matcher = compileMatcher('timeout after \\d+ms', { ignoreCase: true, timeout: 5_000 });
 * ```
 */
export function compileMatcher(pattern: string, options: PatternOptions = {}): LineMatcher {
  const lines = pattern.split('\n');
  const alternatives = options.fixed
    ? lines
    : lines.flatMap((line) => topLevelAlternatives(line) ?? [line]);
  // What each alternative matches, where it is a literal (its syntax characters escaped).
  const texts = alternatives.map((alternative) =>
    options.fixed ? alternative : literalText(alternative),
  );
  const literal = texts.every((text) => text !== undefined);
  const literals = texts as string[];
  const whole = options.wordRegexp === true || options.lineRegexp === true;
  const caseMatters =
    options.ignoreCase === true && pattern.toLowerCase() !== pattern.toUpperCase();
  const ascii = !nonAscii.test(pattern);
  if (literal && !whole && (!caseMatters || ascii)) {
    const [text] = literals as [string];
    if (literals.length > 1)
      return new AnyLiteralLineMatcher(literals, { ignoreCase: caseMatters });
    return caseMatters
      ? new CaseFoldingBytesLineMatcher(text)
      : new BytesLineMatcher(Buffer.from(text, 'utf8'));
  }
  if (
    literal &&
    alternatives.length === 1 &&
    options.wordRegexp &&
    !options.lineRegexp &&
    !caseMatters &&
    // A one-byte word is found so often inside other words that the regex does better.
    Buffer.byteLength(literals[0] as string) > 1
  ) {
    return new WordLiteralLineMatcher(Buffer.from(literals[0] as string, 'utf8'));
  }
  const anchored = whole || caseMatters || lines.length > 1 ? undefined : anchoredLiteral(pattern);
  if (anchored) return new AnchoredLiteralLineMatcher(anchored.literal, anchored.edge);
  const regex = patternRegex(pattern, options);
  const sequence =
    lines.length === 1 && !whole && !options.ignoreCase ? literalSequence(pattern) : undefined;
  if (sequence) return new LiteralSequenceLineMatcher(sequence);
  const items =
    lines.length === 1 && !whole && !options.ignoreCase ? classSequence(pattern) : undefined;
  const runs = items && anchorRuns(items);
  if (items && runs && runs.length > 0) return new ClassSequenceLineMatcher(items, runs);
  const prefilter = literalPrefilter(literal ? literals : alternatives, literal, caseMatters);
  // A line automaton tests lines faster than the regex does, and no pattern makes it backtrack.
  const automaton = DfaLineMatcher.create(regex);
  if (automaton) return prefilter ? new PrefilteredLineMatcher(prefilter, automaton) : automaton;
  const matcherOptions = {
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.whenBusy ? { whenBusy: options.whenBusy } : {}),
  };
  const regexMatcher = options.inThread
    ? new InThreadRegexLineMatcher(regex)
    : new RegexLineMatcher(regex, matcherOptions);
  return prefilter ? new PrefilteredLineMatcher(prefilter, regexMatcher) : regexMatcher;
}

/**
 * Byte searches for the lines a regex of `alternatives` may match: every match contains the
 * literals its alternative requires (a whole word or line contains the pattern's own), so a
 * line lacking all of one alternative's cannot match. `undefined` where an alternative
 * requires none, or one only a case-folded search of non-ASCII text would find.
 */
function literalPrefilter(
  alternatives: readonly string[],
  literal: boolean,
  caseMatters: boolean,
): LineMatcher | undefined {
  const required = alternatives.map((alternative) =>
    literal ? [alternative] : requiredLiterals(alternative),
  );
  if (required.some((literals) => literals.length === 0 || literals[0] === '')) return undefined;
  if (caseMatters && required.some((literals) => nonAscii.test(literals[0] as string)))
    return undefined;
  if (alternatives.length > 1 || caseMatters) {
    // One literal of each alternative: the longest, which is the least often found.
    const firsts = required.map((literals) => literals[0] as string);
    return new AnyLiteralLineMatcher(firsts, { ignoreCase: caseMatters });
  }
  const literals = (required[0] as string[]).map((text) => Buffer.from(text, 'utf8'));
  return literals.length === 1
    ? new BytesLineMatcher(literals[0] as Buffer)
    : new LiteralSequenceLineMatcher(literals, { ordered: false });
}

/** `^literal` or `literal$` (a literal of one character at least), else `undefined`. */
function anchoredLiteral(pattern: string): { literal: Buffer; edge: 'start' | 'end' } | undefined {
  const edge = pattern.startsWith('^') ? 'start' : pattern.endsWith('$') ? 'end' : undefined;
  if (edge === undefined) return undefined;
  const text = edge === 'start' ? pattern.slice(1) : pattern.slice(0, -1);
  // `a\$` ends with an escaped dollar: `a\` is no literal.
  const literal = literalText(text);
  if (literal === undefined || literal === '') return undefined;
  return { literal: Buffer.from(literal, 'utf8'), edge };
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
