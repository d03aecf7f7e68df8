import { countNewlinesSimd } from './simd-newline-count.js';

/** Shorter ranges are counted with indexOf: a few calls cost less than the copy. */
const simdMinimumBytes = 1024;

/** {@link findNewline} skips blocks of this size while more than `skipMinimumLines` remain. */
const skipBlockBytes = 16 * 1024;
const skipMinimumLines = 64;

/** The byte value of `\n`, the only line terminator. */
export const newline = 0x0a;

/**
 * Counts `\n` bytes in `bytes[start, end)`.
 *
 * @example
 * ```ts
 * countNewlines(new TextEncoder().encode('a\nb\n')); // 2
 * ```
 */
export function countNewlines(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let count = 0;
  let position = start;
  // Past a few lines, SIMD beats one indexOf call per newline.
  const counted =
    end - start >= simdMinimumBytes ? countNewlinesSimd(bytes, start, end) : undefined;
  if (counted) {
    count = counted.count;
    position = counted.countedTo;
  }
  for (;;) {
    const found = bytes.indexOf(newline, position);
    if (found === -1 || found >= end) return count;
    count++;
    position = found + 1;
  }
}

/**
 * Finds the `count`-th `\n` in `bytes[start, end)` (1-based). Returns its index, or `-1` with
 * `seen` set to how many newlines there were.
 *
 * @example
 * ```ts
 * findNewline(new TextEncoder().encode('a\nb\nc'), 2); // { index: 3, seen: 2 }
 * ```
 */
export function findNewline(
  bytes: Uint8Array,
  count: number,
  start = 0,
  end = bytes.length,
): { index: number; seen: number } {
  let seen = 0;
  let position = start;
  // A far newline: whole blocks before it are counted with SIMD and skipped, instead of an
  // indexOf call per line (a `lines` call seeks up to a MiB past its checkpoint this way).
  while (count - seen > skipMinimumLines && end - position >= skipBlockBytes) {
    const inBlock = countNewlines(bytes, position, position + skipBlockBytes);
    if (seen + inBlock >= count) break;
    seen += inBlock;
    position += skipBlockBytes;
  }
  while (seen < count) {
    const found = bytes.indexOf(newline, position);
    if (found === -1 || found >= end) return { index: -1, seen };
    seen++;
    position = found + 1;
    if (seen === count) return { index: found, seen };
  }
  return { index: -1, seen };
}
