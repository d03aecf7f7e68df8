import { CaseFoldingBytesLineMatcher } from './case-folding-bytes-line-matcher.js';
import { BytesLineMatcher, type LineMatcher } from './line-matcher.js';

/**
 * Options for an {@link AnyLiteralLineMatcher}.
 */
export interface AnyLiteralOptions {
  /** Compare ASCII letters without case; the literals must then be ASCII. */
  ignoreCase?: boolean;
}

/**
 * Matches the lines holding any of several literals (`ERROR|FATAL`, `-i 'disk full|quota'`):
 * each literal is searched on its own with byte searches (see `BytesLineMatcher`), and the
 * ascending line lists are merged. A regex engine would test every line against the
 * alternation; here a line is touched only where one of the literals is.
 *
 * @example
 * ```ts
 * const matcher = new AnyLiteralLineMatcher(['ERROR', 'FATAL']);
 * matcher.matchingLines(Buffer.from('INFO a\nFATAL b\nERROR c\n')); // [7, 15]
 * ```
 */
export class AnyLiteralLineMatcher implements LineMatcher {
  readonly #matchers: (BytesLineMatcher | CaseFoldingBytesLineMatcher)[];
  /** The literals' bytes, where case matters; else `undefined`. */
  readonly #needles: Buffer[] | undefined;
  /** For `countMatchingLines`: the literals, the one on most lines of the first block first. */
  #order: number[] | undefined;

  constructor(literals: readonly string[], options: AnyLiteralOptions = {}) {
    // A literal that holds another adds no line: only the shortest of such pairs is searched.
    const kept = literals.filter(
      (literal, index) =>
        !literals.some(
          (other, otherIndex) =>
            otherIndex !== index &&
            literal.includes(other) &&
            (other.length < literal.length || otherIndex < index),
        ),
    );
    this.#needles = options.ignoreCase
      ? undefined
      : kept.map((literal) => Buffer.from(literal, 'utf8'));
    this.#matchers = this.#needles
      ? this.#needles.map((needle) => new BytesLineMatcher(needle))
      : kept.map((literal) => new CaseFoldingBytesLineMatcher(literal));
  }

  matchingLines(block: Uint8Array): ArrayLike<number> {
    const lists = this.#matchers.map((matcher) => matcher.matchingLines(block));
    return lists.length === 1 ? (lists[0] as ArrayLike<number>) : mergeAscending(lists);
  }

  /**
   * How many lines hold any of the literals, without listing them where case matters: the
   * lines of the literal found on most lines of the first block are counted as
   * `BytesLineMatcher` counts them (no line located), and each other literal adds the lines
   * that hold none of those before it, searched for in that line alone. A line is located only
   * for those other literals' hits. With case folding, the lists are merged.
   */
  countMatchingLines(block: Uint8Array): number {
    const matchers = this.#matchers;
    const needles = this.#needles;
    if (matchers.length === 1) return (matchers[0] as BytesLineMatcher).countMatchingLines(block);
    if (!needles) return countUnion(matchers.map((matcher) => matcher.matchingLines(block)));
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    this.#order ??= mostLinesFirst(matchers as BytesLineMatcher[], bytes);
    const order = this.#order;
    let count = (matchers[order[0] as number] as BytesLineMatcher).countMatchingLines(bytes);
    for (let rank = 1; rank < order.length; rank++) {
      const matcher = matchers[order[rank] as number] as BytesLineMatcher;
      matcher.visitLines(bytes, (lineStart, _hit, lineEnd) => {
        // Searched within the line only: a literal rare in the block would be searched far.
        const line = bytes.subarray(lineStart, lineEnd);
        for (let earlier = 0; earlier < rank; earlier++) {
          if (line.includes(needles[order[earlier] as number] as Buffer)) return;
        }
        count++;
      });
    }
    return count;
  }

  async dispose(): Promise<void> {}
}

/** The matchers' indexes, the one matching the most lines of `block` first. */
function mostLinesFirst(matchers: readonly BytesLineMatcher[], block: Buffer): number[] {
  const sample = block.subarray(0, lastLineEnd(block, 64 * 1024));
  const lines = matchers.map((matcher) => matcher.countMatchingLines(sample));
  return matchers
    .map((_, index) => index)
    .sort((a, b) => (lines[b] as number) - (lines[a] as number));
}

/** The end of the last whole line within `limit` bytes of `block` (or all of a shorter one). */
function lastLineEnd(block: Buffer, limit: number): number {
  if (block.length <= limit) return block.length;
  return block.lastIndexOf(0x0a, limit - 1) + 1 || block.length;
}

/** The union of ascending lists, ascending, each value once. */
function mergeAscending(lists: readonly ArrayLike<number>[]): number[] {
  const merged: number[] = [];
  eachInUnion(lists, (value) => void merged.push(value));
  return merged;
}

/** How many values the union of ascending lists has. */
function countUnion(lists: readonly ArrayLike<number>[]): number {
  let count = 0;
  eachInUnion(lists, () => void count++);
  return count;
}

/** Calls `take` with each value of the union of ascending lists, ascending, once. */
function eachInUnion(lists: readonly ArrayLike<number>[], take: (value: number) => void): void {
  const positions = lists.map(() => 0);
  for (;;) {
    let smallest = Number.POSITIVE_INFINITY;
    for (let list = 0; list < lists.length; list++) {
      const current = lists[list] as ArrayLike<number>;
      const position = positions[list] as number;
      if (position < current.length && (current[position] as number) < smallest)
        smallest = current[position] as number;
    }
    if (smallest === Number.POSITIVE_INFINITY) return;
    take(smallest);
    for (let list = 0; list < lists.length; list++) {
      const current = lists[list] as ArrayLike<number>;
      if (current[positions[list] as number] === smallest)
        positions[list] = (positions[list] as number) + 1;
    }
  }
}
