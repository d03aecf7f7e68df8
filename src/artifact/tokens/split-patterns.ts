/**
 * The patterns that cut text into pieces before BPE, as gpt-tokenizer writes tiktoken's (its
 * `encodingParams/constants`; a spec checks they are still the same): contractions, letter
 * runs with one leading non-letter, 1–3 digits, punctuation runs, whitespace. Both match from
 * any position, so consecutive sticky matches cover the text with no gap.
 */
const contraction = "'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])";

/**
 * The split pattern of each encoding spoolforge counts exactly.
 *
 * @example
 * ```ts
 * new RegExp(splitPatterns.o200k_base, 'gu');
 * ```
 */
export const splitPatterns = {
  o200k_base: [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:${contraction})?`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:${contraction})?`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  cl100k_base: [
    contraction,
    String.raw`[^\r\n\p{L}\p{N}]?\p{L}+`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n]*`,
    String.raw`\s+$`,
    String.raw`\s*[\r\n]`,
    String.raw`\s+(?!\S)`,
    String.raw`\s`,
  ].join('|'),
};
