import { throwIfAborted } from '../shared/spoolforge-error.js';
import { newline } from './newlines.js';
import { countableBuffer } from './simd-newline-count.js';
import type { SpoolReader } from './spool-reader.js';
import { YieldPacer } from './yield-pacer.js';

/** Large positioned reads keep per-chunk overhead negligible next to the scan itself. */
export const defaultChunkSize = 4 * 1024 * 1024;

/**
 * Synchronous reads stay in the CPU cache at this size: the two recycled buffers (128 KiB in
 * all) and the page-cache pages being copied fit in L2, so the scan reads what the copy just
 * wrote. On the bench machine a one-thread `grep -c` of 4 GiB takes 1.0 s with 64 KiB reads,
 * 1.5 s with 128 KiB and more with 1 MiB (GNU grep reads 96 KiB at a time for the same reason).
 */
const defaultRecycledChunkSize = 64 * 1024;

/**
 * Options for {@link readerChunks}.
 */
export interface ReaderChunksOptions {
  start?: number;
  /** Exclusive; defaults to the reader's length when iteration starts. */
  end?: number;
  /** Largest read. Default 4 MiB. */
  chunkSize?: number;
  /** First read; reads double from here up to `chunkSize`, so a short query reads little. */
  initialChunkSize?: number;
  /**
   * Read into two recycled buffers where the reader supports `readIntoSync`: a chunk is then
   * valid until the one after the next is requested (the two buffers take turns), and a scan
   * allocates nothing per chunk.
   */
  reuseBuffers?: boolean;
  /** The size of each read into the recycled buffers. Default 64 KiB. */
  recycledChunkSize?: number;
  /**
   * With `reuseBuffers`: end each chunk after its last `\n`, and read the partial line after it
   * into the next buffer, so `lineBlocks` finds whole lines and copies nothing. A chunk without
   * `\n` (a line longer than a buffer) and the last one are yielded as read.
   */
  lineAligned?: boolean;
  /**
   * With `reuseBuffers`: the two buffers lie in the SIMD newline counter's memory while it has
   * room, so `countNewlines` counts a chunk where it lies instead of copying it first (see
   * `countableBuffer`). They go back to that pool when the iteration ends, so the last chunk
   * is valid only until then.
   */
  countInPlace?: boolean;
  signal?: AbortSignal;
}

/**
 * The bytes of `[start, end)` as chunks, through `reader.stream` when the backend has one and
 * positioned reads otherwise.
 *
 * @example
 * ```ts
 * for await (const chunk of readerChunks(reader, { start: 0 })) hash.update(chunk);
 * ```
 */
export async function* readerChunks(
  reader: SpoolReader,
  options: ReaderChunksOptions = {},
): AsyncGenerator<Uint8Array> {
  const { signal, chunkSize = defaultChunkSize } = options;
  let position = options.start ?? 0;
  let size = Math.min(options.initialChunkSize ?? chunkSize, chunkSize);
  const end = options.end ?? (await reader.byteLength());
  if (reader.stream) {
    for await (const chunk of reader.stream(position, end, signal ? { signal } : {})) {
      throwIfAborted(signal);
      yield chunk;
    }
    return;
  }
  if (options.reuseBuffers && reader.readIntoSync) {
    // readIntoSync needs the reader open, which byteLength() ensures.
    if (options.end !== undefined) await reader.byteLength();
    const readIntoSync = reader.readIntoSync.bind(reader);
    const bufferSize = options.recycledChunkSize ?? defaultRecycledChunkSize;
    yield* synchronousChunks(readIntoSync, position, end, {
      bufferSize,
      lineAligned: options.lineAligned === true,
      countInPlace: options.countInPlace === true,
      signal,
    });
    return;
  }
  while (position < end) {
    throwIfAborted(signal);
    const chunk = await reader.read(
      position,
      Math.min(size, end - position),
      signal ? { signal } : {},
    );
    if (chunk.length === 0) return;
    position += chunk.length;
    size = Math.min(size * 2, chunkSize);
    yield chunk;
  }
}

/** Cache-sized synchronous reads into two recycled buffers, yielding to the event loop regularly. */
async function* synchronousChunks(
  readIntoSync: (target: Uint8Array, position: number) => number,
  start: number,
  end: number,
  options: {
    bufferSize: number;
    lineAligned: boolean;
    countInPlace: boolean;
    signal: AbortSignal | undefined;
  },
): AsyncGenerator<Uint8Array> {
  const { bufferSize } = options;
  const allocated = [0, 1].map(() =>
    options.countInPlace
      ? countableBuffer(bufferSize)
      : { buffer: Buffer.allocUnsafeSlow(bufferSize), release: () => undefined },
  );
  try {
    yield* recycledReads(
      readIntoSync,
      start,
      end,
      allocated.map(({ buffer }) => buffer),
      options,
    );
  } finally {
    for (const { release } of allocated) release();
  }
}

/** The reads of {@link synchronousChunks}, taking turns between two `buffers`. */
async function* recycledReads(
  readIntoSync: (target: Uint8Array, position: number) => number,
  start: number,
  end: number,
  buffers: Buffer[],
  options: { bufferSize: number; lineAligned: boolean; signal: AbortSignal | undefined },
): AsyncGenerator<Uint8Array> {
  const { bufferSize, lineAligned, signal } = options;
  // A synchronous scan lets timers, I/O and aborts in every 8 MiB.
  const pacer = new YieldPacer();
  /** The partial line after the last chunk's `\n`, in the buffer it was read into. */
  let kept: Buffer | undefined;
  for (let turn = 0, position = start; position < end || kept; turn++) {
    const pause = pacer.pause();
    if (pause) await pause;
    throwIfAborted(signal);
    const buffer = buffers[turn % 2] as Buffer;
    const carried = kept ? kept.copy(buffer) : 0;
    kept = undefined;
    const view = buffer.subarray(carried, Math.min(bufferSize, carried + end - position));
    const bytesRead = view.length > 0 ? readIntoSync(view, position) : 0;
    position += bytesRead;
    pacer.count(bytesRead);
    const filled = carried + bytesRead;
    if (filled === 0) return;
    const last = lineAligned && position < end ? buffer.lastIndexOf(newline, filled - 1) : -1;
    if (bytesRead === 0 || last === -1) {
      yield buffer.subarray(0, filled);
      if (bytesRead === 0) return;
      continue;
    }
    kept = buffer.subarray(last + 1, filled);
    yield buffer.subarray(0, last + 1);
  }
}
