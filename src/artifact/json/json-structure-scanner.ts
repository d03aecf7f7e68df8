import { decodeUtf8 } from '../decode-utf8.js';
import { ByteCapture } from './byte-capture.js';
import {
  backslash,
  closeBrace,
  closeBracket,
  colon,
  comma,
  indexOfQuote,
  isScalarByte,
  isWhitespace,
  openBrace,
  openBracket,
  plainStringEnd,
  quote,
  scalarType,
} from './json-bytes.js';
import type { JsonEntrySpan, JsonStructureScannerOptions, JsonType } from './json-scan-types.js';
import { JsonScanError } from './json-scan-types.js';

enum State {
  Before,
  Entry,
  Key,
  KeyString,
  Colon,
  MemberValue,
  Nested,
  StringValue,
  Scalar,
  AfterEntry,
  AfterRoot,
  ScalarRoot,
}

/**
 * A byte-level scan of a JSON document that finds the entries of its root array or object
 * without parsing them: strings are skipped with `indexOf`, nesting is counted, and only the
 * top level is checked for commas and colons (`JSON.parse` checks each entry when it is read).
 * It holds at most one captured entry, so a multi-GB document scans in flat memory.
 *
 * @example
 * ```ts
 * const scanner = new JsonStructureScanner({ onEntry: (entry) => void starts.push(entry.start) });
 * for await (const chunk of chunks) scanner.push(chunk, offset), (offset += chunk.length);
 * scanner.end(offset);
 * ```
 */
export class JsonStructureScanner {
  readonly #options: JsonStructureScannerOptions;
  #root: JsonType | undefined;
  #state: State;
  #depth = 0;
  #inString = false;
  #pendingEscape = false;
  #afterComma = false;
  #index: number;
  #entryStart = 0;
  #valueStart = 0;
  #key: string | undefined;
  readonly #keyCapture = new ByteCapture();
  readonly #capture: ByteCapture;
  #stopped = false;

  constructor(options: JsonStructureScannerOptions) {
    this.#options = options;
    this.#capture = new ByteCapture(options.maxCaptureBytes);
    this.#root = options.resume?.root;
    this.#index = options.resume?.index ?? 0;
    // A resume past the first entry comes just after a comma: a closing bracket there is an error.
    this.#afterComma = this.#index > 0;
    this.#state = options.resume
      ? options.resume.root === 'array'
        ? State.Entry
        : State.Key
      : State.Before;
  }

  /** The root's type, once its first byte has been seen. */
  get root(): JsonType | undefined {
    return this.#root;
  }

  /** How many entries have been seen (plus the resume index). */
  get entryCount(): number {
    return this.#index;
  }

  /** Scans the next chunk, which starts at byte `offset`; false once `onEntry` stopped it. */
  push(chunk: Uint8Array, offset: number): boolean {
    if (this.#stopped || this.#state === State.ScalarRoot) return false;
    const length = chunk.length;
    this.#keyCapture.chunkStarted();
    this.#capture.chunkStarted();
    let index = 0;
    if (this.#inString) index = this.#afterString(chunk, this.#skipString(chunk, 0), offset);
    while (index < length && !this.#stopped) {
      const byte = chunk[index] as number;
      switch (this.#state) {
        case State.Nested: {
          let depth = this.#depth;
          let inString = false;
          for (; index < length; index++) {
            const next = chunk[index] as number;
            if (next === quote) {
              // Most strings inside an entry are short and plain: skipped in this loop.
              const close = plainStringEnd(chunk, index + 1);
              if (close === -1) {
                inString = true;
                break;
              }
              index = close;
              continue;
            }
            if (next === openBrace || next === openBracket) depth++;
            else if (next === closeBrace || next === closeBracket) {
              if (--depth === 1) {
                index++;
                this.#endValue(chunk, offset, index);
                break;
              }
            }
          }
          this.#depth = depth;
          if (inString) {
            this.#inString = true;
            index = this.#afterString(chunk, this.#skipString(chunk, index + 1), offset);
          }
          continue;
        }
        case State.Scalar:
          while (index < length && isScalarByte(chunk[index] as number)) index++;
          if (index < length) this.#endValue(chunk, offset, index);
          continue;
      }
      if (
        isWhitespace(byte) ||
        (this.#state === State.Before && offset + index < 3 && byte > 0x7f)
      ) {
        index++; // whitespace between tokens, or a UTF-8 byte order mark before the root
        continue;
      }
      index = this.#token(chunk, offset, index, byte);
    }
    this.#keyCapture.chunkEnded(chunk);
    this.#capture.chunkEnded(chunk);
    return !this.#stopped;
  }

  /** Checks that the document is complete at `offset`, its length. */
  end(offset: number): void {
    if (this.#stopped || this.#state === State.AfterRoot || this.#state === State.ScalarRoot)
      return;
    const what = this.#state === State.Before ? 'The document is empty' : 'The document ends early';
    throw new JsonScanError(offset, `${what}: unexpected end of JSON input`);
  }

  /** A structural byte at the top level (outside any entry's nested value). */
  #token(chunk: Uint8Array, offset: number, index: number, byte: number): number {
    const fail = (message: string): never => {
      const found = String.fromCharCode(byte);
      throw new JsonScanError(offset + index, `${message}, found '${found}'`);
    };
    switch (this.#state) {
      case State.Before:
        if (byte === openBracket || byte === openBrace) {
          this.#root = byte === openBracket ? 'array' : 'object';
          this.#state = byte === openBracket ? State.Entry : State.Key;
          return index + 1;
        }
        this.#root = scalarType(byte) ?? fail('Expected a JSON value');
        this.#state = State.ScalarRoot;
        return chunk.length;
      case State.Entry:
        if (byte === closeBracket && !this.#afterComma) return this.#closeRoot(index);
        if (byte === comma || byte === closeBracket) fail('Expected an array element');
        this.#entryStart = offset + index;
        return this.#beginValue(chunk, offset, index, byte);
      case State.Key:
        if (byte === closeBrace && !this.#afterComma) return this.#closeRoot(index);
        if (byte !== quote) fail('Expected a property name in double quotes');
        this.#entryStart = offset + index;
        this.#state = State.KeyString;
        this.#inString = true;
        this.#keyCapture.start(index + 1);
        return this.#afterString(chunk, this.#skipString(chunk, index + 1), offset);
      case State.Colon:
        if (byte !== colon) fail("Expected ':' after a property name");
        this.#state = State.MemberValue;
        return index + 1;
      case State.MemberValue:
        if (byte === comma || byte === closeBrace || byte === closeBracket || byte === colon)
          fail('Expected a property value');
        return this.#beginValue(chunk, offset, index, byte);
      case State.AfterEntry: {
        const close = this.#root === 'array' ? closeBracket : closeBrace;
        if (byte === close) return this.#closeRoot(index);
        if (byte !== comma) {
          const after = this.#root === 'array' ? 'an array element' : 'a property value';
          fail(`Expected ',' or '${String.fromCharCode(close)}' after ${after}`);
        }
        this.#state = this.#root === 'array' ? State.Entry : State.Key;
        this.#afterComma = true;
        return index + 1;
      }
      default:
        return fail('Unexpected data after the JSON value');
    }
  }

  #closeRoot(index: number): number {
    this.#state = State.AfterRoot;
    return index + 1;
  }

  #beginValue(chunk: Uint8Array, offset: number, index: number, byte: number): number {
    this.#valueStart = offset + index;
    if (this.#options.capture?.(this.#index)) this.#capture.start(index);
    if (byte === openBrace || byte === openBracket) {
      this.#depth = 2;
      this.#state = State.Nested;
      return index + 1;
    }
    if (byte === quote) {
      this.#state = State.StringValue;
      this.#inString = true;
      return this.#afterString(chunk, this.#skipString(chunk, index + 1), offset);
    }
    if (!isScalarByte(byte)) {
      throw new JsonScanError(
        offset + index,
        `Expected a JSON value, found '${String.fromCharCode(byte)}'`,
      );
    }
    this.#state = State.Scalar;
    return index + 1;
  }

  /** Moves past `index` (just after a string or mid-chunk in one) to what follows the string. */
  #afterString(chunk: Uint8Array, index: number, offset: number): number {
    if (this.#inString) return index;
    if (this.#state === State.StringValue) this.#endValue(chunk, offset, index);
    else if (this.#state === State.KeyString) {
      const raw = decodeUtf8(this.#keyCapture.finish(chunk, index - 1) ?? new Uint8Array());
      try {
        this.#key = JSON.parse(`"${raw}"`) as string;
      } catch {
        throw new JsonScanError(this.#entryStart, 'Invalid property name');
      }
      this.#state = State.Colon;
    }
    return index;
  }

  /** Skips string bytes from `index`; returns the index after the closing quote, or the end. */
  #skipString(chunk: Uint8Array, index: number): number {
    let from = index;
    if (this.#pendingEscape) {
      this.#pendingEscape = false;
      from++;
    }
    for (;;) {
      const found = indexOfQuote(chunk, from);
      const stop = found === -1 ? chunk.length : found;
      let backslashes = 0;
      while (stop - backslashes - 1 >= from && chunk[stop - backslashes - 1] === backslash)
        backslashes++;
      if (found === -1) {
        this.#pendingEscape = backslashes % 2 === 1;
        return chunk.length;
      }
      if (backslashes % 2 === 0) {
        this.#inString = false;
        return found + 1;
      }
      from = found + 1;
    }
  }

  #endValue(chunk: Uint8Array, offset: number, end: number): void {
    const entry: JsonEntrySpan = {
      index: this.#index,
      start: this.#entryStart,
      valueStart: this.#valueStart,
      end: offset + end,
    };
    if (this.#root === 'object' && this.#key !== undefined) entry.key = this.#key;
    if (this.#capture.active) {
      const bytes = this.#capture.finish(chunk, end);
      if (bytes) entry.bytes = bytes;
      else entry.tooLarge = true;
    }
    this.#index++;
    this.#state = State.AfterEntry;
    this.#afterComma = false;
    if (this.#options.onEntry(entry) === false) this.#stopped = true;
  }
}
