import { parseRegex } from './regex-syntax.js';

/**
 * One position of a {@link classSequence}: the ASCII bytes it accepts (`members[byte] === 1`)
 * and how many of them in a row, `min` to `max` (`Infinity` for `+`, `*`, `{n,}`), as few as
 * it may (`lazy`, `+?`) or as many.
 */
export interface ClassItem {
  members: Uint8Array;
  min: number;
  max: number;
  lazy: boolean;
}

/**
 * A regex that is nothing but ASCII literals and ASCII classes (`[0-9a-f]`, `\d`, `\w`), each
 * with an optional quantifier (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`, lazy or not), as
 * {@link ClassItem}s in order; `undefined` for any other regex (`.`, groups, alternation,
 * anchors, `\b`, `\s`, negated classes, non-ASCII) and for one where a variable-length item is
 * followed by an item that may be empty or may begin with a byte the variable one accepts: then
 * a greedy walk from a literal could miss a match that backtracking finds. On such a sequence a
 * walk outwards from any occurrence of one of its literals decides whether a match runs through
 * it, with no regex engine: JavaScript's `\d` and `\w` are ASCII without the `u` flag, and
 * ASCII bytes are the same characters whatever the bytes around them.
 *
 * @example
 * ```ts
 * classSequence('took [0-9]{2}ms')?.length; // 8: t, o, o, k, space, [0-9]{2}, m, s
 * classSequence('took [0-9]+[0-9]ms'); // undefined: [0-9]+ would have to give a digit back
 * ```
 */
export function classSequence(source: string): ClassItem[] | undefined {
  // `parseRegex` reads a group as a nested sequence, so a flat sequence has none.
  const tree = parseRegex(source, false);
  if (tree?.type !== 'sequence') return undefined;
  const items: ClassItem[] = [];
  for (const node of tree.items) {
    const { item, min, max, lazy } =
      node.type === 'repeat' ? node : { item: node, min: 1, max: 1, lazy: false };
    // A set that may match a non-ASCII character cannot be decided byte by byte.
    if (item.type !== 'set' || item.nonAscii) return undefined;
    items.push({ members: item.set, min, max, lazy });
  }
  return items.length > 0 && greedyIsExact(items) ? items : undefined;
}

/**
 * Whether a greedy walk decides the sequence in both directions: each variable item is the
 * last one, or its neighbour (on either side, as walks go both ways from a literal) is
 * never empty and shares no byte with it.
 */
function greedyIsExact(items: readonly ClassItem[]): boolean {
  return items.every((item, index) => {
    if (item.min === item.max) return true;
    return [items[index - 1], items[index + 1]].every(
      (neighbour) =>
        neighbour === undefined ||
        (neighbour.min >= 1 &&
          !neighbour.members.some((member, byte) => member && item.members[byte])),
    );
  });
}
