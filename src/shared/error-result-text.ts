import { quoteInput } from './quote-input.js';

/**
 * The most characters of an error a model reads: enough for any message spoolforge writes,
 * and an error that echoes what a model sent (a regex of megabytes) stays short.
 */
const maxErrorChars = 2_000;

/**
 * An error as the result text a model reads, `Error (CODE): message`, cut at
 * {@link maxErrorChars} with the length it had.
 *
 * @example
 * ```ts
 * errorResultText(new SpoolforgeError('E_BAD_REFERENCE', 'No spooled output "call_9"'));
 * // 'Error (E_BAD_REFERENCE): No spooled output "call_9"'
 * ```
 */
export function errorResultText(error: { code: string; message: string }): string {
  return quoteInput(`Error (${error.code}): ${error.message}`, maxErrorChars);
}
