import type { BpeVocabulary } from './bpe-vocabulary.js';

/** No pair: past every rank (o200k has 200,000). */
const noRank = 0x7fffffff;

/**
 * Scratch arrays for {@link countBpeMerges}, grown to the longest piece seen, up to
 * `keptLength` bytes; a longer piece gets arrays of its own, dropped after.
 */
export class MergeScratch {
  #starts = new Int32Array(0);
  #ranks = new Int32Array(0);
  readonly #keptLength: number;

  constructor(keptLength: number) {
    this.#keptLength = keptLength;
  }

  /** Arrays of at least `length + 1` entries. */
  arrays(length: number): { starts: Int32Array; ranks: Int32Array } {
    if (length + 1 <= this.#starts.length) return { starts: this.#starts, ranks: this.#ranks };
    const starts = new Int32Array(length + 1);
    const ranks = new Int32Array(length + 1);
    if (length <= this.#keptLength) {
      this.#starts = starts;
      this.#ranks = ranks;
    }
    return { starts, ranks };
  }
}

/**
 * The number of tokens byte-level BPE makes of `bytes[0, length)`: the parts start as single
 * bytes, and the adjacent pair whose joined bytes have the lowest rank is merged (the leftmost
 * on a tie) until no pair is a token, as tiktoken and gpt-tokenizer merge. Only the parts'
 * starts are kept, so nothing but the count is built. Quadratic in `length`.
 *
 * @example
 * ```ts
 * const vocabulary = BpeVocabulary.parse('o200k_base', await readFile(path));
 * const bytes = new TextEncoder().encode('tokenizer');
 * countBpeMerges(vocabulary, bytes, bytes.length, new MergeScratch(4096)); // 2
 * ```
 */
export function countBpeMerges(
  vocabulary: BpeVocabulary,
  bytes: Uint8Array,
  length: number,
  scratch: MergeScratch,
): number {
  if (length < 2) return length;
  const { starts, ranks } = scratch.arrays(length);
  // Boundaries 0..length; ranks[i] is the rank of parts i and i + 1 joined.
  let boundaries = length + 1;
  for (let index = 0; index <= length; index++) starts[index] = index;
  const pairRank = (index: number) => {
    if (index + 2 >= boundaries) return noRank;
    const rank = vocabulary.mergeRank(bytes, starts[index] as number, starts[index + 2] as number);
    return rank < 0 ? noRank : rank;
  };
  for (let index = 0; index < length; index++) ranks[index] = pairRank(index);
  while (boundaries > 2) {
    let lowest = noRank;
    let at = -1;
    for (let index = 0; index < boundaries - 2; index++) {
      if ((ranks[index] as number) < lowest) {
        lowest = ranks[index] as number;
        at = index;
      }
    }
    if (at < 0) break;
    // Parts at and at + 1 become one: drop boundary at + 1 and its pair's rank.
    starts.copyWithin(at + 1, at + 2, boundaries);
    ranks.copyWithin(at + 1, at + 2, boundaries - 1);
    boundaries--;
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
  return boundaries - 1;
}
