import { throwIfAborted } from '../shared/spoolforge-error.js';
import { newline } from './newlines.js';
import type { SpoolReader } from './spool-reader.js';

/**
 * Options for {@link tailOffset}.
 */
export interface TailOffsetOptions {
  /** Where the bytes end; defaults to the reader's length. */
  end?: number;
  blockSize?: number;
  signal?: AbortSignal;
}

/**
 * The byte offset where the last `lineCount` lines start, found by reading backwards from the
 * end: the cost is proportional to the lines asked for, not to the file. A final `\n` ends the
 * last line rather than starting an empty one, as in GNU `tail`.
 *
 * @example
 * ```ts
 * const start = await tailOffset(reader, 100);
 * const lastHundredLines = await reader.read(start, (await reader.byteLength()) - start);
 * ```
 */
export async function tailOffset(
  reader: SpoolReader,
  lineCount: number,
  options: TailOffsetOptions = {},
): Promise<number> {
  const end = options.end ?? (await reader.byteLength());
  if (lineCount <= 0) return end;
  const blockSize = options.blockSize ?? 64 * 1024;
  let remaining = lineCount;
  // The newline that terminates the last line does not count as a line boundary.
  let searchEnd = end;
  if (end > 0) {
    const last = await reader.read(end - 1, 1, options);
    if (last[0] === newline) searchEnd = end - 1;
  }
  while (searchEnd > 0) {
    throwIfAborted(options.signal);
    const blockStart = Math.max(0, searchEnd - blockSize);
    const block = await reader.read(blockStart, searchEnd - blockStart, options);
    let position = block.length - 1;
    while (position >= 0) {
      const found = block.lastIndexOf(newline, position);
      if (found === -1) break;
      remaining--;
      if (remaining === 0) return blockStart + found + 1;
      position = found - 1;
    }
    searchEnd = blockStart;
  }
  return 0;
}
