import { patternRegex } from '../../grep/compile-matcher.js';
import { isLiteralPattern } from '../../grep/is-literal-pattern.js';
import { requiredLiterals } from '../../grep/required-literal.js';

/**
 * Where to show a long matching line from: the first place a literal search finds the pattern
 * (or, for a regex, the longest literal every match contains), else the line's start. Never
 * the regex itself, which the grep engine ran off the main thread with a time budget: on a
 * catastrophic pattern it could hold the event loop as long again.
 *
 * @example
 * ```ts
 * const focus = matchFocus('timeout after \\d+ms', { ignoreCase: true });
 * focus(line.text); // the index of "timeout after "
 * ```
 */
export function matchFocus(
  pattern: string,
  options: { fixed?: boolean | null | undefined; ignoreCase?: boolean | null | undefined },
): (text: string) => number {
  const ignoreCase = options.ignoreCase === true;
  const literal =
    options.fixed || isLiteralPattern(pattern)
      ? pattern
      : pattern.includes('\n')
        ? undefined
        : requiredLiterals(pattern)[0];
  if (literal === undefined) return () => 0;
  // Escaped literals, alternated by line: a search that runs in linear time.
  const search = patternRegex(literal, { fixed: true, ignoreCase });
  return (text) => Math.max(0, text.search(search));
}
