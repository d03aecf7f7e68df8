import { findNewline } from '../spool/newlines.js';
import type { Output } from './output.js';

/**
 * Copies lines `[start, end)` (0-based) of a chunk stream to `output` byte for byte, and stops
 * reading as soon as `end` is reached, as `head` and `sed -n 'A,Bp'` do on a pipe.
 *
 * @example
 * ```ts
 * await copyLines(source.chunks(), 0, 10, output); // head -n 10
 * ```
 */
export async function copyLines(
  chunks: AsyncIterable<Uint8Array>,
  start: number,
  end: number,
  output: Output,
): Promise<void> {
  if (end <= start) return;
  let line = 0;
  for await (const chunk of chunks) {
    let position = 0;
    if (line < start) {
      const { index, seen } = findNewline(chunk, start - line);
      line += seen;
      if (index === -1) continue;
      position = index + 1;
    }
    if (end === Number.POSITIVE_INFINITY) {
      await copyBytes([chunk.subarray(position)], output);
      if (output.closed) return;
      continue;
    }
    const { index, seen } = findNewline(chunk, end - line, position);
    if (index !== -1) {
      output.write(chunk.subarray(position, index + 1));
      return;
    }
    output.write(chunk.subarray(position));
    line += seen;
    await output.drain();
    if (output.closed) return;
  }
}

/**
 * Copies chunks to `output` as they are, honouring back-pressure; stops if the reader went away.
 *
 * @example
 * ```ts
 * await copyBytes(readerChunks(reader, { start: offset }), output);
 * ```
 */
export async function copyBytes(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  output: Output,
): Promise<void> {
  for await (const chunk of chunks) {
    output.write(chunk);
    await output.drain();
    if (output.closed) return;
  }
}
