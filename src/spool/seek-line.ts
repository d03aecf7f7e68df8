import { throwIfAborted } from '../shared/spoolforge-error.js';
import type { LineCheckpoint } from './line-index.js';
import { findNewline } from './newlines.js';
import { defaultChunkSize } from './reader-chunks.js';
import type { SpoolReader } from './spool-reader.js';

/**
 * Options for {@link seekLine}.
 */
export interface SeekLineOptions {
  /** Where the bytes end; defaults to the reader's length. */
  end?: number;
  /** First read size: the index's stride when seeking from a checkpoint. */
  windowSize?: number;
  signal?: AbortSignal;
}

/**
 * The byte offset where 0-based `line` starts, reading forward from a known line start
 * (`from`). Past the last line it returns `end`. Reads grow from `windowSize` so a lookup near a
 * checkpoint costs one small read and an unindexed scan still uses large reads.
 *
 * @example
 * ```ts
 * const offset = await seekLine(reader, index.checkpointFor(30_000_000), 30_000_000);
 * ```
 */
export async function seekLine(
  reader: SpoolReader,
  from: LineCheckpoint,
  line: number,
  options: SeekLineOptions = {},
): Promise<number> {
  const end = options.end ?? (await reader.byteLength());
  let remaining = line - from.line;
  let position = from.offset;
  let windowSize = options.windowSize ?? 64 * 1024;
  while (remaining > 0 && position < end) {
    throwIfAborted(options.signal);
    const window = await reader.read(position, Math.min(windowSize, end - position), options);
    if (window.length === 0) break;
    const { index, seen } = findNewline(window, remaining);
    if (index !== -1) return position + index + 1;
    remaining -= seen;
    position += window.length;
    windowSize = Math.min(windowSize * 2, defaultChunkSize);
  }
  return remaining > 0 ? end : position;
}
