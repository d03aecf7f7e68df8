import { literalText } from './is-literal-pattern.js';
import { BytesLineMatcher, type LineMatcher } from './line-matcher.js';
import { rarestLiteral } from './rarest-literal.js';

const printableAscii = /^[\x20-\x7e]+$/;

/**
 * The literals of a regex that is nothing but printable ASCII literals joined by `.*`
 * (`ERROR .*timeout`), in order; `undefined` for any other regex. With flag `s`, as grep
 * patterns are compiled, such a regex matches a line exactly when the line holds each literal
 * after the end of the one before.
 *
 * @example
 * ```ts
 * literalSequence('ERROR .*timeout'); // ['ERROR ', 'timeout']
 * literalSequence('ERROR .*time(out)?'); // undefined
 * ```
 */
export function literalSequence(source: string): string[] | undefined {
  const parts = source
    .split('.*')
    .filter((part) => part !== '')
    .map(literalText);
  if (parts.length === 0) return undefined;
  return parts.every((part) => part !== undefined && printableAscii.test(part))
    ? (parts as string[])
    : undefined;
}

/**
 * Options for a {@link LiteralSequenceLineMatcher}.
 */
export interface LiteralSequenceOptions {
  /** `false`: a line matches when it holds every literal anywhere, in any order. */
  ordered?: boolean;
}

/**
 * Matches a {@link literalSequence} with byte searches on the calling thread: a regex that
 * needs no regex engine, no worker and no decoding. Candidate lines come from a search for the
 * literal found least often in the first block (see `rarestLiteral`); each is then searched
 * for the literals in order, each from the end of the one before (the leftmost occurrence
 * leaves the most room for the rest), without a view or a copy of the line. Unordered, it
 * finds the lines holding all the literals a regex requires, for the regex to test.
 *
 * @example
 * ```ts
 * const matcher = new LiteralSequenceLineMatcher(['ERROR ', 'timeout']);
 * matcher.matchingLines(Buffer.from('timeout ERROR \nERROR x timeout\n')); // [15]
 * ```
 */
export class LiteralSequenceLineMatcher implements LineMatcher {
  readonly #parts: Buffer[];
  readonly #ordered: boolean;
  #prefilter: BytesLineMatcher | undefined;
  /** Which literal the prefilter searches for, chosen on the first block. */
  #prefiltered = 0;

  constructor(parts: readonly (string | Uint8Array)[], options: LiteralSequenceOptions = {}) {
    this.#parts = parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
    );
    this.#ordered = options.ordered !== false;
  }

  matchingLines(block: Uint8Array): number[] {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    const parts = this.#parts;
    if (!this.#prefilter) {
      this.#prefiltered = rarestLiteral(parts, bytes);
      this.#prefilter = new BytesLineMatcher(parts[this.#prefiltered] as Buffer);
    }
    const ordered = this.#ordered;
    // Where each literal occurs next in the block (-1: not searched yet, Infinity: no more).
    // Candidate lines ascend, so each literal's search only moves forward: one pass per literal.
    const next = parts.map(() => -1);
    const starts: number[] = [];
    const prefiltered = this.#prefiltered;
    this.#prefilter.visitLines(bytes, (start, hit, end) => {
      // The prefilter's hit is its literal's first occurrence in the line, so no search for it
      // (where the sequence needs it further on, it is searched from there).
      next[prefiltered] = hit;
      let position = start;
      let inOrder = true;
      for (let index = 0; index < parts.length && inOrder; index++) {
        const part = parts[index] as Buffer;
        let at = next[index] as number;
        if (at < position) {
          at = bytes.indexOf(part, position);
          if (at === -1) at = Number.POSITIVE_INFINITY;
          next[index] = at;
        }
        // A literal holds no newline: one that starts inside the line ends inside it.
        inOrder = at < end;
        if (ordered) position = at + part.length;
      }
      if (inOrder) starts.push(start);
    });
    return starts;
  }

  async dispose(): Promise<void> {}
}
