import { BytesLineMatcher, type LineMatcher } from './line-matcher.js';

/** GNU grep's word constituents in the C locale: ASCII letters, digits and `_`. */
const isWordByte = (byte: number | undefined) =>
  byte !== undefined &&
  ((byte >= 0x30 && byte <= 0x39) ||
    ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) ||
    byte === 0x5f);

/**
 * Matches the lines where a literal occurs as a whole word (`grep -w`): byte searches find
 * the lines holding it (see `BytesLineMatcher`), then its occurrences in each line are checked
 * for a word constituent on either side, until one has none. No regex tests a line.
 *
 * @example
 * ```ts
 * const matcher = new WordLiteralLineMatcher(Buffer.from('timeout'));
 * matcher.matchingLines(Buffer.from('timeouts\nno timeout.\n')); // [9]
 * ```
 */
export class WordLiteralLineMatcher implements LineMatcher {
  readonly #literal: Buffer;
  readonly #lines: BytesLineMatcher;

  constructor(literal: Uint8Array) {
    this.#literal = Buffer.from(literal);
    this.#lines = new BytesLineMatcher(this.#literal);
  }

  matchingLines(block: Uint8Array): number[] {
    const starts: number[] = [];
    this.#visit(block, (lineStart) => void starts.push(lineStart));
    return starts;
  }

  countMatchingLines(block: Uint8Array): number {
    let count = 0;
    this.#visit(block, () => void count++);
    return count;
  }

  async dispose(): Promise<void> {}

  #visit(block: Uint8Array, selected: (lineStart: number) => void): void {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const literal = this.#literal;
    this.#lines.visitLines(bytes, (lineStart, hit, lineEnd) => {
      for (let at = hit; at !== -1 && at + literal.length <= lineEnd; ) {
        const before = at > lineStart ? bytes[at - 1] : undefined;
        const after = at + literal.length < lineEnd ? bytes[at + literal.length] : undefined;
        if (!isWordByte(before) && !isWordByte(after)) {
          selected(lineStart);
          return;
        }
        at = bytes.indexOf(literal, at + 1);
      }
    });
  }
}
