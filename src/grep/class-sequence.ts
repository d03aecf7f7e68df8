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

const printableAscii = /^[\x20-\x7e]$/;
/** The characters that are regex syntax outside a class (escaped, they are literals). */
const syntax = '\\^$.|?*+()[]{}';
const digits = '0123456789';
const wordCharacters = `${digits}ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_`;

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
  const items: ClassItem[] = [];
  let at = 0;
  while (at < source.length) {
    const atom = readAtom(source, at);
    if (!atom) return undefined;
    const quantifier = readQuantifier(source, atom.end);
    if (!quantifier) return undefined;
    const { min, max, lazy } = quantifier;
    items.push({ members: atom.members, min, max, lazy });
    at = quantifier.end;
  }
  return items.length > 0 && greedyIsExact(items) ? items : undefined;
}

function membersOf(characters: string): Uint8Array {
  const members = new Uint8Array(256);
  for (const character of characters) members[character.charCodeAt(0)] = 1;
  return members;
}

function readAtom(source: string, at: number): { members: Uint8Array; end: number } | undefined {
  const character = source[at] as string;
  if (character === '[') return readClass(source, at + 1);
  if (character === '\\') {
    const escaped = source[at + 1] ?? '';
    if (escaped === 'd') return { members: membersOf(digits), end: at + 2 };
    if (escaped === 'w') return { members: membersOf(wordCharacters), end: at + 2 };
    // Escaped punctuation is itself; an escaped letter or digit is a class, a backreference
    // or an escape this does not take.
    if (printableAscii.test(escaped) && !/[A-Za-z0-9]/.test(escaped)) {
      return { members: membersOf(escaped), end: at + 2 };
    }
    return undefined;
  }
  if (!printableAscii.test(character) || syntax.includes(character)) return undefined;
  return { members: membersOf(character), end: at + 1 };
}

/** A class after its `[`: ASCII members, ranges and `\d` / `\w` / escaped punctuation. */
function readClass(source: string, start: number) {
  const members = new Uint8Array(256);
  let at = start;
  if (source[at] === '^') return undefined;
  let previous: number | undefined;
  while (at < source.length && (source[at] !== ']' || at === start)) {
    let code: number | undefined;
    const character = source[at] as string;
    if (character === '\\') {
      const escaped = source[at + 1] ?? '';
      if (escaped === 'd' || escaped === 'w') {
        for (const byte of escaped === 'd' ? digits : wordCharacters)
          members[byte.charCodeAt(0)] = 1;
        previous = undefined;
        at += 2;
        continue;
      }
      if (!printableAscii.test(escaped) || /[A-Za-z0-9]/.test(escaped)) return undefined;
      code = escaped.charCodeAt(0);
      at += 2;
    } else {
      if (!printableAscii.test(character)) return undefined;
      code = character.charCodeAt(0);
      at++;
    }
    // A range: the member before, `-`, and this one.
    if (code === 0x2d && previous !== undefined && source[at] !== ']' && at < source.length) {
      const last = source[at] as string;
      if (last === '\\' || !printableAscii.test(last)) return undefined;
      const end = last.charCodeAt(0);
      if (end < previous) return undefined;
      for (let byte = previous; byte <= end; byte++) members[byte] = 1;
      previous = undefined;
      at++;
      continue;
    }
    members[code] = 1;
    previous = code;
  }
  if (source[at] !== ']') return undefined;
  return { members, end: at + 1 };
}

function readQuantifier(source: string, at: number) {
  const character = source[at];
  let quantifier: { min: number; max: number; end: number; lazy: boolean };
  const lazy = false;
  if (character === '?') quantifier = { min: 0, max: 1, end: at + 1, lazy };
  else if (character === '*')
    quantifier = { min: 0, max: Number.POSITIVE_INFINITY, end: at + 1, lazy };
  else if (character === '+')
    quantifier = { min: 1, max: Number.POSITIVE_INFINITY, end: at + 1, lazy };
  else if (character === '{') {
    const braces = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(source.slice(at));
    if (!braces) return undefined;
    const min = Number(braces[1]);
    const max =
      braces[2] === undefined ? min : braces[3] ? Number(braces[3]) : Number.POSITIVE_INFINITY;
    if (max < min) return undefined;
    quantifier = { min, max, end: at + braces[0].length, lazy };
  } else return { min: 1, max: 1, end: at, lazy };
  // A lazy quantifier matches the lines the greedy one does; only a last item's extent differs.
  if (source[quantifier.end] === '?') {
    quantifier.end++;
    quantifier.lazy = true;
  }
  return quantifier;
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
