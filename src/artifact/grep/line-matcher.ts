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

/** Letters from most to least frequent in English text: the last ones make the best anchors. */
const letterFrequency = 'etaoinsrhldcumfpgwybvkxjqz';

/**
 * Matches an ASCII literal ignoring case. Candidates come from byte searches for the needle's
 * rarest letter in both cases (two `indexOf` scans at memory speed, no copy of the block), then
 * each is compared byte by byte with ASCII folding. No byte outside ASCII folds to one inside
 * it, so it matches exactly where a JavaScript regex with the `i` flag (without `u`) would.
 *
 * @example
 * ```ts
 * const matcher = new CaseFoldingBytesLineMatcher('fatal_disk_quota');
 * ```
 */
export class CaseFoldingBytesLineMatcher implements LineMatcher {
  /** The needle in lower case. */
  readonly #needle: Buffer;
  /** Where in the needle the anchor letter is, and its two cases. */
  readonly #anchor: number;
  readonly #anchorCases: [number, number];

  constructor(asciiNeedle: string) {
    this.#needle = Buffer.from(asciiNeedle.toLowerCase(), 'latin1');
    let anchor = 0;
    let rarity = -1;
    this.#needle.forEach((byte, index) => {
      const rank = letterFrequency.indexOf(String.fromCharCode(byte));
      if (rank > rarity) {
        rarity = rank;
        anchor = index;
      }
    });
    this.#anchor = anchor;
    const lower = this.#needle[anchor] ?? 0;
    this.#anchorCases = [lower, rarity === -1 ? lower : lower - 0x20];
  }

  matchingLines(block: Uint8Array): number[] {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const starts: number[] = [];
    if (this.#needle.length === 0) {
      for (let position = 0; position < bytes.length; ) {
        starts.push(position);
        const end = bytes.indexOf(newline, position);
        if (end === -1) break;
        position = end + 1;
      }
      return starts;
    }
    const anchor = this.#anchor;
    const [lower, upper] = this.#anchorCases;
    let lowerAt = bytes.indexOf(lower, anchor);
    let upperAt = upper === lower ? -1 : bytes.indexOf(upper, anchor);
    while (lowerAt !== -1 || upperAt !== -1) {
      const useLower = upperAt === -1 || (lowerAt !== -1 && lowerAt < upperAt);
      const at = useLower ? lowerAt : upperAt;
      if (useLower) lowerAt = bytes.indexOf(lower, at + 1);
      else upperAt = bytes.indexOf(upper, at + 1);
      const start = at - anchor;
      if (!this.#matchesAt(bytes, start)) continue;
      starts.push(bytes.lastIndexOf(newline, start) + 1);
      const lineEnd = bytes.indexOf(newline, start);
      if (lineEnd === -1) break;
      // The rest of a selected line needs no look.
      if (lowerAt !== -1 && lowerAt <= lineEnd + anchor)
        lowerAt = bytes.indexOf(lower, lineEnd + 1 + anchor);
      if (upperAt !== -1 && upperAt <= lineEnd + anchor)
        upperAt = bytes.indexOf(upper, lineEnd + 1 + anchor);
    }
    return starts;
  }

  #matchesAt(bytes: Buffer, start: number): boolean {
    const needle = this.#needle;
    if (start < 0 || start + needle.length > bytes.length) return false;
    for (let index = 0; index < needle.length; index++) {
      const byte = bytes[start + index] ?? 0;
      const folded = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
      if (folded !== needle[index]) return false;
    }
    return true;
  }

  async dispose(): Promise<void> {}
}
