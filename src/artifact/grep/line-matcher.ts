import { newline } from '../../spool/newlines.js';

/**
 * Finds the matching lines of a block of whole lines (see `lineBlocks`).
 *
 * @example
 * ```ts
 * const starts = await matcher.matchingLines(block); // ascending offsets of matching lines
 * ```
 */
export interface LineMatcher {
  /** Start offsets, ascending, of the lines in `block` that match. */
  matchingLines(block: Uint8Array): ArrayLike<number> | Promise<ArrayLike<number>>;
  /** Releases a worker, if the matcher has one. */
  dispose(): Promise<void>;
}

/**
 * Matches a literal byte sequence with `Buffer.indexOf`, which runs at memory speed, then maps
 * each hit to its line; it never decodes text. An empty needle matches every line, as in grep.
 *
 * @example
 * ```ts
 * const matcher = new BytesLineMatcher(Buffer.from('ERROR'));
 * ```
 */
export class BytesLineMatcher implements LineMatcher {
  readonly #needle: Buffer;

  constructor(needle: Buffer) {
    this.#needle = needle;
  }

  matchingLines(block: Uint8Array): number[] {
    const starts: number[] = [];
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    let position = 0;
    while (position < bytes.length) {
      const hit = this.#needle.length === 0 ? position : bytes.indexOf(this.#needle, position);
      if (hit === -1) break;
      starts.push(hit === position ? position : bytes.lastIndexOf(newline, hit) + 1);
      const lineEnd = bytes.indexOf(newline, hit);
      if (lineEnd === -1) break;
      position = lineEnd + 1;
    }
    return starts;
  }

  async dispose(): Promise<void> {}
}
