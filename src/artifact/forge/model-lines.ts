import { formatBytes } from '../../shared/format-bytes.js';
/**
 * Bounds on everything a model is shown — a forged tool's answer, a tool message or a long
 * paste in a projected conversation: at most `maxResultBytes` per result and `maxLineChars`
 * per line, each cut with a note saying so.
 */
export interface ResultLimits {
  /** UTF-8 bytes a result keeps in all. Default 50 KiB. */
  maxResultBytes?: number;
  /** Characters (UTF-16 units) a line keeps. Default 2,000. */
  maxLineChars?: number;
}

/** The defaults: 50 KiB a result, 2,000 characters a line. */
export const defaultResultLimits = { maxResultBytes: 50 * 1024, maxLineChars: 2_000 } as const;

/** Room kept for the closing note, so a cut result with its note stays within the budget. */
const noteReserve = 1_024;

/**
 * The one place where the API's 0-based line numbers become the 1-based ones a model sees
 * (the way `grep -n`, `sed -n 'A,Bp'` and editors count).
 *
 * @example
 * ```ts
 * toModelLine(0); // 1
 * ```
 */
export function toModelLine(lineNumber: number): number {
  return lineNumber + 1;
}

/**
 * A model's 1-based inclusive range `[first, last]` as the API's 0-based half-open one.
 *
 * @example
 * ```ts
 * fromModelRange(10, 20); // { start: 9, end: 20 }
 * ```
 */
export function fromModelRange(first: number, last: number): { start: number; end: number } {
  return { start: first - 1, end: last };
}

/**
 * A model's 1-based line number as the API's 0-based one.
 *
 * @example
 * ```ts
 * fromModelLine(1); // 0
 * ```
 */
export function fromModelLine(line: number): number {
  return line - 1;
}

/**
 * Builds a bounded, numbered result: each line as `N:text` (or `N-text` for context, as
 * `grep -n` prints it), long lines cut with a note, and the whole cut at `maxResultBytes`.
 * `add` returns false once a line no longer fits; the caller then names the continuing call.
 *
 * @example
 * ```ts
 * const text = new BoundedText(limits);
 * for (const line of lines) if (!text.add(line.lineNumber, line.text)) break;
 * text.note(`[cut: continue with artifact_read {"callId":"call_1","start":${next}}]`);
 * ```
 */
export class BoundedText {
  readonly #maxBytes: number;
  readonly #maxLineChars: number;
  readonly #parts: string[] = [];
  #bytes = 0;
  #lastLine: number | undefined;

  constructor(limits: ResultLimits = {}) {
    this.#maxBytes = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
    this.#maxLineChars = limits.maxLineChars ?? defaultResultLimits.maxLineChars;
  }

  /** The most characters shown of one line. */
  get maxLineChars(): number {
    return this.#maxLineChars;
  }

  /** The 0-based number of the last line shown, if any. */
  get lastLine(): number | undefined {
    return this.#lastLine;
  }

  /** Appends a numbered line; false (and nothing added) when it would pass the byte budget. */
  add(lineNumber: number, text: string, marker: ':' | '-' = ':', known: LineCut = {}): boolean {
    const prefix = `${toModelLine(lineNumber)}${marker}`;
    let added = this.#append(`${prefix}${cutLine(text, this.#maxLineChars, known)}\n`);
    if (!added && this.#lastLine === undefined) {
      // The first line always shows, cut to what fits (3 bytes a character at most), or a
      // continuation would name the very call that was cut.
      const room = Math.max(this.#maxBytes - noteReserve, this.#maxBytes / 2) - this.#bytes;
      const chars = Math.floor((room - Buffer.byteLength(prefix) - 100) / 3);
      added = chars > 0 && this.#append(`${prefix}${cutLine(text, chars, known)}\n`, room);
    }
    if (added) this.#lastLine = lineNumber;
    return added;
  }

  /** Appends a line without a number (a header, `--`); false when it would not fit. */
  addText(text: string): boolean {
    return this.#append(`${text}\n`);
  }

  /** Appends a closing note (up to 1 KiB: room for it is kept free by `add`). */
  note(text: string): void {
    this.#parts.push(`${text}\n`);
  }

  toString(): string {
    return this.#parts.join('');
  }

  #append(text: string, room = this.#maxBytes - noteReserve - this.#bytes): boolean {
    const bytes = Buffer.byteLength(text);
    if (bytes > room) return false;
    this.#bytes += bytes;
    this.#parts.push(text);
    return true;
  }
}

/**
 * What {@link cutLine} knows of a line beyond its text.
 */
export interface LineCut {
  /** The whole line's length in bytes, when the text is only its start (a line read in part). */
  lineBytes?: number;
  /** A character to show (a match deep in a long line): the cut is a window around it. */
  focus?: number;
}

/**
 * A line as a model is shown it: whole, or `maxChars` characters of it (never half a
 * surrogate pair) and a note of what was shown — its start, or a window around `focus`.
 *
 * @example
 * ```ts
 * cutLine('x'.repeat(5000), 2000); // 'xx…x… [line cut: 2000 of 5000 chars]'
 * ```
 */
export function cutLine(text: string, maxChars: number, known: LineCut = {}): string {
  const { lineBytes, focus = 0 } = known;
  if (text.length <= maxChars && lineBytes === undefined) return text;
  // A window starts a quarter of its width before the focus, so the match has context.
  let start = Math.max(0, Math.min(focus - Math.floor(maxChars / 4), text.length - maxChars));
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  let end = Math.min(text.length, start + maxChars);
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;
  const shown = text.slice(start, end);
  if (start > 0) {
    const more = end < text.length ? '…' : '';
    return `…${shown}${more} [line cut: chars ${number(start + 1)}–${number(end)} of ${number(text.length)}]`;
  }
  if (lineBytes !== undefined) {
    return `${shown}… [line cut: ${end} chars of a ${formatBytes(lineBytes)} line; artifact_grep shows the text around a match]`;
  }
  return `${shown}… [line cut: ${end} of ${text.length} chars]`;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The first `count` UTF-16 units of `text`, one fewer rather than half a surrogate pair.
 *
 * @example
 * ```ts
 * headChars('a😀', 2); // 'a'
 * ```
 */
export function headChars(text: string, count: number): string {
  if (text.length <= count) return text;
  return text.slice(0, isLowSurrogate(text.charCodeAt(count)) ? count - 1 : count);
}
const number = (value: number) => value.toLocaleString('en-US');

/**
 * The exact call that continues a cut result, as a model would write it.
 *
 * @example
 * ```ts
 * continueWith('artifact_read', { callId: 'call_1', start: 813, end: 2000 });
 * // 'artifact_read {"callId":"call_1","start":813,"end":2000}'
 * ```
 */
export function continueWith(toolName: string, args: Record<string, unknown>): string {
  const defined = Object.fromEntries(Object.entries(args).filter(([, value]) => value != null));
  return `${toolName} ${JSON.stringify(defined)}`;
}
