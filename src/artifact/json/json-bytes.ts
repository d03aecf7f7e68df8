import { decodeUtf8 } from '../decode-utf8.js';
import type { JsonType } from './json-scan-types.js';

// The bytes JSON's structure is made of.
export const quote = 0x22;
export const backslash = 0x5c;
export const openBrace = 0x7b;
export const closeBrace = 0x7d;
export const openBracket = 0x5b;
export const closeBracket = 0x5d;
export const comma = 0x2c;
export const colon = 0x3a;

export const isWhitespace = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
export const isScalarByte = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) ||
  (byte >= 0x61 && byte <= 0x7a) ||
  (byte >= 0x41 && byte <= 0x5a) ||
  byte === 0x2d ||
  byte === 0x2b ||
  byte === 0x2e;

/** The type a root scalar's first byte announces. */
export function scalarType(byte: number): JsonType | undefined {
  if (byte === quote) return 'string';
  if (byte === 0x74 || byte === 0x66) return 'boolean';
  if (byte === 0x6e) return 'null';
  if (byte === 0x2d || (byte >= 0x30 && byte <= 0x39)) return 'number';
  return undefined;
}

/** Node's own latin1 reading, which takes any Uint8Array (untyped: an internal of Buffer). */
const { latin1Slice } = Buffer.prototype as unknown as {
  latin1Slice(this: Uint8Array, start: number, end: number): string;
};

/**
 * `bytes[start, end)` read as latin1 for JSON.parse, which is fastest on one-byte strings: the
 * same JSON as their UTF-8 reading, its keys and strings holding UTF-8 bytes as characters (the
 * reader decodes those it keeps). Undefined when a `\u00XX` escape would then read like such a
 * byte: those bytes are decoded as UTF-8 instead.
 *
 * @example
 * ```ts
 * const record = new TextEncoder().encode('{"id":1}');
 * JSON.parse(latin1JsonText(record, 0, record.length) ?? new TextDecoder().decode(record)); // { id: 1 }
 * ```
 */
export function latin1JsonText(bytes: Uint8Array, start: number, end: number): string | undefined {
  const text = latin1Slice.call(bytes, start, end);
  return text.includes('\\u00') ? undefined : text;
}

/**
 * `bytes[start, end)` decoded as UTF-8 (invalid sequences as U+FFFD); ASCII bytes are read
 * straight as latin1, which spares the decoder's call.
 *
 * @example
 * ```ts
 * const block = new TextEncoder().encode('{"a":1}\n{"a":"é"}\n');
 * JSON.parse(utf8JsonText(block, 8, block.length - 1)); // { a: 'é' }
 * ```
 */
export function utf8JsonText(bytes: Uint8Array, start: number, end: number): string {
  for (let index = start; index < end; index++)
    if ((bytes[index] as number) >= 0x80) return decodeUtf8(bytes.subarray(start, end));
  return latin1Slice.call(bytes, start, end);
}

/**
 * The index of the next `"` from `from`, or -1: most strings (keys, short values) end within a
 * few bytes, where a loop beats a call into `indexOf` per string.
 */
export function indexOfQuote(chunk: Uint8Array, from: number): number {
  const near = Math.min(from + 32, chunk.length);
  for (let index = from; index < near; index++) if (chunk[index] === quote) return index;
  return near < chunk.length ? chunk.indexOf(quote, near) : -1;
}

/**
 * The index of the quote that closes a string starting at `from`, when it comes within 64 bytes
 * and without a backslash; else -1, for {@link JsonStructureScanner}'s general string skip.
 */
export function plainStringEnd(chunk: Uint8Array, from: number): number {
  const near = Math.min(from + 64, chunk.length);
  for (let index = from; index < near; index++) {
    const byte = chunk[index] as number;
    if (byte === quote) return index;
    if (byte === backslash) return -1;
  }
  return -1;
}
