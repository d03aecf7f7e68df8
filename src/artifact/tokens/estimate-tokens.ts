import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { approximateTokens, type TokenEncoding } from './approximate-tokens.js';
import type { Tokenizer } from './bpe-tokenizer.js';
import { loadTokenizer } from './load-tokenizer.js';
import { countInBoundedPieces, lastLineBoundary } from './token-boundaries.js';

/**
 * How many tokens an artifact costs, and how the number was reached: `exact` (every byte
 * tokenized), `sampled` (evenly spread windows tokenized, scaled by bytes) or `approximate`
 * (bytes / 4, for encodings spoolforge has no tokenizer for).
 */
export interface TokenEstimate {
  tokens: number;
  encoding: string;
  method: 'exact' | 'sampled' | 'approximate';
}

/**
 * Options for {@link estimateTokens}.
 */
export interface EstimateTokensOptions {
  /** Default `o200k_base`. `o200k_base` and `cl100k_base` are tokenized; others approximated. */
  encoding?: TokenEncoding;
  /** The artifact's length when the caller knows it; only `[0, byteLength)` is counted. */
  byteLength?: number;
  /** Largest artifact tokenized whole; larger ones are sampled. Default 1 MiB. */
  exactUpTo?: number;
  signal?: AbortSignal;
}

/**
 * Exact tokenizing runs at about 9 MiB/s on token-dense logs (`bench/tokens/main.ts`), so
 * 1 MiB keeps an exact count near 100 ms, the same cost as a sample.
 *
 * @example
 * ```ts
 * await estimateTokens(reader, { exactUpTo: 4 * defaultExactUpTo });
 * ```
 */
export const defaultExactUpTo = 1024 * 1024;

/** 128 windows of 8 KiB: 1 MiB tokenized whatever the size, within 0.1% on realistic logs. */
const sampleWindows = 128;
const sampleWindowBytes = 8 * 1024;
/** Reads kept in flight while a window is tokenized; hides latency on HTTP readers. */
const readAhead = 4;
const exactChunkBytes = 1024 * 1024;
const sliceBytes = 256 * 1024;
/** Bytes carried between chunks while no safe cut is found, before cutting at a line anyway. */
const maxPendingBytes = 8 * 1024 * 1024;
const newlineByte = 0x0a;
/**
 * The counter caches pieces it had to merge (bounded, emptied when full); emptying it every
 * 16 MiB drops the ids of the part of a log already counted before they crowd out the rest.
 */
const cacheResetBytes = 16 * 1024 * 1024;

/**
 * Counts the tokens of a spooled artifact in bounded memory. `o200k_base` (default) and
 * `cl100k_base` are tokenized exactly up to `exactUpTo` bytes; past that, 128 evenly spread
 * windows cut to whole lines are tokenized and scaled by bytes, so the cost does not grow with
 * the size (about 100 ms, within 0.5% on realistic logs). Other encodings get the bytes / 4
 * approximation. The tokenizer loads on first use (about 40 ms, 5 MiB). "Exact" has one exception:
 * a run of over 512 bytes with no piece boundary (a line of `=`, CJK without ASCII) is counted
 * in slices, a token or so off per slice, because BPE is quadratic in a piece's length.
 *
 * @example
 * ```ts
 * const { tokens, method } = await estimateTokens(artifact.reader, { encoding: 'o200k_base' });
 * ```
 */
export async function estimateTokens(
  reader: SpoolReader,
  options: EstimateTokensOptions = {},
): Promise<TokenEstimate> {
  const { encoding = 'o200k_base', exactUpTo = defaultExactUpTo, signal } = options;
  if (!(exactUpTo >= 0)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `exactUpTo must be >= 0, got ${exactUpTo}`);
  }
  throwIfAborted(signal);
  const byteLength = options.byteLength ?? (await reader.byteLength());
  if (!Number.isSafeInteger(byteLength) || byteLength < 0) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `byteLength must be a non-negative integer, got ${byteLength}`,
    );
  }
  const tokenizer = await loadTokenizer(encoding);
  if (!tokenizer) return { tokens: approximateTokens(byteLength), encoding, method: 'approximate' };
  throwIfAborted(signal);
  if (byteLength <= exactUpTo) {
    return {
      tokens: await countExact(reader, byteLength, tokenizer, signal),
      encoding,
      method: 'exact',
    };
  }
  const tokens = await countSampled(reader, byteLength, tokenizer.count, signal);
  return { tokens, encoding, method: 'sampled' };
}

/**
 * Tokenizes slice by slice, cutting only after a line where the whole text's pre-tokenizer cuts
 * too (so the sum is the whole count). A slice is at most 256 KiB (~50 ms of tokenizing),
 * however large the reader's chunks, so an abort is seen promptly; tiny chunks are gathered
 * first, so they cost no more than big ones.
 */
async function countExact(
  reader: SpoolReader,
  byteLength: number,
  tokenizer: Tokenizer,
  signal: AbortSignal | undefined,
): Promise<number> {
  let tokens = 0;
  let bytesSinceCacheReset = 0;
  let parts: Uint8Array[] = [];
  let bufferedBytes = 0;
  /** Leading buffered bytes already searched for a cut, so a long carry is not searched again. */
  let searchedBytes = 0;
  const countBuffered = (final: boolean) => {
    const bytes = join(parts, bufferedBytes);
    const cut = final
      ? bytes.length
      : lastLineBoundary(bytes, searchedBytes, bufferedBytes > maxPendingBytes);
    if (cut > 0) tokens += countInBoundedPieces(bytes.subarray(0, cut), tokenizer.count);
    bytesSinceCacheReset += cut;
    if (bytesSinceCacheReset >= cacheResetBytes) {
      tokenizer.clearCache();
      bytesSinceCacheReset = 0;
    }
    // A copy, so the carry never pins a large joined buffer or a reader's storage (a reader's
    // chunk may be a Buffer, whose own slice() is a view of all of it).
    const carry = Uint8Array.prototype.slice.call(bytes, cut);
    parts = carry.length > 0 ? [carry] : [];
    bufferedBytes = carry.length;
    searchedBytes = carry.length;
  };
  const chunks = readerChunks(reader, {
    end: byteLength,
    chunkSize: exactChunkBytes,
    ...(signal ? { signal } : {}),
  });
  for await (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; offset += sliceBytes) {
      const slice = chunk.subarray(offset, offset + sliceBytes);
      parts.push(slice);
      bufferedBytes += slice.length;
      if (bufferedBytes - searchedBytes >= sliceBytes) {
        countBuffered(false);
        await yieldToEventLoop(signal);
      }
    }
  }
  countBuffered(true);
  return tokens;
}

/** Tokenizes evenly spread windows snapped to line starts, and scales tokens per byte. */
async function countSampled(
  reader: SpoolReader,
  byteLength: number,
  count: (text: string) => number,
  signal: AbortSignal | undefined,
): Promise<number> {
  const stride = byteLength / sampleWindows;
  // Small artifacts (a low exactUpTo) tile: windows never overlap.
  const windowBytes = Math.max(1, Math.min(sampleWindowBytes, Math.floor(stride)));
  const slack = Math.ceil(windowBytes / 2);
  const readWindow = async (index: number) => {
    const start = Math.max(0, Math.floor((index + 0.5) * stride - windowBytes / 2));
    // One byte before the window tells whether it starts on a line start.
    const readStart = Math.max(0, start - 1);
    const readEnd = Math.min(byteLength, start + windowBytes + slack);
    const bytes = await reader.read(readStart, readEnd - readStart, signal ? { signal } : {});
    return { start, readStart, bytes };
  };
  const reads: Promise<Awaited<ReturnType<typeof readWindow>>>[] = [];
  let nextRead = 0;
  let sampledTokens = 0;
  let sampledBytes = 0;
  for (let index = 0; index < sampleWindows; index++) {
    while (nextRead < sampleWindows && reads.length < readAhead) {
      const read = readWindow(nextRead++);
      // Reads still in flight when an earlier one fails must not become unhandled rejections.
      read.catch(() => undefined);
      reads.push(read);
    }
    const { start, readStart, bytes } = await (reads.shift() as (typeof reads)[number]);
    const offset = start - readStart;
    const first = start === 0 ? 0 : snapToLineStart(bytes, offset, slack);
    const atEnd = start + windowBytes >= byteLength;
    const last = atEnd ? bytes.length : snapToLineStart(bytes, offset + windowBytes, slack);
    if (last > first) {
      sampledTokens += countInBoundedPieces(bytes.subarray(first, last), count);
      sampledBytes += last - first;
    }
    await yieldToEventLoop(signal);
  }
  if (sampledBytes === 0) return approximateTokens(byteLength);
  return Math.round((byteLength * sampledTokens) / sampledBytes);
}

/**
 * The first line start at or after `position` when one is within `slack` bytes, so no token is
 * split at a window edge; otherwise (one huge line) the next character boundary.
 */
function snapToLineStart(bytes: Uint8Array, position: number, slack: number): number {
  const newline = bytes.indexOf(newlineByte, Math.max(0, position - 1));
  if (newline >= 0 && newline + 1 - position <= slack) return newline + 1;
  let boundary = Math.min(position, bytes.length);
  // Skip UTF-8 continuation bytes (10xxxxxx) to the next character's first byte.
  while (boundary < bytes.length && ((bytes[boundary] as number) & 0xc0) === 0x80) boundary++;
  return boundary;
}

function join(parts: Uint8Array[], byteLength: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const joined = new Uint8Array(byteLength);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * Tokenizing is synchronous and a memory reader resolves at once: without a macrotask turn an
 * `AbortSignal.timeout` could never fire during the count.
 */
async function yieldToEventLoop(signal: AbortSignal | undefined): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}
