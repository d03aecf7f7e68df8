import { parseRegex, type RegexNode } from './regex-syntax.js';

/**
 * A Thompson automaton over bytes for a JavaScript regex (no `u` flag), made of:
 * - states that consume one byte of a set (`sets[state]`, 256 flags) and go on to `next`;
 * - states that go on to `next` and to `alternative` without consuming;
 * - `^` and `$` assertions, passable only at a line's start and end;
 * - the one `match` state.
 *
 * Only ASCII bytes are in any set. `nonAscii` tells whether the regex could match a non-ASCII
 * character (`.`, a negated class, `\s`, `\D`): then a byte past 0x7f cannot be decided byte
 * by byte, since the regex sees characters.
 */
export interface RegexNfa {
  kinds: Uint8Array;
  next: Int32Array;
  alternative: Int32Array;
  sets: (Uint8Array | undefined)[];
  start: number;
  match: number;
  nonAscii: boolean;
}

/** The kinds of {@link RegexNfa} states. */
export const nfaKind = { byte: 0, split: 1, lineStart: 2, lineEnd: 3, match: 4 } as const;

/** Past this many states an automaton is not built: counted repeats multiply their item. */
const maxStates = 4096;

/**
 * The automaton for `source` as a grep line is tested with it (flags `s` and, with
 * `ignoreCase`, `i`); `undefined` for a regex `parseRegex` does not take, or one whose counted
 * repeats would take more than a few thousand states.
 *
 * @example
 * ```ts
 * regexNfa('[0-9]+\\.[0-9]+', false)?.nonAscii; // false
 * regexNfa('(?<=a)b', false); // undefined
 * ```
 */
export function regexNfa(source: string, ignoreCase: boolean): RegexNfa | undefined {
  const tree = parseRegex(source, ignoreCase);
  return tree && new Builder().build(tree);
}

/** Thrown by the builder past `maxStates`. */
class TooManyStates extends Error {}

/** Builds states back to front: each node is compiled knowing the state that follows it. */
class Builder {
  readonly #kinds: number[] = [];
  readonly #next: number[] = [];
  readonly #alternative: number[] = [];
  readonly #sets: (Uint8Array | undefined)[] = [];
  #nonAscii = false;

  build(tree: RegexNode): RegexNfa | undefined {
    try {
      return this.#build(tree);
    } catch (error) {
      if (error instanceof TooManyStates) return undefined;
      throw error;
    }
  }

  #build(tree: RegexNode): RegexNfa {
    const match = this.#state(nfaKind.match, -1);
    const start = this.#compile(tree, match);
    return {
      kinds: Uint8Array.from(this.#kinds),
      next: Int32Array.from(this.#next),
      alternative: Int32Array.from(this.#alternative),
      sets: this.#sets,
      start,
      match,
      nonAscii: this.#nonAscii,
    };
  }

  #state(kind: number, next: number, alternative = -1, set?: Uint8Array): number {
    if (this.#kinds.length >= maxStates) throw new TooManyStates();
    this.#kinds.push(kind);
    this.#next.push(next);
    this.#alternative.push(alternative);
    this.#sets.push(set);
    return this.#kinds.length - 1;
  }

  #compile(node: RegexNode, next: number): number {
    switch (node.type) {
      case 'set':
        this.#nonAscii ||= node.nonAscii;
        return this.#state(nfaKind.byte, next, -1, node.set);
      case 'edge':
        return this.#state(node.at === 'start' ? nfaKind.lineStart : nfaKind.lineEnd, next);
      case 'sequence': {
        let state = next;
        for (let index = node.items.length - 1; index >= 0; index--) {
          state = this.#compile(node.items[index] as RegexNode, state);
        }
        return state;
      }
      case 'either': {
        let state = this.#compile(node.options.at(-1) as RegexNode, next);
        for (let index = node.options.length - 2; index >= 0; index--) {
          state = this.#state(
            nfaKind.split,
            this.#compile(node.options[index] as RegexNode, next),
            state,
          );
        }
        return state;
      }
      case 'repeat':
        return this.#repeat(node, next);
    }
  }

  /** `item{min,max}`: `min` copies, then a loop (`max` infinite) or nested optional copies. */
  #repeat(node: Extract<RegexNode, { type: 'repeat' }>, next: number): number {
    let tail: number;
    if (node.max === Number.POSITIVE_INFINITY) {
      tail = this.#state(nfaKind.split, -1, next);
      this.#next[tail] = this.#compile(node.item, tail);
    } else {
      tail = next;
      for (let copy = node.min; copy < node.max; copy++) {
        tail = this.#state(nfaKind.split, this.#compile(node.item, tail), next);
      }
    }
    for (let copy = 0; copy < node.min; copy++) tail = this.#compile(node.item, tail);
    return tail;
  }
}
