import { newline } from '../spool/newlines.js';
import { needleAnchor, pairAnchor } from './needle-anchor.js';
import { SimdLiteralSearch } from './simd-literal-search.js';

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
  /**
   * How many lines of `block` match, where the matcher can count them faster than it lists
   * them (`grep -c`).
   */
  countMatchingLines?(block: Uint8Array): number;
  /**
   * The non-empty matches of one line (no `\n` in it), leftmost first and not overlapping, as
   * the pattern's `g` regex finds them (`grep -o`), where the matcher can tell them without a
   * regex. Returns `false`, having visited nothing, where it cannot.
   */
  visitMatches?(line: Buffer, visit: (start: number, end: number) => void): boolean;
  /** Releases a worker, if the matcher has one. */
  dispose(): Promise<void>;
}

/**
 * Matches a literal byte sequence, then maps each hit to its line; it never decodes text.
 * Candidates come from a byte search (`memchr` speed) for the needle's byte rarest in the
 * first block (see `needleAnchor`), each checked in place: `Buffer.indexOf` of a whole needle
 * runs several times slower on log text.
 * Where that byte turns out common in a block, the rest of the block and the blocks after it
 * go to the SIMD pair filter (`SimdLiteralSearch`), or to `Buffer.indexOf` of the needle for a
 * block outside its memory. An empty needle matches every line, as in grep.
 *
 * @example
 * ```ts
 * const matcher = new BytesLineMatcher(Buffer.from('ERROR'));
 * ```
 */
export class BytesLineMatcher implements LineMatcher {
  readonly #needle: Buffer;
  /** Where in the needle the anchor byte is (chosen on the first block), and its value. */
  #anchor = -1;
  #anchorByte = 0;
  /** The SIMD search, filtering on the needle's first byte and its anchor (see `visitLines`). */
  #simd: SimdLiteralSearch | undefined;
  /** Whether the last block held a matching line per 4 KiB or more. */
  #dense = false;
  /** Whether the anchor byte proved common (too many false candidates) in a block. */
  #commonAnchor = false;

  constructor(needle: Buffer) {
    this.#needle = needle;
  }

  matchingLines(block: Uint8Array): ArrayLike<number> {
    // Straight from the SIMD kernel's output where it searches the block: no call per line.
    const simd = this.#simdFor(block);
    if (simd) {
      const starts = simd.lineStarts(block) as Int32Array;
      this.#noteDensity(block, starts.length);
      return starts;
    }
    const starts: number[] = [];
    this.visitLines(block, (lineStart) => {
      starts.push(lineStart);
    });
    return starts;
  }

  /** How many lines of `block` match: `matchingLines` without locating where they start. */
  countMatchingLines(block: Uint8Array): number {
    return this.visitLines(block, undefined);
  }

  /** Each occurrence of the needle, the next searched from the end of the last. */
  visitMatches(line: Buffer, visit: (start: number, end: number) => void): boolean {
    const needle = this.#needle;
    if (needle.length === 0) return true;
    for (let at = line.indexOf(needle); at !== -1; at = line.indexOf(needle, at + needle.length)) {
      visit(at, at + needle.length);
    }
    return true;
  }

  async dispose(): Promise<void> {}

  /**
   * Calls `visit` for each line of `block` holding the needle, in order, with the line's start,
   * where the needle first occurs in it and where it ends (its newline, or the block's end);
   * returns how many there were. Without `visit`, no line start is looked for.
   */
  visitLines(block: Uint8Array, visit: LineVisitor | undefined): number {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const needle = this.#needle;
    if (needle.length === 0) return searchLines(bytes, needle, 0, visit);
    const simd = this.#simdFor(block);
    const count = simd
      ? ((visit ? simd.visitLines(block, visit) : simd.countLines(block)) as number)
      : this.#anchoredLines(bytes, visit);
    this.#noteDensity(block, count);
    return count;
  }

  /**
   * The SIMD search where it should search `block`, else `undefined` (the anchor byte's search).
   * Dense matches cost a few byte searches each there; the SIMD kernel finds them in one pass
   * (1 MiB blocks in its memory, a matching line per KiB: 1.2-1.6x faster). Sparse ones it
   * loses to a byte search for the anchor (2.5x slower), so the last block's density decides.
   * So does an anchor byte that proved common: the pair of bytes filters where one cannot.
   */
  #simdFor(block: Uint8Array): SimdLiteralSearch | undefined {
    const needle = this.#needle;
    if (needle.length === 0) return undefined;
    if (this.#anchor === -1) {
      const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
      this.#anchor = needleAnchor(needle, bytes);
      this.#anchorByte = needle[this.#anchor] as number;
      this.#simd = SimdLiteralSearch.create(needle, pairAnchor(needle, bytes));
    }
    return (this.#dense || this.#commonAnchor) && this.#simd?.reaches(block)
      ? this.#simd
      : undefined;
  }

  /** Notes whether `block`, with `count` matching lines, held one per 4 KiB or more. */
  #noteDensity(block: Uint8Array, count: number): void {
    this.#dense = count > block.length >> 12;
  }

  /** {@link visitLines} with candidates from a byte search for the anchor. */
  #anchoredLines(bytes: Buffer, visit: LineVisitor | undefined): number {
    const needle = this.#needle;
    const anchor = this.#anchor;
    const anchorByte = this.#anchorByte;
    let count = 0;
    // Past one false candidate per 256 bytes, the anchor is no better than the whole needle.
    let falseCandidates = bytes.length >> 8;
    let at = bytes.indexOf(anchorByte, anchor);
    while (at !== -1) {
      const start = at - anchor;
      if (!matchesAt(bytes, needle, start)) {
        if (--falseCandidates < 0) {
          // Every line before this candidate's is decided; this one has no match before it.
          const lineStart = start > 0 ? bytes.lastIndexOf(newline, start - 1) + 1 : 0;
          this.#commonAnchor = true;
          return count + this.#restOfBlock(bytes, lineStart, visit);
        }
        at = bytes.indexOf(anchorByte, at + 1);
        continue;
      }
      count++;
      const lineEnd = bytes.indexOf(newline, start);
      visit?.(
        start > 0 ? bytes.lastIndexOf(newline, start - 1) + 1 : 0,
        start,
        lineEnd === -1 ? bytes.length : lineEnd,
      );
      if (lineEnd === -1) break;
      // The rest of a selected line needs no look.
      at = bytes.indexOf(anchorByte, lineEnd + 1 + anchor);
    }
    return count;
  }

  /**
   * The lines from `lineStart` on, past an anchor byte that proved common: with the SIMD pair
   * filter where the block lies in its memory, else with `Buffer.indexOf` of the needle.
   */
  #restOfBlock(bytes: Buffer, lineStart: number, visit: LineVisitor | undefined): number {
    const rest = bytes.subarray(lineStart);
    const simd = this.#simd?.inPlace(rest) ? this.#simd : undefined;
    if (!simd) return searchLines(bytes, this.#needle, lineStart, visit);
    if (!visit) return simd.countLines(rest) as number;
    return simd.visitLines(rest, (start, hit, end) =>
      visit(start + lineStart, hit + lineStart, end + lineStart),
    ) as number;
  }
}

/** What {@link BytesLineMatcher.visitLines} tells of a line holding the needle. */
export type LineVisitor = (lineStart: number, hit: number, lineEnd: number) => void;

/**
 * Counts the lines from `position` (a line start) on that contain `needle`, visiting each when
 * `visit` is given.
 */
function searchLines(
  bytes: Buffer,
  needle: Buffer,
  position: number,
  visit: LineVisitor | undefined,
): number {
  let count = 0;
  while (position < bytes.length) {
    const hit = needle.length === 0 ? position : bytes.indexOf(needle, position);
    if (hit === -1) break;
    count++;
    const lineEnd = bytes.indexOf(newline, hit);
    visit?.(
      hit === position ? position : bytes.lastIndexOf(newline, hit) + 1,
      hit,
      lineEnd === -1 ? bytes.length : lineEnd,
    );
    if (lineEnd === -1) break;
    position = lineEnd + 1;
  }
  return count;
}

function matchesAt(bytes: Buffer, needle: Buffer, start: number): boolean {
  if (start < 0 || start + needle.length > bytes.length) return false;
  for (let index = 0; index < needle.length; index++) {
    if (bytes[start + index] !== needle[index]) return false;
  }
  return true;
}
