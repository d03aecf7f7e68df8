const regexSyntax = /[\\^$.|?*+()[\]{}]/;
/** Characters with regex syntax, and the escapes of them that mean the character itself. */
const escapedSyntax = /\\([\\^$.|?*+()[\]{}/-])/g;

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

/**
 * The text a regex matches when it is a literal with syntax characters escaped
 * (`connect\(\) failed` matches `connect() failed`), else `undefined`.
 *
 * @example
 * ```ts
 * literalText('^198\\.51\\.100\\.'); // undefined: the ^ is an anchor
 * literalText('198\\.51\\.100\\.'); // '198.51.100.'
 * ```
 */
export function literalText(pattern: string): string | undefined {
  const text = pattern.replace(escapedSyntax, '');
  return isLiteralPattern(text) ? pattern.replace(escapedSyntax, '$1') : undefined;
}
