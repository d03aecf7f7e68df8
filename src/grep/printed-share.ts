import { lineBlocks } from '../spool/line-blocks.js';
import { countNewlines } from '../spool/newlines.js';
import { lineEndAt } from './block-lines.js';
import type { GrepScanOptions } from './grep-scan-options.js';
import { OnlyMatching } from './only-matching.js';

/**
 * The share of `sample`'s bytes a grep with these options would print: its selected lines
 * (the others with `invert`; with `onlyMatching`, the matches of the matching lines),
 * and for each a context of `before + after` lines of the
 * sample's average length. 0 for an empty sample.
 *
 * @example
 * ```ts
 * const share = await printedShare(readerChunks(reader, { end: 1024 * 1024 }), { matcher });
 * if (share < 0.01) console.log('rare: worth threads');
 * ```
 */
export async function printedShare(
  sample: AsyncIterable<Uint8Array>,
  options: Pick<GrepScanOptions, 'matcher' | 'invert' | 'before' | 'after' | 'onlyMatching'>,
): Promise<number> {
  const only = options.onlyMatching && new OnlyMatching(options.matcher, options.onlyMatching);
  let scanned = 0;
  let lines = 0;
  let matchingBytes = 0;
  let matchingLines = 0;
  for await (const block of lineBlocks(sample)) {
    const starts = await options.matcher.matchingLines(block);
    if (only) {
      only.appendLines(Buffer.from(block.buffer, block.byteOffset, block.length), starts);
      matchingBytes += only.take().length;
    } else {
      for (let index = 0; index < starts.length; index++) {
        const start = starts[index] ?? 0;
        matchingBytes += lineEndAt(block, start) + 1 - start;
      }
    }
    matchingLines += starts.length;
    lines += countNewlines(block);
    scanned += block.length;
  }
  if (scanned === 0) return 0;
  const selectedBytes = options.invert ? scanned - matchingBytes : matchingBytes;
  const selectedLines = options.invert ? lines - matchingLines : matchingLines;
  const contextLines = selectedLines * ((options.before ?? 0) + (options.after ?? 0));
  const contextBytes = (contextLines * scanned) / Math.max(1, lines);
  return Math.min(1, (selectedBytes + contextBytes) / scanned);
}
