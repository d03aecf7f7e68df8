import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpillSink } from './spill-sink.js';

/** Where a {@link JsonStringDecoder} puts the bytes it decodes: a spill, or a digest of them. */
export type DecodedBytesSink = Pick<SpillSink, 'append' | 'appendLatin1' | 'appendByte'>;

const backslash = 0x5c;
const unicodeEscape = Buffer.from('\\u');
/** Below this a piece is not worth a `JSON.parse`. */
const fastMinimum = 256;
const replacement = [0xef, 0xbf, 0xbd];
/** The byte each one-letter JSON escape stands for (`\u` is handled apart). */
const simpleEscapes = new Map<number, number>([
  [0x22, 0x22], // \"
  [0x5c, 0x5c], // \\
  [0x2f, 0x2f], // \/
  [0x62, 0x08], // \b
  [0x66, 0x0c], // \f
  [0x6e, 0x0a], // \n
  [0x72, 0x0d], // \r
  [0x74, 0x09], // \t
]);

enum State {
  Plain,
  Escape,
  Hex,
}

/**
 * Decodes the raw bytes of a JSON string's content (between its quotes), fed in pieces split
 * anywhere, into UTF-8 in a {@link SpillSink} (or any {@link DecodedBytesSink}): the result is
 * the bytes of what `JSON.parse` gives, UTF-8 encoded. Runs of raw bytes are found with `indexOf` and copied whole (invalid
 * UTF-8 is kept byte for byte); `\uXXXX` pairs become one 4-byte character, and a lone
 * surrogate becomes U+FFFD as `Buffer.from` would write it.
 *
 * @example
 * ```ts
 * const decoder = new JsonStringDecoder(sink);
 * decoder.write(Buffer.from('tab\\t smile \\uD83D'));
 * decoder.write(Buffer.from('\\uDE00'));
 * decoder.end(); // the sink got 'tab\t smile 😀'
 * ```
 */
export class JsonStringDecoder {
  readonly #sink: DecodedBytesSink;
  #state = State.Plain;
  #hex = 0;
  #hexDigits = 0;
  /** A high surrogate waiting for its low half, or -1. */
  #high = -1;
  #buffer: Buffer | undefined;
  /** The next backslash in the buffer last written (its length: none), searched once per run. */
  #backslashAt = -1;

  constructor(sink: DecodedBytesSink) {
    this.#sink = sink;
  }

  /** Decodes a piece of the raw content. Throws `E_MCP_MALFORMED` for an invalid escape. */
  write(bytes: Buffer, start = 0, end = bytes.length): void {
    let index = start;
    if (this.#state !== State.Plain) {
      // An escape left open by the previous piece ends within its next 5 bytes.
      index = Math.min(end, index + 5);
      this.#slow(bytes, start, index);
    }
    if (this.#state === State.Plain && this.#fast(bytes, index, end)) return;
    this.#slow(bytes, index, end);
  }

  /**
   * Decodes a piece without `\u` escapes through `JSON.parse`, which is many times faster on
   * escape-dense text: read as latin1 (one character a byte) and written back as latin1, raw
   * bytes come out as they went in, valid UTF-8 or not. False when it does not apply.
   */
  #fast(bytes: Buffer, start: number, end: number): boolean {
    if (end - start < fastMinimum) return false;
    let trailing = 0;
    while (bytes[end - 1 - trailing] === backslash && end - 1 - trailing >= start) trailing += 1;
    const stop = end - (trailing % 2);
    const block = bytes.subarray(start, stop);
    // No escape at all: the slow path's one copy beats a parse.
    if (block.indexOf(backslash) === -1 || block.indexOf(unicodeEscape) !== -1) return false;
    let text: string;
    try {
      text = JSON.parse(`"${block.toString('latin1')}"`) as string;
    } catch {
      return false; // a raw control character, which JSON.parse refuses and the slow path keeps
    }
    this.#dropHigh();
    this.#sink.appendLatin1(text);
    this.#slow(bytes, stop, end);
    return true;
  }

  #slow(bytes: Buffer, start: number, end: number): void {
    if (bytes !== this.#buffer) {
      this.#buffer = bytes;
      this.#backslashAt = -1;
    }
    let index = start;
    while (index < end) {
      if (this.#state === State.Plain) {
        if (this.#backslashAt < index) {
          const found = bytes.indexOf(backslash, index);
          this.#backslashAt = found === -1 ? bytes.length : found;
        }
        const stop = Math.min(this.#backslashAt, end);
        if (stop > index) {
          this.#dropHigh();
          this.#sink.append(bytes, index, stop);
        }
        if (stop === end) return;
        this.#state = State.Escape;
        index = stop + 1;
      } else if (this.#state === State.Escape) {
        index = this.#escape(bytes[index] as number, index);
      } else {
        this.#hexDigit(bytes[index] as number);
        index += 1;
      }
    }
  }

  /** Ends the content. Throws `E_MCP_MALFORMED` if it stopped inside an escape. */
  end(): void {
    if (this.#state !== State.Plain) throw malformed('a string ends inside an escape');
    this.#dropHigh();
  }

  #escape(byte: number, index: number): number {
    if (byte === 0x75) {
      this.#state = State.Hex;
      this.#hex = 0;
      this.#hexDigits = 0;
      return index + 1;
    }
    const decoded = simpleEscapes.get(byte);
    if (decoded === undefined) throw malformed(`invalid escape \\${String.fromCharCode(byte)}`);
    this.#dropHigh();
    this.#sink.appendByte(decoded);
    this.#state = State.Plain;
    return index + 1;
  }

  #hexDigit(byte: number): void {
    const digit = hexValue(byte);
    if (digit < 0)
      throw malformed(`invalid \\u escape digit ${JSON.stringify(String.fromCharCode(byte))}`);
    this.#hex = this.#hex * 16 + digit;
    this.#hexDigits += 1;
    if (this.#hexDigits < 4) return;
    this.#state = State.Plain;
    this.#codeUnit(this.#hex);
  }

  #codeUnit(unit: number): void {
    if (this.#high >= 0 && unit >= 0xdc00 && unit <= 0xdfff) {
      this.#appendCodePoint(0x10000 + ((this.#high - 0xd800) << 10) + (unit - 0xdc00));
      this.#high = -1;
      return;
    }
    this.#dropHigh();
    if (unit >= 0xd800 && unit <= 0xdbff) this.#high = unit;
    else if (unit >= 0xdc00 && unit <= 0xdfff) this.#appendReplacement();
    else this.#appendCodePoint(unit);
  }

  /** A high surrogate not followed by its low half stands alone: U+FFFD. */
  #dropHigh(): void {
    if (this.#high < 0) return;
    this.#high = -1;
    this.#appendReplacement();
  }

  #appendReplacement(): void {
    for (const byte of replacement) this.#sink.appendByte(byte);
  }

  #appendCodePoint(point: number): void {
    const sink = this.#sink;
    if (point < 0x80) {
      sink.appendByte(point);
    } else if (point < 0x800) {
      sink.appendByte(0xc0 | (point >> 6));
      sink.appendByte(0x80 | (point & 0x3f));
    } else if (point < 0x10000) {
      sink.appendByte(0xe0 | (point >> 12));
      sink.appendByte(0x80 | ((point >> 6) & 0x3f));
      sink.appendByte(0x80 | (point & 0x3f));
    } else {
      sink.appendByte(0xf0 | (point >> 18));
      sink.appendByte(0x80 | ((point >> 12) & 0x3f));
      sink.appendByte(0x80 | ((point >> 6) & 0x3f));
      sink.appendByte(0x80 | (point & 0x3f));
    }
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

function malformed(reason: string): SpoolforgeError {
  return new SpoolforgeError(
    'E_MCP_MALFORMED',
    `Malformed JSON string from the upstream: ${reason}`,
  );
}
