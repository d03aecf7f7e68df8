import { LineIndex } from '../spool/line-index.js';
import type { SaveLineIndexOptions } from '../spool/line-index-cache.js';
import { loadLineIndex, minimumCachedFileBytes, saveLineIndex } from '../spool/line-index-cache.js';
import { countNewlines } from '../spool/newlines.js';
import { runsInParallel } from '../spool/parallel-threshold.js';
import type { CliSource } from './cli-source.js';
import { copyLines } from './copy-lines.js';
import type { Output } from './output.js';

/**
 * Copies lines `[start, end)` (0-based) like {@link copyLines}, but through a large file's
 * persisted line index: the index is extended (and saved) until it reaches line `start`, one
 * pass that counts each newline once (or, for a line far into a large file, built whole on
 * worker threads), then the copy starts at the nearest checkpoint. The second `lines` call
 * near line 30 M of a 4 GiB file reads a few MiB (the cached index keeps a checkpoint every 4 MiB
 * there) instead of 4 GiB.
 *
 * @example
 * ```ts
 * await copyIndexedLines(source, 29_999_999, 30_000_010, output, { stderr: () => process.stderr });
 * ```
 */
export async function copyIndexedLines(
  source: CliSource,
  start: number,
  end: number,
  output: Output,
  saveOptions: SaveLineIndexOptions = {},
): Promise<void> {
  const { file } = source;
  let index = file ? await loadLineIndex(file) : undefined;
  if (
    file &&
    !index &&
    runsInParallel(file, 'index') &&
    (await isFarIn(source, start, file.stats.size))
  ) {
    const { buildLineIndexInParallel } = await import('../spool/parallel-line-index.js');
    index = await buildLineIndexInParallel(file.path);
    await saveLineIndex(file, index, saveOptions);
  }
  index ??= file ? new LineIndex() : undefined;
  if (file && index) {
    const covered = index.byteLength;
    // A line is located once the index has counted the newline before it.
    if (index.lineCount <= start && covered < file.stats.size) {
      for await (const chunk of source.chunks({
        start: covered,
        reuseBuffers: true,
        countInPlace: true,
      })) {
        index.append(chunk);
        if (index.lineCount > start) break;
      }
    }
    if (index.byteLength - covered >= minimumCachedFileBytes)
      await saveLineIndex(file, index, saveOptions);
  }
  const checkpoint = index?.checkpointFor(start) ?? { line: 0, offset: 0 };
  await copyLines(
    source.chunks({ start: checkpoint.offset, initialChunkSize: 64 * 1024, reuseBuffers: true }),
    start - checkpoint.line,
    end - checkpoint.line,
    output,
  );
}

/**
 * Whether line `start` probably lies past the first quarter of the file, judged by the lines of
 * its first 64 KiB: then indexing the whole file on worker threads beats one thread's scan up
 * to it, and leaves an index for the next call.
 */
async function isFarIn(source: CliSource, start: number, size: number): Promise<boolean> {
  let sample = 0;
  let newlines = 0;
  for await (const chunk of source.chunks({ end: Math.min(size, 64 * 1024) })) {
    sample += chunk.length;
    newlines += countNewlines(chunk);
  }
  const bytesPerLine = sample / Math.max(1, newlines);
  return start * bytesPerLine > size / 4;
}
