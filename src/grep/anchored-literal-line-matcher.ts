import { newline } from '../spool/newlines.js';
import { BytesLineMatcher, type LineMatcher } from './line-matcher.js';

/**
 * Matches the lines that start (`^LITERAL`) or end (`LITERAL$`) with a literal, with one byte
 * search for the literal and the newline beside it: a line starts with it where a newline (or
 * the block) precedes it, and ends with it where a newline (or the block's end) follows it.
 * No regex tests a line.
 *
 * @example
 * ```ts
 * const matcher = new AnchoredLiteralLineMatcher(Buffer.from('17000'), 'start');
 * matcher.matchingLines(Buffer.from('17000 a\n2 17000\n17000\n')); // [0, 16]
 * ```
 */
export class AnchoredLiteralLineMatcher implements LineMatcher {
  readonly #literal: Buffer;
  readonly #edge: 'start' | 'end';
  /** The literal with the newline before it (start) or after it (end). */
  readonly #withNewline: BytesLineMatcher;

  constructor(literal: Uint8Array, edge: 'start' | 'end') {
    this.#literal = Buffer.from(literal);
    this.#edge = edge;
    const newlineBytes = Buffer.of(newline);
    this.#withNewline = new BytesLineMatcher(
      edge === 'start'
        ? Buffer.concat([newlineBytes, this.#literal])
        : Buffer.concat([this.#literal, newlineBytes]),
    );
  }

  matchingLines(block: Uint8Array): number[] {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const starts: number[] = [];
    if (this.#edge === 'start') {
      if (this.#startsBlock(bytes)) starts.push(0);
      // The hit is the newline before the line.
      this.#withNewline.visitLines(bytes, (_lineStart, hit) => void starts.push(hit + 1));
    } else {
      this.#withNewline.visitLines(bytes, (lineStart) => void starts.push(lineStart));
      if (this.#endsBlock(bytes)) starts.push(bytes.lastIndexOf(newline) + 1);
    }
    return starts;
  }

  countMatchingLines(block: Uint8Array): number {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const edges = this.#edge === 'start' ? this.#startsBlock(bytes) : this.#endsBlock(bytes);
    return this.#withNewline.visitLines(bytes, undefined) + (edges ? 1 : 0);
  }

  async dispose(): Promise<void> {}

  #startsBlock(bytes: Buffer): boolean {
    return (
      bytes.length >= this.#literal.length &&
      this.#literal.equals(bytes.subarray(0, this.#literal.length))
    );
  }

  /** A last line without a newline that ends with the literal: no newline follows it. */
  #endsBlock(bytes: Buffer): boolean {
    return (
      bytes.length >= this.#literal.length &&
      bytes[bytes.length - 1] !== newline &&
      this.#literal.equals(bytes.subarray(bytes.length - this.#literal.length))
    );
  }
}
