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
