import type { LineMatcher } from './line-matcher.js';
import { regexCountLines, regexMatchingLines } from './regex-lines.js';

/**
 * Tests each line against a regex on the calling thread: no copy into a worker, no message
 * round trip. Only for callers that are themselves a worker thread someone can terminate (the
 * parts of a parallel grep): nothing here can stop a catastrophic pattern.
 *
 * @example
 * ```ts
 * const matcher = new InThreadRegexLineMatcher(/ERROR .*timeout/s);
 * const starts = matcher.matchingLines(block);
 * ```
 */
export class InThreadRegexLineMatcher implements LineMatcher {
  readonly #regex: RegExp;

  constructor(regex: RegExp) {
    this.#regex = regex;
  }

  matchingLines(block: Uint8Array): number[] {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    return regexMatchingLines(this.#regex, bytes);
  }

  /** How many lines of `block` match, without locating where they start (`grep -c`). */
  countMatchingLines(block: Uint8Array): number {
    return regexCountLines(
      this.#regex,
      Buffer.from(block.buffer, block.byteOffset, block.byteLength),
    );
  }

  async dispose(): Promise<void> {}
}
