import { nfaKind, type RegexNfa } from './regex-nfa.js';

/**
 * A deterministic automaton that tells, byte by byte, whether a line holds a match of a
 * {@link RegexNfa} that may start anywhere in it: `table[row * 256 + byte]` is the row after
 * `byte`. Three rows end a line's walk:
 * - `match`: the line matches;
 * - `unsure`: a non-ASCII byte the regex reads as part of a character (see `RegexNfa.nonAscii`),
 *   so the line goes to the regex;
 * - `dead`: no match can start later in the line (a regex anchored at `^`).
 *
 * A `\n` leads to `match` where a match may end at the line's end (`$`), else to `lineStart`.
 */
export interface LineDfa {
  table: Int32Array;
  rows: number;
  lineStart: number;
  /**
   * The row where no match is under way: a match may start at the next byte, and most bytes
   * lead back here (`undefined` for a regex anchored at `^`). The same row as `lineStart`
   * where the regex has no `^`.
   */
  idle: number | undefined;
}

/** The rows that end a line's walk, before the ordinary ones. */
export const dfaRow = { match: 0, unsure: 1, dead: 2, first: 3 } as const;

/** A default bound on rows: 1 MiB of table as i32s. */
const defaultMaxRows = 1024;
/**
 * A bound on the NFA states the construction visits (under 100 ms): a pattern that would take
 * longer to build (thousands of states, dozens of byte classes) is left to the regex.
 */
const maxVisits = 1_000_000;

/** Thrown past `maxVisits`. */
class TooCostly extends Error {}

/**
 * Builds the {@link LineDfa} of `nfa` by subset construction over the bytes' classes (bytes no
 * set tells apart share their rows' work); `undefined` past `maxRows` rows, and for a regex
 * that matches every line (an empty match at a line's start).
 *
 * @example
 * ```ts
 * const nfa = regexNfa('[0-9]+ms', false);
 * const dfa = nfa && lineDfa(nfa); // 5 rows: the three that end a walk, then two
 * ```
 */
export function lineDfa(nfa: RegexNfa, maxRows = defaultMaxRows): LineDfa | undefined {
  return new SubsetConstruction(nfa, maxRows).build();
}

class SubsetConstruction {
  readonly #nfa: RegexNfa;
  readonly #maxRows: number;
  /** Each row's NFA states: those that consume a byte, `$` assertions, sorted. */
  readonly #rowStates: number[][] = [[], [], []];
  readonly #rowsByKey = new Map<string, number>();
  /** Stamps of the closure walk in progress, by NFA state. */
  readonly #seen: Int32Array;
  #stamp = 0;
  #visits = 0;

  constructor(nfa: RegexNfa, maxRows: number) {
    this.#nfa = nfa;
    this.#maxRows = maxRows;
    this.#seen = new Int32Array(nfa.kinds.length);
  }

  build(): LineDfa | undefined {
    try {
      return this.#build();
    } catch (error) {
      if (error instanceof TooCostly) return undefined;
      throw error;
    }
  }

  #build(): LineDfa | undefined {
    const nfa = this.#nfa;
    const atLineStart = this.#closure([nfa.start], true);
    if (atLineStart.match) return undefined;
    const idleStates = this.#closure([nfa.start], false).states;
    const idleKey = idleStates.join(',');
    const startKey = atLineStart.states.join(',');
    const lineStart = this.#row(
      startKey === idleKey ? idleKey : `^${startKey}`,
      atLineStart.states,
    );
    const idle = idleStates.length === 0 ? dfaRow.dead : this.#row(idleKey, idleStates);
    if (lineStart === undefined || idle === undefined) return undefined;
    const { classOf, representatives } = byteClasses(nfa);
    const tables: Int32Array[] = [];
    for (let row = dfaRow.first; row < this.#rowStates.length; row++) {
      const states = this.#rowStates[row] as number[];
      const byClass = new Int32Array(representatives.length);
      for (let kind = 0; kind < representatives.length; kind++) {
        const byte = representatives[kind] as number;
        let next: number | undefined;
        if (byte === 0x0a) {
          next = this.#endsMatch(states, row === lineStart) ? dfaRow.match : lineStart;
        } else if (byte >= 0x80 && nfa.nonAscii) next = dfaRow.unsure;
        else next = this.#step(states, byte);
        if (next === undefined) return undefined;
        byClass[kind] = next;
      }
      const entries = new Int32Array(256);
      for (let byte = 0; byte < 256; byte++) {
        entries[byte] = byClass[classOf[byte] as number] as number;
      }
      tables.push(entries);
    }
    const rows = this.#rowStates.length;
    const table = new Int32Array(rows * 256);
    for (let row = 0; row < dfaRow.first; row++) table.fill(row, row * 256, row * 256 + 256);
    tables.forEach((entries, index) => {
      table.set(entries, (dfaRow.first + index) * 256);
    });
    return { table, rows, lineStart, idle: idle === dfaRow.dead ? undefined : idle };
  }

  /** The row after `byte` from `states`, a match starting at every byte as well. */
  #step(states: readonly number[], byte: number): number | undefined {
    const { kinds, next, sets, start } = this.#nfa;
    const seeds = [start];
    for (const state of states) {
      if (kinds[state] === nfaKind.byte && (sets[state] as Uint8Array)[byte]) {
        seeds.push(next[state] as number);
      }
    }
    const after = this.#closure(seeds, false);
    if (after.match) return dfaRow.match;
    if (after.states.length === 0) return dfaRow.dead;
    return this.#row(after.states.join(','), after.states);
  }

  #row(key: string, states: number[]): number | undefined {
    const known = this.#rowsByKey.get(key);
    if (known !== undefined) return known;
    if (this.#rowStates.length >= this.#maxRows) return undefined;
    this.#rowStates.push(states);
    this.#rowsByKey.set(key, this.#rowStates.length - 1);
    return this.#rowStates.length - 1;
  }

  /** The states reached from `seeds` without consuming a byte; `^` passes only at a line's start. */
  #closure(seeds: readonly number[], atLineStart: boolean): { states: number[]; match: boolean } {
    const { kinds, next, alternative } = this.#nfa;
    const seen = this.#seen;
    const stamp = ++this.#stamp;
    const states: number[] = [];
    const stack = [...seeds];
    let match = false;
    while (stack.length > 0) {
      const state = stack.pop() as number;
      if (++this.#visits > maxVisits) throw new TooCostly();
      if (seen[state] === stamp) continue;
      seen[state] = stamp;
      const kind = kinds[state];
      if (kind === nfaKind.match) match = true;
      else if (kind === nfaKind.byte || kind === nfaKind.lineEnd) states.push(state);
      else if (kind === nfaKind.split)
        stack.push(alternative[state] as number, next[state] as number);
      else if (atLineStart) stack.push(next[state] as number);
    }
    states.sort((a, b) => a - b);
    return { states, match };
  }

  /** Whether a match ends at the line's end: a `$` of `states` leads to the match state. */
  #endsMatch(states: readonly number[], atLineStart: boolean): boolean {
    const { kinds, next, alternative } = this.#nfa;
    const seen = this.#seen;
    const stamp = ++this.#stamp;
    const stack = states.filter((state) => kinds[state] === nfaKind.lineEnd);
    while (stack.length > 0) {
      const state = stack.pop() as number;
      if (seen[state] === stamp) continue;
      seen[state] = stamp;
      const kind = kinds[state];
      if (kind === nfaKind.match) return true;
      if (kind === nfaKind.split) stack.push(alternative[state] as number, next[state] as number);
      else if (kind === nfaKind.lineEnd || (kind === nfaKind.lineStart && atLineStart)) {
        stack.push(next[state] as number);
      }
    }
    return false;
  }
}

/**
 * Bytes no set of `nfa` tells apart, `\n` and (for a regex that reads non-ASCII characters)
 * bytes past 0x7f kept apart: each byte's class and one byte of each class.
 */
function byteClasses(nfa: RegexNfa): { classOf: Uint8Array; representatives: number[] } {
  const signatures = new Map<string, number>();
  const classOf = new Uint8Array(256);
  const representatives: number[] = [];
  const sets = nfa.sets.filter((set): set is Uint8Array => set !== undefined);
  for (let byte = 0; byte < 256; byte++) {
    let signature = byte === 0x0a ? 'n' : byte >= 0x80 ? 'h' : 'a';
    for (const set of sets) signature += set[byte] ? '1' : '0';
    let kind = signatures.get(signature);
    if (kind === undefined) {
      kind = representatives.length;
      signatures.set(signature, kind);
      representatives.push(byte);
    }
    classOf[byte] = kind;
  }
  return { classOf, representatives };
}
