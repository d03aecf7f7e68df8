import type { BpeVocabulary } from './bpe-vocabulary.js';
import { countBpeMerges, MergeScratch } from './count-bpe-merges.js';

/**
 * A loaded encoding: counts tokens without building the token array.
 *
 * @example
 * ```ts
 * const tokens = (await loadTokenizer('o200k_base'))?.count(text);
 * ```
 */
export interface Tokenizer {
  count(text: string): number;
  /** Empties the cache of pieces already counted. */
  clearCache(): void;
}

/** Pieces of up to this many UTF-8 bytes keep their scratch buffers (a piece is 4–10 bytes). */
const keptPieceBytes = 4096;
/** Counted pieces cached; the cache is emptied when full, which costs less than an LRU. */
const cachedPieces = 32_768;
/** Pieces longer than this many bytes are not cached: they rarely repeat. */
const longestCachedPiece = 64;

/**
 * Counts tokens as tiktoken and gpt-tokenizer do, on a {@link BpeVocabulary}: the text is split
 * into pieces by the encoding's pattern, each piece's UTF-8 bytes are one token when they are
 * one, and are otherwise merged by rank ({@link countBpeMerges}). Special tokens
 * (`<|endoftext|>`) are plain text. Pieces that need merging are cached, bounded.
 *
 * @example
 * ```ts
 * const vocabulary = BpeVocabulary.parse('o200k_base', await readFile(path));
 * const tokenizer = new BpeTokenizer(vocabulary, splitPatterns.o200k_base);
 * tokenizer.count('hello world'); // 2
 * ```
 */
export class BpeTokenizer implements Tokenizer {
  readonly #vocabulary: BpeVocabulary;
  /** Sticky, so each match starts where the last one ended (the patterns leave no gap). */
  readonly #pattern: RegExp;
  readonly #cache = new Map<string, number>();
  readonly #scratch = new MergeScratch(keptPieceBytes);
  #bytes = new Uint8Array(keptPieceBytes);
  /** How many bytes the last `#encode` wrote. */
  #encodedLength = 0;

  /** `pattern` is the encoding's split pattern, as source (see `split-patterns.ts`). */
  constructor(vocabulary: BpeVocabulary, pattern: string) {
    this.#vocabulary = vocabulary;
    this.#pattern = new RegExp(pattern, 'uy');
  }

  /** Bound, like {@link BpeTokenizer.clearCache}: callers pass `tokenizer.count` along. */
  readonly count = (text: string): number => {
    const pattern = this.#pattern;
    let tokens = 0;
    let start = 0;
    pattern.lastIndex = 0;
    while (start < text.length && pattern.test(text)) {
      const end = pattern.lastIndex;
      tokens += this.#countPiece(text, start, end);
      start = end;
    }
    return tokens;
  };

  readonly clearCache = (): void => {
    this.#cache.clear();
  };

  #countPiece(text: string, start: number, end: number): number {
    const bytes = this.#encode(text, start, end);
    const length = this.#encodedLength;
    if (this.#vocabulary.rank(bytes, 0, length) >= 0) return 1;
    if (length > longestCachedPiece) {
      return countBpeMerges(this.#vocabulary, bytes, length, this.#scratch);
    }
    const piece = text.slice(start, end);
    let tokens = this.#cache.get(piece);
    if (tokens === undefined) {
      tokens = countBpeMerges(this.#vocabulary, bytes, length, this.#scratch);
      if (this.#cache.size >= cachedPieces) this.#cache.clear();
      this.#cache.set(piece, tokens);
    }
    return tokens;
  }

  /**
   * The UTF-8 bytes of `text[start, end)`, as `TextEncoder` writes them (a lone surrogate as
   * U+FFFD), in a reused buffer; their length is left in `#encodedLength`.
   */
  #encode(text: string, start: number, end: number): Uint8Array {
    const most = (end - start) * 3;
    let bytes = this.#bytes;
    if (most > bytes.length) {
      bytes = new Uint8Array(most);
      if (most <= keptPieceBytes * 4) this.#bytes = bytes;
    }
    let length = 0;
    for (let index = start; index < end; index++) {
      let code = text.charCodeAt(index);
      if (code < 0x80) {
        bytes[length++] = code;
        continue;
      }
      if (code < 0x800) {
        bytes[length++] = 0xc0 | (code >> 6);
        bytes[length++] = 0x80 | (code & 0x3f);
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = index + 1 < end ? text.charCodeAt(index + 1) : 0;
        if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          index++;
          bytes[length++] = 0xf0 | (code >> 18);
          bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
          bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
          bytes[length++] = 0x80 | (code & 0x3f);
          continue;
        }
        code = 0xfffd;
      }
      bytes[length++] = 0xe0 | (code >> 12);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
      bytes[length++] = 0x80 | (code & 0x3f);
    }
    this.#encodedLength = length;
    return bytes;
  }
}
