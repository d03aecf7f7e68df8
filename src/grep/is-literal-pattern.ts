const regexSyntax = /[\\^$.|?*+()[\]{}]/;

/**
 * Whether a pattern means itself as a regex too: no character with regex syntax in it.
 *
 * @example
 * ```ts
 * isLiteralPattern('disk full'); // true
 * ```
 */
export function isLiteralPattern(pattern: string): boolean {
  return !regexSyntax.test(pattern);
}
