import { lineLocalRegex, matchesAsciiOnly } from './line-local-regex.js';

/**
 * Text is decoded a slice at a time: strings this small die young in V8's nursery, where a
 * whole 4 MiB block would land in large-object space and pile up until a full GC.
 */
const sliceBytes = 64 * 1024;

/**
 * How each regex is run over a slice, worked out once per regex: its line-local form (`null`:
 * none), and whether the slice may be decoded byte for byte (see `matchesAsciiOnly`).
 */
const slicePlans = new WeakMap<RegExp, { lineLocal: RegExp | null; latin1: boolean }>();

/**
 * The start offsets of the lines of `bytes` (whole lines) that `regex` matches, decoding a
 * slice at a time. A regex with a line-local form (see `lineLocalRegex`) is run over each
 * slice at once, jumping from a match to the next line; any other is tested line by line.
 * Shared by the regex worker and the in-thread matcher.
 *
 * @example
 * ```ts
 * const starts = regexMatchingLines(/ERROR \d+/s, block);
 * ```
 */
export function regexMatchingLines(regex: RegExp, bytes: Buffer): number[] {
  const starts: number[] = [];
  scanLines(regex, bytes, starts);
  return starts;
}

/**
 * How many lines of `bytes` (whole lines) `regex` matches: {@link regexMatchingLines} without
 * locating where they start.
 *
 * @example
 * ```ts
 * const count = regexCountLines(/ERROR \d+/s, block);
 * ```
 */
export function regexCountLines(regex: RegExp, bytes: Buffer): number {
  return scanLines(regex, bytes, undefined);
}

/** Counts the lines `regex` matches, their starts pushed to `starts` when it is given. */
function scanLines(regex: RegExp, bytes: Buffer, starts: number[] | undefined): number {
  let plan = slicePlans.get(regex);
  if (plan === undefined) {
    plan = { lineLocal: lineLocalRegex(regex) ?? null, latin1: matchesAsciiOnly(regex) };
    slicePlans.set(regex, plan);
  }
  const { lineLocal, latin1 } = plan;
  let count = 0;
  for (let sliceStart = 0; sliceStart < bytes.length; ) {
    const newlineAfter = bytes.indexOf(0x0a, Math.min(bytes.length, sliceStart + sliceBytes));
    const sliceEnd = newlineAfter === -1 ? bytes.length : newlineAfter + 1;
    const slice = new SliceLines(bytes, sliceStart, sliceEnd, latin1);
    count += lineLocal ? scanSlice(lineLocal, slice, starts) : testEachLine(regex, slice, starts);
    sliceStart = sliceEnd;
  }
  return count;
}

/**
 * A slice of whole lines decoded (as UTF-8, or byte for byte where the regex allows), and the
 * byte offset of a line from its offset in the text. Equal lengths mean one character per byte (ASCII, or single invalid bytes as U+FFFD), so
 * text positions are byte positions; otherwise the bytes' newlines are walked alongside: `\n`
 * is never part of a multi-byte sequence, so the k-th newline of each is the same.
 */
class SliceLines {
  readonly text: string;
  readonly #bytes: Buffer;
  readonly #start: number;
  readonly #oneToOne: boolean;
  #textLine = 0;
  #byteLine: number;

  constructor(bytes: Buffer, start: number, end: number, latin1: boolean) {
    this.text = bytes.toString(latin1 ? 'latin1' : 'utf8', start, end);
    this.#bytes = bytes;
    this.#start = start;
    this.#byteLine = start;
    this.#oneToOne = this.text.length === end - start;
  }

  /** The byte offset of the line starting at `textLine`, ascending from call to call. */
  byteOffset(textLine: number): number {
    if (this.#oneToOne) return this.#start + textLine;
    while (this.#textLine < textLine) {
      this.#textLine = this.text.indexOf('\n', this.#textLine) + 1;
      this.#byteLine = this.#bytes.indexOf(0x0a, this.#byteLine) + 1;
    }
    return this.#byteLine;
  }
}

function testEachLine(regex: RegExp, slice: SliceLines, starts: number[] | undefined): number {
  const { text } = slice;
  let count = 0;
  for (let lineStart = 0; lineStart < text.length; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (regex.test(text.slice(lineStart, lineEnd))) {
      count++;
      starts?.push(slice.byteOffset(lineStart));
    }
    lineStart = lineEnd + 1;
  }
  return count;
}

/**
 * Runs a line-local `g` regex over the slice: each match selects its line, then the next. The
 * match's end (`test` allocates no match) tells the line: no match holds a newline, so it ends
 * inside its line or, empty, at its line's newline.
 */
function scanSlice(regex: RegExp, slice: SliceLines, starts: number[] | undefined): number {
  const { text } = slice;
  let count = 0;
  let from = 0;
  regex.lastIndex = 0;
  while (regex.test(text)) {
    const end = regex.lastIndex;
    // An empty match after the last newline is in no line.
    if (end === text.length && (end === 0 || text.charCodeAt(end - 1) === 0x0a)) break;
    // Most often the match is in the line the search started at: no walk back to its start.
    let lineEnd = text.indexOf('\n', from);
    let lineStart = from;
    if (lineEnd !== -1 && lineEnd < end) {
      lineStart = text.lastIndexOf('\n', end - 1) + 1;
      lineEnd = text.indexOf('\n', end);
    }
    count++;
    starts?.push(slice.byteOffset(lineStart));
    if (lineEnd === -1) break;
    from = lineEnd + 1;
    regex.lastIndex = from;
  }
  return count;
}
