/**
 * What someone sent, for an error message: whole when at most `max` characters, else its first
 * `max` characters then `… (N characters)`, so an error never echoes unbounded input.
 *
 * @example
 * ```ts
 * quoteInput('x'.repeat(1_000_000)); // 'xxx…x… (1000000 characters)', 200 x's
 * ```
 */
export function quoteInput(text: string, max = 200): string {
  if (text.length <= max) return text;
  // A character split in two would be an unpaired surrogate: stop before it.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
