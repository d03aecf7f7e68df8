import { decodeUtf8 } from '../decode-utf8.js';

/**
 * Where UTF-8 text can be cut without changing its token count under `o200k_base` and
 * `cl100k_base`: positions where both encodings' split patterns start a new piece, whatever
 * follows. Counting the two sides apart then gives the whole text's count.
 */

/** BPE merging is quadratic in a piece's length (a 100 KB run of `=` takes 15 s to count). */
const maxUnbrokenBytes = 512;
const newline = 0x0a;
const space = 0x20;
const apostrophe = 0x27;
const slash = 0x2f;

/** Classes of ASCII bytes; every byte of a non-ASCII character is `other`. */
const other = 0;
const letter = 1;
const digit = 2;
const whitespace = 3;
const punctuation = 4;
const byteClasses = new Uint8Array(256);
for (let byte = 0; byte < 0x80; byte++) {
  const character = String.fromCharCode(byte);
  if (/[A-Za-z]/.test(character)) byteClasses[byte] = letter;
  else if (/[0-9]/.test(character)) byteClasses[byte] = digit;
  else if (/[\t\n\v\f\r ]/.test(character)) byteClasses[byte] = whitespace;
  // An apostrophe may start a contraction suffix (`'s`), so it never ends a letter run.
  else if (byte > space && byte < 0x7f && byte !== apostrophe) byteClasses[byte] = punctuation;
  else byteClasses[byte] = other;
}

/** Code points above ASCII that JavaScript's `\s` (and so both split patterns) call whitespace. */
const unicodeWhitespace = new Set([
  0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/**
 * The last line end in `bytes` after which a new piece starts; 0 if none (carry the bytes on),
 * unless `force`: then the last line end, or the last character boundary. Line ends before the
 * last one in the first `searchedBytes` were settled by an earlier call and are skipped.
 *
 * @example
 * ```ts
 * const cut = lastLineBoundary(bytes, 0, false);
 * tokens += countTokens(decodeUtf8(bytes.subarray(0, cut)));
 * ```
 */
export function lastLineBoundary(bytes: Uint8Array, searchedBytes: number, force: boolean): number {
  const lowest = searchedBytes > 0 ? Math.max(0, bytes.lastIndexOf(newline, searchedBytes - 1)) : 0;
  for (let position = bytes.length - 1; position >= lowest; position--) {
    position = bytes.lastIndexOf(newline, position);
    if (position < lowest) break;
    if (startsPieceAfterNewline(bytes, position + 1)) return position + 1;
  }
  if (!force) return 0;
  const lastNewline = bytes.lastIndexOf(newline);
  return lastNewline >= 0 ? lastNewline + 1 : characterStart(bytes, bytes.length - 1);
}

/**
 * Counts `bytes` with `count`, exactly, except that a stretch of over 512 bytes with no piece
 * boundary (a run of `=`, blank lines, emoji) is cut anyway, which may move the count by a
 * token or so, so that no pathological run stalls the tokenizer.
 *
 * @example
 * ```ts
 * const tokens = countInBoundedPieces(bytes, (text) => countTokens(text));
 * ```
 */
export function countInBoundedPieces(bytes: Uint8Array, count: (text: string) => number): number {
  let tokens = 0;
  let segmentStart = 0;
  let lastBoundary = 0;
  for (let position = 1; position < bytes.length; position++) {
    if (isPieceBoundary(bytes, position)) {
      lastBoundary = position;
    } else if (
      position - lastBoundary >= maxUnbrokenBytes &&
      !isContinuationByte(bytes[position] as number)
    ) {
      tokens += count(decodeUtf8(bytes.subarray(segmentStart, position)));
      segmentStart = position;
      lastBoundary = position;
    }
  }
  return tokens + count(decodeUtf8(bytes.subarray(segmentStart)));
}

/**
 * In both split patterns a piece ends: after a letter run, before whitespace or punctuation
 * (not an apostrophe); at either side of a digit run; before a space
 * after a non-ASCII character that is not whitespace; and after a line break (see below). The
 * left side never ends in other whitespace, which `\s+$` and `\s+(?!\S)` would read differently.
 */
function isPieceBoundary(bytes: Uint8Array, position: number): boolean {
  const before = bytes[position - 1] as number;
  const after = bytes[position] as number;
  if (before === newline) return startsPieceAfterNewline(bytes, position);
  const beforeClass = byteClasses[before];
  const afterClass = byteClasses[after];
  if (beforeClass === letter) {
    return afterClass === whitespace || afterClass === punctuation;
  }
  if (beforeClass === digit) return after < 0x80 && afterClass !== digit;
  if (afterClass === digit) {
    return before < 0x80 && beforeClass !== whitespace;
  }
  return after === space && before >= 0x80 && !endsInUnicodeWhitespace(bytes, position);
}

/**
 * True after a `\n` whose run of spaces and tabs reaches a visible ASCII character. A piece
 * holding `\n` goes on only into more whitespace (through its last line break) or, right after
 * punctuation, into `/` (o200k); neither happens here.
 */
function startsPieceAfterNewline(bytes: Uint8Array, position: number): boolean {
  let index = position;
  while (bytes[index] === space || bytes[index] === 0x09) index++;
  const byte = bytes[index];
  if (byte === undefined || byte <= space || byte >= 0x7f) return false;
  return index > position || byte !== slash;
}

/** Whether the character ending at `end` is Unicode whitespace (U+00A0, U+3000, …). */
function endsInUnicodeWhitespace(bytes: Uint8Array, end: number): boolean {
  const start = characterStart(bytes, end - 1);
  const lead = bytes[start] as number;
  const length = end - start;
  let codePoint = lead & (length === 2 ? 0x1f : length === 3 ? 0x0f : 0x07);
  for (let index = start + 1; index < end; index++) {
    codePoint = (codePoint << 6) | ((bytes[index] as number) & 0x3f);
  }
  return unicodeWhitespace.has(codePoint);
}

/** The start of the UTF-8 character holding `bytes[position]` (or `position` if invalid). */
function characterStart(bytes: Uint8Array, position: number): number {
  let start = position;
  while (start > 0 && position - start < 3 && isContinuationByte(bytes[start] as number)) start--;
  return isContinuationByte(bytes[start] as number) ? position : start;
}

function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}
