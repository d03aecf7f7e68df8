import {
  type SimdKernels,
  searchNeedle,
  searchOut,
  searchWindow,
  simdKernels,
} from '../spool/simd-kernels.js';

/** A line holding the needle: its start, the needle's first hit in it, its end (its `\n`, or the block's end). */
export type MatchedLineVisitor = (lineStart: number, hit: number, lineEnd: number) => void;

/**
 * Finds the lines of a block holding a literal with the `search` kernel of
 * src/spool/simd-kernels.wat, one call per block: candidates from a SIMD filter on two of the
 * needle's bytes (its first and the one at `pair`, the packed pair of memchr and ripgrep), each
 * checked whole, and the matching lines' bounds found in the same pass. A block that lies in
 * the kernels' memory (a scan's reads, see `countableBuffer`) is searched where it lies; others
 * up to 1 MiB are copied in first; larger ones are not searched (`undefined`).
 *
 * @example
 * ```ts
 * const search = SimdLiteralSearch.create(Buffer.from('ERROR'));
 * const count = search?.countLines(block); // undefined: search the block another way
 * ```
 */
export class SimdLiteralSearch {
  readonly #kernels: SimdKernels;
  readonly #needle: Uint8Array;
  readonly #pair: number;
  readonly #fold: number;

  private constructor(kernels: SimdKernels, needle: Uint8Array, pair: number, foldCase: boolean) {
    this.#kernels = kernels;
    this.#needle = needle;
    this.#pair = pair;
    this.#fold = foldCase ? 1 : 0;
  }

  /**
   * A search for `needle` (1 to 256 bytes) filtering on its first byte and its byte at `pair`
   * (the last by default; pick a byte rare in the text); `undefined` without WebAssembly SIMD
   * or for a needle it does not take. With `foldCase`, ASCII letters match in either case.
   */
  static create(
    needle: Uint8Array,
    pair = needle.length - 1,
    foldCase = false,
  ): SimdLiteralSearch | undefined {
    const kernels = simdKernels();
    if (!kernels || needle.length === 0 || needle.length > searchNeedle.length) return undefined;
    if (!(pair >= 0 && pair < needle.length)) return undefined;
    const lowered = Uint8Array.from(needle, (byte) =>
      foldCase && byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte,
    );
    return new SimdLiteralSearch(kernels, lowered, pair, foldCase);
  }

  /** How many lines of `block` hold the needle; `undefined` where the block is out of reach. */
  countLines(block: Uint8Array): number | undefined {
    const start = this.#place(block);
    if (start === undefined) return undefined;
    return this.#search(start, start + block.length, 0);
  }

  /**
   * Calls `visit` for each line of `block` holding the needle, in order; returns how many
   * there were, or `undefined` (nothing visited) where the block is out of reach.
   */
  visitLines(block: Uint8Array, visit: MatchedLineVisitor): number | undefined {
    const found: number[] = [];
    const { words } = this.#kernels;
    const first = searchOut.offset >> 2;
    // All batches are gathered before any visit: a visitor may search, and so reuse the out area.
    const reached = this.#eachBatch(block, (lines, start) => {
      for (const word of words.subarray(first, first + 3 * lines)) found.push(word - start);
    });
    if (!reached) return undefined;
    for (let index = 0; index < found.length; index += 3) {
      visit(found[index] as number, found[index + 1] as number, found[index + 2] as number);
    }
    return found.length / 3;
  }

  /**
   * The starts of the lines of `block` holding the needle, ascending, or `undefined` where the
   * block is out of reach: {@link visitLines} without a call per line.
   */
  lineStarts(block: Uint8Array): Int32Array | undefined {
    const { words } = this.#kernels;
    const first = searchOut.offset >> 2;
    let starts = new Int32Array(256);
    let count = 0;
    const reached = this.#eachBatch(block, (lines, start) => {
      if (count + lines > starts.length) {
        const grown = new Int32Array(Math.max(count + lines, starts.length * 2));
        grown.set(starts.subarray(0, count));
        starts = grown;
      }
      for (let line = 0; line < lines; line++) {
        starts[count++] = (words[first + 3 * line] as number) - start;
      }
    });
    return reached ? starts.subarray(0, count) : undefined;
  }

  /** Whether `block` can be searched: it lies in the kernels' memory, or fits their window. */
  reaches(block: Uint8Array): boolean {
    const kernels = this.#kernels;
    return this.inPlace(block) || (kernels.grown && block.length <= searchWindow.length);
  }

  /** Whether `block` lies in the kernels' memory (a scan's read), searched without a copy. */
  inPlace(block: Uint8Array): boolean {
    return block.buffer === this.#kernels.memory;
  }

  /** Where `block` starts in the kernels' memory, copied there if it lies elsewhere. */
  #place(block: Uint8Array): number | undefined {
    const kernels = this.#kernels;
    if (this.inPlace(block)) return block.byteOffset;
    if (!this.reaches(block)) return undefined;
    kernels.bytes.set(block, searchWindow.offset);
    return searchWindow.offset;
  }

  /**
   * Searches `block` in batches of the out area, calling `batch` with each one's line count
   * (their words at `searchOut`) and where the block starts in memory; `false`, having searched
   * nothing, where the block is out of reach.
   */
  #eachBatch(block: Uint8Array, batch: (lines: number, start: number) => void): boolean {
    const start = this.#place(block);
    if (start === undefined) return false;
    const end = start + block.length;
    for (let from = start; from < end; from = this.#kernels.resume.value) {
      batch(this.#search(from, end, searchOut.lines), start);
    }
    return true;
  }

  /** One kernel call over `[from, end)` of the memory: lines written up to `capacity`, none with 0. */
  #search(from: number, end: number, capacity: number): number {
    const kernels = this.#kernels;
    kernels.bytes.set(this.#needle, searchNeedle.offset);
    const out = capacity === 0 ? 0 : searchOut.offset;
    return kernels.search(
      searchNeedle.offset,
      this.#needle.length,
      this.#pair,
      from,
      end,
      out,
      capacity,
      this.#fold,
    );
  }
}
