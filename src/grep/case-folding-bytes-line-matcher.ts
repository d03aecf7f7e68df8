import { newline } from '../spool/newlines.js';
import type { LineMatcher } from './line-matcher.js';
import { needleAnchor, pairAnchor } from './needle-anchor.js';
import { SimdLiteralSearch } from './simd-literal-search.js';

/**
 * Matches an ASCII literal ignoring case. Candidates come from byte searches for the needle's
 * byte rarest in the first block, in both cases for a letter (`indexOf` scans at memory speed,
 * no copy of the block), then each is compared byte by byte with ASCII folding. No byte outside ASCII folds to one inside
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
  /** Where in the needle the anchor byte is (chosen on the first block), and its two cases. */
  #anchor = -1;
  #anchorCases: [number, number] = [0, 0];
  /** The SIMD search with case folding, filtering on the first byte and the anchor. */
  #simd: SimdLiteralSearch | undefined;

  constructor(asciiNeedle: string) {
    this.#needle = Buffer.from(asciiNeedle.toLowerCase(), 'latin1');
  }

  matchingLines(block: Uint8Array): ArrayLike<number> {
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
    // A block in the SIMD kernels' memory is searched there: one pass with both cases of two
    // bytes compared at once, where byte searches need two for each case of one.
    const simd = this.#prepare(bytes);
    if (simd) return simd.lineStarts(block) as Int32Array;
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

  /** How many lines of `block` match: counted by the SIMD kernel where it reaches the block. */
  countMatchingLines(block: Uint8Array): number {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const simd = this.#needle.length === 0 ? undefined : this.#prepare(bytes);
    return simd ? (simd.countLines(block) as number) : this.matchingLines(block).length;
  }

  /** Chooses the anchor on the first block; the SIMD search if `bytes` lies in its memory. */
  #prepare(bytes: Buffer): SimdLiteralSearch | undefined {
    if (this.#anchor === -1) {
      this.#anchor = needleAnchor(this.#needle, bytes, true);
      const lower = this.#needle[this.#anchor] as number;
      const isLetter = lower >= 0x61 && lower <= 0x7a;
      this.#anchorCases = [lower, isLetter ? lower - 0x20 : lower];
      this.#simd = SimdLiteralSearch.create(
        this.#needle,
        pairAnchor(this.#needle, bytes, true),
        true,
      );
    }
    return this.#simd?.reaches(bytes) ? this.#simd : undefined;
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
