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

  async dispose(): Promise<void> {}
}

/** The union of ascending lists, ascending, each value once. */
function mergeAscending(lists: readonly number[][]): number[] {
  const merged: number[] = [];
  const positions = lists.map(() => 0);
  for (;;) {
    let smallest = Number.POSITIVE_INFINITY;
    for (let list = 0; list < lists.length; list++) {
      const value = (lists[list] as number[])[positions[list] as number];
      if (value !== undefined && value < smallest) smallest = value;
    }
    if (smallest === Number.POSITIVE_INFINITY) return merged;
    merged.push(smallest);
    for (let list = 0; list < lists.length; list++) {
      if ((lists[list] as number[])[positions[list] as number] === smallest)
        positions[list] = (positions[list] as number) + 1;
    }
  }
}
