import type { LineMatcher } from './line-matcher.js';
import { matchRanges } from './match-ranges.js';

const newline = 0x0a;

/**
 * What `grep -o` prints of selected lines: each line's non-empty matches, leftmost first and
 * not overlapping, each on a line of its own; nothing for a line that has none (`grep -o
 * 'b*'`). The matcher tells the matches where it can without a regex (a literal, a walk from a
 * class sequence's literal); else `regex` (the pattern's, with the `g` flag) walks the line.
 * The matches are collected in one buffer, bounded by the lines given between two takes (at
 * most twice their bytes).
 *
 * @example
 * ```ts
 * const only = new OnlyMatching(matcher, patternRegex('req=[0-9]+', { global: true }));
 * only.append(Buffer.from('req=1 req=22'), 0, 12);
 * only.take().toString(); // 'req=1\nreq=22\n'
 * ```
 */
export class OnlyMatching {
  readonly #matcher: LineMatcher;
  readonly #regex: RegExp;
  #collected = Buffer.allocUnsafe(64 * 1024);
  #length = 0;
  /** The line being walked: matches are visited at offsets in it. */
  #line: Buffer = this.#collected;
  readonly #add = (start: number, end: number) => {
    const needed = this.#length + end - start + 1;
    if (needed > this.#collected.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#collected.length * 2));
      this.#collected.copy(grown, 0, 0, this.#length);
      this.#collected = grown;
    }
    // Matches are short: a loop costs less than `copy`'s call.
    const collected = this.#collected;
    const line = this.#line;
    let length = this.#length;
    for (let at = start; at < end; at++) collected[length++] = line[at] as number;
    collected[length++] = newline;
    this.#length = length;
  };

  constructor(matcher: LineMatcher, regex: RegExp) {
    this.#matcher = matcher;
    this.#regex = regex;
  }

  /** Collects the matches of the line `block[start, end)` (no `\n` in it). */
  append(block: Buffer, start: number, end: number): void {
    const line = block.subarray(start, end);
    this.#line = line;
    if (this.#matcher.visitMatches?.(line, this.#add)) return;
    for (const [from, to] of matchRanges(this.#regex, line)) this.#add(from, to);
  }

  /**
   * Collects the matches of each line of `block` that starts at one of `starts`; a last line
   * without `\n` ends at the block's end.
   */
  appendLines(block: Buffer, starts: ArrayLike<number>): void {
    for (let index = 0; index < starts.length; index++) {
      const start = starts[index] as number;
      const end = block.indexOf(newline, start);
      this.append(block, start, end === -1 ? block.length : end);
    }
  }

  /** The matches collected since the last take, each with its `\n`; valid until the next append. */
  take(): Buffer {
    const taken = this.#collected.subarray(0, this.#length);
    this.#length = 0;
    return taken;
  }

  /** The matches of one line, joined by `\n`; valid until the next call. */
  ofLine(line: Uint8Array): Buffer {
    const bytes = Buffer.isBuffer(line)
      ? line
      : Buffer.from(line.buffer, line.byteOffset, line.length);
    this.#length = 0;
    this.append(bytes, 0, bytes.length);
    const taken = this.take();
    // No `\n` after the last one.
    return taken.subarray(0, Math.max(0, taken.length - 1));
  }
}
