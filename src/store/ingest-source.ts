import { createHash } from 'node:crypto';
import { sniffBytes } from '../artifact/kinds/sniff-sample.js';
import type { SpoolSource } from '../artifact/spool.js';
import { forEachChunk } from '../shared/for-each-chunk.js';
import { throwIfAborted } from '../shared/spoolforge-error.js';
import { Utf8ChunkEncoder } from '../shared/utf8-chunk-encoder.js';
import { LineIndex } from '../spool/line-index.js';

/**
 * What {@link ingestSource} learnt while the bytes went by.
 *
 * @example
 * ```ts
 * const { lineIndex, sha256, head } = await ingestSource(source, (bytes, at) => writer.write(bytes, at));
 * ```
 */
export interface IngestedSource {
  lineIndex: LineIndex;
  /** SHA-256 of all the bytes, hex. */
  sha256: string;
  /** The first {@link sniffBytes} bytes (fewer for a shorter source). */
  head: Uint8Array;
}

/**
 * Writes one chunk at its byte offset; the next chunk waits until it resolves (backpressure).
 */
export type IngestSink = (bytes: Uint8Array, offset: number) => Promise<void>;

/**
 * Streams a source into a sink (an open file, an upload) one chunk at a time (memory stays at
 * one chunk plus the 64 KiB head), building the line index and the SHA-256 as the bytes pass. Strings are UTF-8
 * encoded, a surrogate pair split across two string chunks kept whole. Aborting rejects with
 * `E_ABORTED` at once, even while the source is silent, and lets the source release what it holds.
 *
 * @example
 * ```ts
 * const writer = new PageCacheWriter(handle);
 * const ingested = await ingestSource(createReadStream('build.log'), (bytes, at) => writer.write(bytes, at), { signal });
 * ingested.lineIndex.lineCount;
 * ```
 */
export async function ingestSource(
  source: SpoolSource,
  write: IngestSink,
  options: { signal?: AbortSignal } = {},
): Promise<IngestedSource> {
  const { signal } = options;
  const lineIndex = new LineIndex();
  const hash = createHash('sha256');
  const head = Buffer.allocUnsafe(sniffBytes);
  let headLength = 0;
  const append = async (bytes: Uint8Array) => {
    throwIfAborted(signal);
    if (bytes.length === 0) return;
    const headPart = bytes.subarray(0, head.length - headLength);
    head.set(headPart, headLength);
    headLength += headPart.length;
    await write(bytes, lineIndex.byteLength);
    hash.update(bytes);
    lineIndex.append(bytes);
  };
  if (typeof source === 'string' || source instanceof Uint8Array) {
    await append(typeof source === 'string' ? Buffer.from(source) : source);
  } else {
    const encoder = new Utf8ChunkEncoder();
    await forEachChunk(
      source,
      async (chunk) => {
        await append(typeof chunk === 'string' ? encoder.encode(chunk) : encoder.flush());
        if (typeof chunk !== 'string') await append(chunk);
      },
      { signal },
    );
    await append(encoder.flush());
  }
  return { lineIndex, sha256: hash.digest('hex'), head: head.subarray(0, headLength) };
}
