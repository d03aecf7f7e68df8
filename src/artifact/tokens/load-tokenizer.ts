import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { workerUrl } from '../../shared/worker-url.js';
import { approximateTokens, type TokenEncoding } from './approximate-tokens.js';
import { BpeTokenizer, type Tokenizer } from './bpe-tokenizer.js';
import { BpeVocabulary } from './bpe-vocabulary.js';
import { splitPatterns } from './split-patterns.js';
import { countInBoundedPieces } from './token-boundaries.js';

/**
 * Where `npm run build` writes an encoding's vocabulary: `dist/tokens/`, reached through the
 * worker-URL module, which sits one directory below `dist/` (or `src/`, in specs), so the same
 * relative path finds it from the built package and from the sources.
 */
function vocabularyUrl(encoding: string): URL {
  return workerUrl(`../dist/tokens/${encoding}.bin`);
}

/** Reads `encoding`'s vocabulary (1.6 MB for o200k, ~35 ms) into a counter. */
async function loadBpeTokenizer(encoding: keyof typeof splitPatterns): Promise<Tokenizer> {
  const url = vocabularyUrl(encoding);
  const file = await readFile(url).catch((error: unknown) => {
    throw new SpoolforgeError(
      'E_IO',
      `the ${encoding} vocabulary (${fileURLToPath(url)}) cannot be read; reinstall spoolforge (or run npm run build in its repository)`,
      { cause: error },
    );
  });
  return new BpeTokenizer(BpeVocabulary.parse(encoding, file), splitPatterns[encoding]);
}

/** Each vocabulary (MBs) loads on first use only. */
const tokenizerLoaders = new Map<string, () => Promise<Tokenizer>>([
  ['o200k_base', () => loadBpeTokenizer('o200k_base')],
  ['cl100k_base', () => loadBpeTokenizer('cl100k_base')],
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
 * The tokenizer of `encoding`, loaded on first use (about 35 ms, 5 MiB for o200k), or `undefined`
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
