import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { newline } from './newlines.js';

/**
 * Options for {@link lineBlocks}.
 */
export interface LineBlocksOptions {
  /** A longer line fails with `E_LINE_TOO_LONG` instead of growing memory. Default 256 MiB. */
  maxLineBytes?: number;
  signal?: AbortSignal;
}

/** Lines longer than this are refused rather than assembled (a multi-GB input never becomes one Buffer). */
export const defaultMaxLineBytes = 256 * 1024 * 1024;

/**
 * Regroups arbitrary chunks into blocks of whole lines: every block ends with `\n` except
 * possibly the last one, which holds a final line without `\n`. Only a line that straddles two
 * chunks is copied; everything else is a view of the chunk it arrived in (valid as long as that
 * chunk is), so a multi-byte character split across chunks is whole again in its block.
 *
 * @example
 * ```ts
 * let newlines = 0;
 * for await (const block of lineBlocks(readerChunks(reader))) newlines += countNewlines(block);
 * ```
 */
export async function* lineBlocks(
  chunks: AsyncIterable<Uint8Array>,
  options: LineBlocksOptions = {},
): AsyncGenerator<Uint8Array> {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  let pieces: Uint8Array[] = [];
  let carried = 0;
  const carry = (piece: Uint8Array) => {
    carried += piece.length;
    if (carried > maxLineBytes) {
      throw new SpoolforgeError(
        'E_LINE_TOO_LONG',
        `A line is longer than ${maxLineBytes} bytes (maxLineBytes); it cannot be matched as one line`,
      );
    }
    // A copy: the chunk's buffer may be recycled for the next read.
    pieces.push(Buffer.from(piece));
  };
  for await (const chunk of chunks) {
    throwIfAborted(options.signal);
    let start = 0;
    if (carried > 0) {
      const first = chunk.indexOf(newline);
      if (first === -1) {
        carry(chunk);
        continue;
      }
      carry(chunk.subarray(0, first + 1));
      yield Buffer.concat(pieces, carried);
      pieces = [];
      carried = 0;
      start = first + 1;
    }
    const last = chunk.lastIndexOf(newline);
    if (last >= start) {
      yield chunk.subarray(start, last + 1);
      start = last + 1;
    }
    if (start < chunk.length) carry(chunk.subarray(start));
  }
  if (carried > 0) yield Buffer.concat(pieces, carried);
}
