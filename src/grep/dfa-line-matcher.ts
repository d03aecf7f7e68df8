import {
  dfaTable,
  type SimdKernels,
  searchOut,
  searchWindow,
  simdKernels,
} from '../spool/simd-kernels.js';
import { dfaRow, type LineDfa, lineDfa } from './line-dfa.js';
import type { LineMatcher } from './line-matcher.js';
import { regexNfa } from './regex-nfa.js';

const rowBytes = 256 * 4;
/** How `patternRegex` wraps a `-w` pattern: a lookbehind and a lookahead for a word byte. */
const wordEdges = { before: '(?<![A-Za-z0-9_])(?:', after: ')(?![A-Za-z0-9_])' };

/**
 * A regex that selects the lines `source` does, without the lookarounds of `-w`: a line holds
 * a match of `(?<!w)X` exactly where it holds one of `(?:^|[^w])X`, and so for the lookahead.
 */
function automatonSource(source: string): string {
  const { before, after } = wordEdges;
  if (!source.startsWith(before) || !source.endsWith(after)) return source;
  const inner = source.slice(before.length, -after.length);
  return `(?:^|[^A-Za-z0-9_])(?:${inner})(?:[^A-Za-z0-9_]|$)`;
}
/** Which automaton's rows the kernels' memory holds on this thread: loaded again on a change. */
let loaded: Int32Array | undefined;

/**
 * Finds the lines a regex matches with a deterministic automaton (see `lineDfa`) walked by
 * the `dfa` kernel of src/spool/simd-kernels.wat: one table lookup per byte, no decoding, no
 * regex engine and no worker, and no pattern can make it backtrack. A line holding a byte past
 * 0x7f where the regex could match a non-ASCII character goes to the regex itself. Blocks in
 * the kernels' memory are walked where they lie; others are copied in 1 MiB at a time.
 *
 * @example
 * ```ts
 * const matcher = DfaLineMatcher.create(/[0-9]+\.[0-9]+:[0-9]+/s);
 * const count = matcher?.countMatchingLines(Buffer.from('10.0.0.1:80\nnone\n')); // 1
 * ```
 */
export class DfaLineMatcher implements LineMatcher {
  readonly #kernels: SimdKernels;
  readonly #dfa: LineDfa;
  /** The rows as the kernel reads them: each entry the next row's address. */
  readonly #rows: Int32Array;
  readonly #regex: RegExp;

  /** Where the idle row is (-1: none), and whether bytes past 0x7f leave it (-1) or not (0). */
  readonly #idle: number;
  readonly #high: number;

  private constructor(kernels: SimdKernels, dfa: LineDfa, regex: RegExp) {
    this.#kernels = kernels;
    this.#dfa = dfa;
    this.#rows = dfa.table.map((row) => dfaTable.offset + row * rowBytes);
    // The match row's entries are never read: its first 32 bytes say which bytes leave idle.
    const classes = new Uint8Array(this.#rows.buffer, 0, 32);
    classes.fill(0);
    const { idle } = dfa;
    this.#idle = idle === undefined ? -1 : dfaTable.offset + idle * rowBytes;
    this.#high = 0;
    if (idle !== undefined) {
      const leaves = (byte: number) => dfa.table[idle * 256 + byte] !== idle;
      for (let byte = 0; byte < 0x80; byte++) {
        if (leaves(byte)) classes[byte & 15] = (classes[byte & 15] as number) | (1 << (byte >> 4));
      }
      for (let high = 0; high < 8; high++) classes[16 + high] = 1 << high;
      this.#high = leaves(0x80) ? -1 : 0;
    }
    this.#regex = regex;
  }

  /**
   * The matcher for `regex` (as `patternRegex` builds it: flag `s`, maybe `i`); `undefined`
   * for a regex `regexNfa` does not take, an automaton past the table, or without the kernels.
   */
  static create(regex: RegExp): DfaLineMatcher | undefined {
    const kernels = simdKernels();
    if (!kernels?.grown || regex.flags.replace(/[si]/g, '') !== '') return undefined;
    const nfa = regexNfa(automatonSource(regex.source), regex.ignoreCase);
    const dfa = nfa && lineDfa(nfa, dfaTable.length / rowBytes);
    return dfa && new DfaLineMatcher(kernels, dfa, regex);
  }

  matchingLines(block: Uint8Array): number[] {
    const starts: number[] = [];
    this.#walk(block, starts);
    return starts;
  }

  /** How many lines of `block` match, without listing them (`grep -c`). */
  countMatchingLines(block: Uint8Array): number {
    return this.#walk(block, undefined);
  }

  async dispose(): Promise<void> {}

  /** Counts the matching lines of `block`, their starts pushed to `starts` when given. */
  #walk(block: Uint8Array, starts: number[] | undefined): number {
    const kernels = this.#kernels;
    if (loaded !== this.#rows) {
      kernels.words.set(this.#rows, dfaTable.offset >> 2);
      loaded = this.#rows;
    }
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    if (bytes.length === 0) return 0;
    const lineStart = dfaTable.offset + this.#dfa.lineStart * rowBytes;
    let row = lineStart;
    let count = 0;
    const inPlace = block.buffer === kernels.memory;
    for (let piece = 0; piece < bytes.length; ) {
      // Where byte 0 of the block is in the memory, and the piece's end in the block.
      const origin = inPlace ? block.byteOffset : searchWindow.offset - piece;
      const pieceEnd = inPlace ? bytes.length : Math.min(bytes.length, piece + searchWindow.length);
      if (!inPlace) kernels.bytes.set(bytes.subarray(piece, pieceEnd), searchWindow.offset);
      for (let at = origin + piece; at < origin + pieceEnd; at = kernels.resume.value) {
        const lines = kernels.dfa(
          dfaTable.offset,
          lineStart,
          this.#idle,
          this.#high,
          row,
          at,
          origin + pieceEnd,
          searchOut.offset,
          searchOut.lines,
        );
        row = kernels.row.value;
        const first = searchOut.offset >> 2;
        for (let index = 0; index < lines; index++) {
          const word = first + index * 3;
          let start = (kernels.words[word] as number) - origin;
          // A line that began in an earlier piece: the kernel saw only this piece.
          if (start === piece && piece > 0 && bytes[piece - 1] !== 0x0a) {
            start = bytes.lastIndexOf(0x0a, piece - 1) + 1;
          }
          if (kernels.words[word + 1] === 1 && !this.#regexMatches(bytes, start)) continue;
          count++;
          starts?.push(start);
        }
      }
      piece = pieceEnd;
    }
    // A last line without its `\n` matches where one would end a match.
    if (bytes[bytes.length - 1] !== 0x0a) {
      const index = (row - dfaTable.offset) / rowBytes;
      if (index >= dfaRow.first && this.#dfa.table[index * 256 + 0x0a] === dfaRow.match) {
        count++;
        starts?.push(bytes.lastIndexOf(0x0a, bytes.length - 1) + 1);
      }
    }
    return count;
  }

  /** The regex's answer for the line at `start`, which holds non-ASCII bytes. */
  #regexMatches(bytes: Buffer, start: number): boolean {
    const newline = bytes.indexOf(0x0a, start);
    return this.#regex.test(bytes.toString('utf8', start, newline === -1 ? bytes.length : newline));
  }
}
