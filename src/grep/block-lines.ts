import { newline } from '../spool/newlines.js';

/** Where the line starting at `start` ends: its `\n`, or the block's end. */
export function lineEndAt(block: Uint8Array, start: number): number {
  const end = block.indexOf(newline, start);
  return end === -1 ? block.length : end;
}

/** The start of the last `count` lines of `block[from, to)` (`from` when it has fewer). */
export function lastLinesStart(block: Uint8Array, from: number, to: number, count: number): number {
  let start = to;
  for (let line = 0; line < count && start > from; line++) {
    const previous = start - 2 >= from ? block.lastIndexOf(newline, start - 2) : -1;
    start = previous < from ? from : previous + 1;
  }
  return start;
}
