/**
 * A tokenizer's name. `o200k_base` (GPT-4o and later) and `cl100k_base` (GPT-4) are the common
 * ones; any other name gets the byte-based approximation.
 */
export type TokenEncoding = 'o200k_base' | 'cl100k_base' | (string & {});

/** English prose and logs average close to four bytes a token in BPE vocabularies. */
const bytesPerToken = 4;

/**
 * Tokens a text of `byteLength` UTF-8 bytes costs, approximated from its size.
 *
 * @example
 * ```ts
 * approximateTokens(1_000_000); // 250000
 * ```
 */
export function approximateTokens(byteLength: number): number {
  return Math.ceil(byteLength / bytesPerToken);
}
