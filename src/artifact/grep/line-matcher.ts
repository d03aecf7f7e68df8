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

/**
 * Matches an ASCII literal ignoring case. The block is read as Latin-1 (one character per byte,
 * so positions are byte offsets) and lowered by V8's string `toLowerCase`, far faster than a
 * byte loop in JavaScript; it also changes some bytes over 0x7F, but those never become ASCII,
 * so an ASCII needle matches exactly where a JavaScript regex with the `i` flag (without `u`)
 * would: no character outside ASCII folds to one inside it.
 *
 * @example
 * ```ts
 * const matcher = new CaseFoldingBytesLineMatcher('fatal_disk_quota');
 * ```
 */
export class CaseFoldingBytesLineMatcher implements LineMatcher {
  readonly #needle: string;

  constructor(asciiNeedle: string) {
    this.#needle = asciiNeedle.toLowerCase();
  }

  matchingLines(block: Uint8Array): number[] {
    const text = Buffer.from(block.buffer, block.byteOffset, block.length)
      .toString('latin1')
      .toLowerCase();
    const starts: number[] = [];
    let position = 0;
    while (position < text.length) {
      const hit = this.#needle.length === 0 ? position : text.indexOf(this.#needle, position);
      if (hit === -1) break;
      starts.push(hit === position ? position : text.lastIndexOf('\n', hit) + 1);
      const lineEnd = text.indexOf('\n', hit);
      if (lineEnd === -1) break;
      position = lineEnd + 1;
    }
    return starts;
  }

  async dispose(): Promise<void> {}
}
