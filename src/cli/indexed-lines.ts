import { LineIndex } from '../spool/line-index.js';
import type { CliSource } from './cli-source.js';
import { copyLines } from './copy-lines.js';
import { loadLineIndex, minimumCachedFileBytes, saveLineIndex } from './line-index-cache.js';
import type { Output } from './output.js';

/**
 * Copies lines `[start, end)` (0-based) like {@link copyLines}, but a large file starts from the
 * nearest checkpoint of its persisted line index, and extends and saves that index as it reads:
 * the second `lines` call near line 30 M of a 4 GiB file reads a few KiB instead of 4 GiB.
 *
 * @example
 * ```ts
 * await copyIndexedLines(source, 29_999_999, 30_000_010, output);
 * ```
 */
export async function copyIndexedLines(
  source: CliSource,
  start: number,
  end: number,
  output: Output,
): Promise<void> {
  const { file } = source;
  const index = (file && (await loadLineIndex(file))) ?? new LineIndex();
  const coveredBefore = index.byteLength;
  const checkpoint = index.checkpointFor(start);
  const chunks = source.chunks({
    start: checkpoint.offset,
    initialChunkSize: 64 * 1024,
    reuseBuffers: true,
  });
  await copyLines(
    file ? extending(chunks, index, checkpoint.offset) : chunks,
    start - checkpoint.line,
    end - checkpoint.line,
    output,
  );
  if (file && index.byteLength - coveredBefore >= minimumCachedFileBytes) {
    await saveLineIndex(file, index);
  }
}

/** Passes chunks through, feeding the index the bytes past what it already covers. */
export async function* extending(
  chunks: AsyncIterable<Uint8Array>,
  index: LineIndex,
  start: number,
): AsyncGenerator<Uint8Array> {
  let position = start;
  for await (const chunk of chunks) {
    const known = index.byteLength - position;
    if (known >= 0 && known < chunk.length) index.append(chunk.subarray(known));
    position += chunk.length;
    yield chunk;
  }
}
