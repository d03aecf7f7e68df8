import { throwIfAborted } from '../../shared/spoolforge-error.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import type { EntryOffset } from './array-span-batches.js';
import { checkpointStride } from './index-json-entries.js';
import { IndexedJsonDocument } from './indexed-json-document.js';
import {
  closeBrace,
  closeBracket,
  comma,
  isWhitespace,
  latin1JsonText,
  openBrace,
  openBracket,
  quote,
  utf8JsonText,
} from './json-bytes.js';
import type { JsonEntry } from './json-document.js';
import type { JsonEntrySpan } from './json-scan-types.js';
import { JsonScanError } from './json-scan-types.js';
import { JsonStructureScanner } from './json-structure-scanner.js';
import { PacedReader } from './paced-reader.js';

/** Bytes read at a time; a span is at most half of it. */
const blockSize = 1024 * 1024;
/** How far the root's `[` may be looked for (whitespace and a byte order mark before it). */
const rootSearchBytes = 4096;

/** The bytes seen between two top-level entries (`},\n{`), and where their comma is. */
interface Separator {
  bytes: Buffer;
  comma: number;
}

/**
 * Opens a large JSON array while parsing it, for a first query that reads every entry
 * (`shape()`): one read of the bytes both parses them a span at a time and indexes them, where
 * opening first and parsing after reads and walks them twice. A span ends at a comma past the
 * checkpoint stride: found by the separator the scan saw between two entries (`},\n{`), else by
 * the structure scan, and `[` + span + `]` parses only when that comma is at the top level (a
 * comma inside an entry or a string leaves a bracket or the string open), so a parsed span is
 * whole entries and its start a checkpoint. At the first span that does not parse, an entry too
 * large for a span, or the array's end, {@link IndexedJsonDocument.open} indexes the rest from
 * there and its entries come from that document, with its exact errors.
 *
 * Measured on a 256 MiB array of 1.07 M records (2-core EPYC, shared): `shape()` end to end
 * takes 2.1–2.4 s of CPU against 3.1–3.5 s opening first (1.97 s at best, 130 MiB/s);
 * `JSON.parse` is two thirds of it. Spans of 32 KiB cost the same, of 128 KiB 4 s.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const open = await SpanParsingOpen.start(reader, { byteLength, maxEntryBytes: 16 << 20 });
 * for await (const batch of open?.batches() ?? []) count += batch.length;
 * const document = await open?.finish();
 * ```
 */
export class SpanParsingOpen {
  /** The document, once {@link SpanParsingOpen.finish} has indexed what the spans did not. */
  readonly document: Promise<IndexedJsonDocument>;
  readonly #reader: SpoolReader;
  readonly #byteLength: number;
  readonly #maxEntryBytes: number;
  readonly #signal: AbortSignal | undefined;
  /** Every entry of a parsed span is at most this long, so none is past `maxEntryBytes`. */
  readonly #maxSpan: number;
  readonly #stride: number;
  readonly #checkpoints: EntryOffset[] = [];
  #index = 0;
  /** Just after the root's `[` or the last parsed span's comma. */
  #next: number;
  #settle: ((document: Promise<IndexedJsonDocument>) => void) | undefined;

  private constructor(
    reader: SpoolReader,
    options: { byteLength: number; maxEntryBytes: number; signal?: AbortSignal | undefined },
    next: number,
  ) {
    this.#reader = reader;
    this.#byteLength = options.byteLength;
    this.#maxEntryBytes = options.maxEntryBytes;
    this.#signal = options.signal;
    this.#maxSpan = Math.min(options.maxEntryBytes, blockSize / 2);
    this.#stride = Math.min(checkpointStride, Math.ceil(this.#maxSpan / 4));
    this.#next = next;
    this.document = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  /** Starts on the reader's bytes `[0, byteLength)` when they are an array; else undefined. */
  static async start(
    reader: SpoolReader,
    options: { byteLength: number; maxEntryBytes: number; signal?: AbortSignal | undefined },
  ): Promise<SpanParsingOpen | undefined> {
    const { signal } = options;
    const head = await reader.read(
      0,
      Math.min(options.byteLength, rootSearchBytes),
      signal ? { signal } : {},
    );
    let at = 0;
    // As the structure scan reads the root: whitespace, or a byte order mark, before it.
    while (
      at < head.length &&
      (isWhitespace(head[at] as number) || (at < 3 && (head[at] as number) > 0x7f))
    )
      at++;
    return head[at] === openBracket ? new SpanParsingOpen(reader, options, at + 1) : undefined;
  }

  /**
   * Every entry, in order, parsed a span at a time with `latin1` set as {@link
   * EntryRange.latin1} describes; entries too large to parse come with `large` set.
   */
  async *batches(): AsyncGenerator<JsonEntry[]> {
    const signal = this.#signal;
    // One buffer, recycled, that the reader's bytes are copied into: the bytes before and at a
    // span's ends are overwritten with `[` and `]`.
    const buffer = Buffer.allocUnsafeSlow(blockSize + this.#maxSpan + 1);
    let bufferStart = this.#next - 1;
    let filled = 0;
    let ended = false;
    let separator: Separator | undefined;
    let spans = 0;
    let missed = 0;
    const reads = new PacedReader(this.#reader, { limit: this.#byteLength, signal });
    for (;;) {
      const span = this.#next - bufferStart;
      if (!ended && filled - span <= this.#maxSpan) {
        // The unparsed rest moves to the front, with the byte before it; then a block is read.
        buffer.copyWithin(0, span - 1, filled);
        bufferStart += span - 1;
        filled -= span - 1;
        const bytesRead = await reads.readInto(buffer.subarray(filled), bufferStart + filled);
        filled += bytesRead;
        ended = bytesRead === 0 || bufferStart + filled >= this.#byteLength;
        continue;
      }
      throwIfAborted(signal);
      const limit = Math.min(filled, span + this.#maxSpan);
      let entry = span;
      while (entry < limit && isWhitespace(buffer[entry] as number)) entry++;
      let parsed: ParsedSpan | undefined;
      let cut = -1;
      // A guess that misses costs a parse: after a few misses, only the scan finds the ends.
      if (separator && missed <= 2 + spans / 16) {
        const found = buffer.subarray(0, limit).indexOf(separator.bytes, entry + this.#stride);
        cut = found === -1 ? -1 : found + separator.comma;
        parsed = cut === -1 ? undefined : parseSpan(buffer, span, cut);
        if (cut !== -1 && !parsed) missed++;
      }
      if (!parsed) {
        const scanned = this.#scanToCut(buffer, bufferStart, entry, limit);
        if (!scanned) break;
        cut = scanned.cut;
        separator = scanned.separator ?? separator;
        parsed = parseSpan(buffer, span, cut);
        if (!parsed?.values.length) break;
      }
      const { values, latin1 } = parsed;
      spans++;
      const index = this.#index;
      this.#checkpoints.push({ index, offset: bufferStart + entry });
      this.#index += values.length;
      this.#next = bufferStart + cut + 1;
      const batch: JsonEntry[] = new Array(values.length);
      for (let position = 0; position < values.length; position++)
        batch[position] = { index: index + position, value: values[position], latin1 };
      yield batch;
    }
    const document = await this.finish();
    yield* document.batches({
      start: this.#index,
      large: true,
      latin1: true,
      ...(signal ? { signal } : {}),
    });
  }

  /** The document: the spans parsed so far are indexed, the rest is scanned from there. */
  finish(): Promise<IndexedJsonDocument> {
    const settle = this.#settle;
    if (settle) {
      this.#settle = undefined;
      settle(
        IndexedJsonDocument.open(this.#reader, {
          byteLength: this.#byteLength,
          maxEntryBytes: this.#maxEntryBytes,
          resume: { checkpoints: this.#checkpoints, index: this.#index, offset: this.#next },
          ...(this.#signal ? { signal: this.#signal } : {}),
        }),
      );
    }
    return this.document;
  }

  /**
   * The comma after the first entry that ends a stride past `entry`, by the structure scan of
   * `buffer[entry, limit)`, and the separator before that entry; undefined where the scan finds
   * none (the array's end, an entry too large for a span, or an error the open will report).
   */
  #scanToCut(buffer: Buffer, bufferStart: number, entry: number, limit: number) {
    const from = bufferStart + entry;
    let previous: JsonEntrySpan | undefined;
    let last: JsonEntrySpan | undefined;
    const scanner = new JsonStructureScanner({
      resume: { root: 'array', index: this.#index },
      onEntry: (span) => {
        previous = last;
        last = span;
        return span.end - from < this.#stride;
      },
    });
    try {
      if (scanner.push(buffer.subarray(entry, limit), from) || !last) return undefined;
    } catch (error) {
      if (error instanceof JsonScanError) return undefined;
      throw error;
    }
    let cut = last.end - bufferStart;
    while (cut < limit && isWhitespace(buffer[cut] as number)) cut++;
    if (cut >= limit || buffer[cut] !== comma) return undefined;
    return { cut, separator: previous && separatorBetween(buffer, bufferStart, previous, last) };
  }
}

/** The bytes from `previous`'s closing bracket or quote to `next`'s opening one, if they have them. */
function separatorBetween(
  buffer: Buffer,
  bufferStart: number,
  previous: JsonEntrySpan,
  next: JsonEntrySpan,
): Separator {
  const closing = buffer[previous.end - bufferStart - 1] as number;
  const opening = buffer[next.start - bufferStart] as number;
  const from =
    previous.end -
    bufferStart -
    (closing === closeBrace || closing === closeBracket || closing === quote ? 1 : 0);
  const to =
    next.start -
    bufferStart +
    (opening === openBrace || opening === openBracket || opening === quote ? 1 : 0);
  const bytes = Buffer.from(buffer.subarray(from, to));
  return { bytes, comma: bytes.indexOf(comma) };
}

/** A span's entries, and whether they were parsed from their bytes read as latin1. */
interface ParsedSpan {
  values: unknown[];
  latin1: boolean;
}

/**
 * The entries of `buffer[span, cut)` (whole entries and the commas between them when `cut` is
 * a top-level comma), parsed as one array by writing `[` before them and `]` over the comma;
 * undefined when they do not parse.
 */
function parseSpan(buffer: Buffer, span: number, cut: number): ParsedSpan | undefined {
  buffer[span - 1] = openBracket;
  buffer[cut] = closeBracket;
  try {
    const text = latin1JsonText(buffer, span - 1, cut + 1);
    const values = JSON.parse(text ?? utf8JsonText(buffer, span - 1, cut + 1)) as unknown[];
    return { values, latin1: text !== undefined };
  } catch {
    return undefined;
  } finally {
    buffer[cut] = comma;
  }
}
