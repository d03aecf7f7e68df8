import { approximateTokens, type TokenEncoding } from './approximate-tokens.js';
import { countInBoundedPieces } from './token-boundaries.js';

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
  /** Empties gpt-tokenizer's merge cache, which slows counting once full. */
  clearCache(): void;
}

/** Artifact text is data: `<|endoftext|>` in a log is plain text, not a special token. */
const plainText = { disallowedSpecial: new Set<string>() };

/** Literal specifiers so bundlers see them; each vocabulary (MBs) loads on first use only. */
const tokenizerLoaders = new Map<string, () => Promise<Tokenizer>>([
  [
    'o200k_base',
    async () => {
      const { countTokens, clearMergeCache } = await import('gpt-tokenizer/encoding/o200k_base');
      return { count: (text) => countTokens(text, plainText), clearCache: clearMergeCache };
    },
  ],
  [
    'cl100k_base',
    async () => {
      const { countTokens, clearMergeCache } = await import('gpt-tokenizer/encoding/cl100k_base');
      return { count: (text) => countTokens(text, plainText), clearCache: clearMergeCache };
    },
  ],
]);
const loadedTokenizers = new Map<string, Promise<Tokenizer>>();

/**
 * The tokens of a short text (a handle, a message): exact for `o200k_base` and `cl100k_base`,
 * bytes / 4 for other encodings.
 *
 * @example
 * ```ts
 * if ((await countTextTokens(handle)) > 300) previewLines--;
 * ```
 */
export async function countTextTokens(
  text: string,
  encoding: TokenEncoding = 'o200k_base',
): Promise<number> {
  const tokenizer = await loadTokenizer(encoding);
  if (!tokenizer) return approximateTokens(Buffer.byteLength(text));
  return countInBoundedPieces(Buffer.from(text), tokenizer.count);
}

/**
 * The tokenizer of `encoding`, loaded on first use (about 300 ms, tens of MiB), or `undefined`
 * for an encoding spoolforge has none for.
 *
 * @example
 * ```ts
 * const tokenizer = await loadTokenizer('cl100k_base');
 * tokenizer?.count('hello world'); // 2
 * ```
 */
export async function loadTokenizer(encoding: string): Promise<Tokenizer | undefined> {
  const loader = tokenizerLoaders.get(encoding);
  if (!loader) return undefined;
  let loaded = loadedTokenizers.get(encoding);
  if (!loaded) {
    loaded = loader();
    // A failed import is not cached, so a later call retries it.
    loaded.catch(() => loadedTokenizers.delete(encoding));
    loadedTokenizers.set(encoding, loaded);
  }
  return loaded;
}
