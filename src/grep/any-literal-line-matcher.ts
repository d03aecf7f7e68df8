import { BytesLineMatcher, CaseFoldingBytesLineMatcher, type LineMatcher } from './line-matcher.js';

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
  /** Per literal, an array of line starts reused by `countMatchingLines`. */
  readonly #kept: Int32Array[] = [];

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
    this.#matchers = kept.map((literal) =>
      options.ignoreCase
        ? new CaseFoldingBytesLineMatcher(literal)
        : new BytesLineMatcher(Buffer.from(literal, 'utf8')),
    );
  }

  matchingLines(block: Uint8Array): number[] {
    const lists = this.#matchers.map((matcher) => matcher.matchingLines(block));
    return lists.length === 1 ? (lists[0] as number[]) : mergeAscending(lists);
  }

  /**
   * How many lines hold any of the literals: each literal's line starts go into an array kept
   * from block to block (a new list per literal and block was most of `grep -c` of a dense
   * alternation: its garbage collection alone took a sixth of the time), then the lists are
   * merged counting, not building.
   */
  countMatchingLines(block: Uint8Array): number {
    const matchers = this.#matchers;
    if (matchers.length === 1) return (matchers[0] as BytesLineMatcher).countMatchingLines(block);
    const lists = matchers.map((matcher, index) => this.#startsOf(matcher, index, block));
    return countUnion(lists);
  }

  /** The starts of the lines of `block` that `matcher` matches, in the `index`th kept array. */
  #startsOf(
    matcher: BytesLineMatcher | CaseFoldingBytesLineMatcher,
    index: number,
    block: Uint8Array,
  ): ArrayLike<number> {
    if (matcher instanceof CaseFoldingBytesLineMatcher) return matcher.matchingLines(block);
    let kept = this.#kept[index] ?? new Int32Array(1024);
    let length = 0;
    matcher.visitLines(block, (lineStart) => {
      if (length === kept.length) {
        const grown = new Int32Array(kept.length * 2);
        grown.set(kept);
        kept = grown;
      }
      kept[length++] = lineStart;
    });
    this.#kept[index] = kept;
    return kept.subarray(0, length);
  }

  async dispose(): Promise<void> {}
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
