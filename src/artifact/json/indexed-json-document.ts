import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { decodeUtf8 } from '../decode-utf8.js';
import { arraySpanBatches, type EntryOffset, lastAtOrBefore } from './array-span-batches.js';
import {
  type IndexJsonEntriesOptions,
  indexJsonEntries,
  type JsonEntryIndex,
  type LargeEntry,
} from './index-json-entries.js';
import { invalidJsonAt, problemIn } from './invalid-json.js';
import { latin1JsonText, scalarType } from './json-bytes.js';
import type {
  EntryRange,
  JsonCounts,
  JsonDocument,
  JsonEntry,
  LargeJsonEntry,
} from './json-document.js';
import { entryPath, largeEntryError } from './json-document.js';
import type { JsonScanStart, JsonType } from './json-scan-types.js';
import { JsonStructureScanner } from './json-structure-scanner.js';

/**
 * A JSON document too large to parse whole: one scan finds its root's entries and keeps a byte
 * offset every 64 KiB (16 K numbers per GiB), so any entry is reached by reading at most 64 KiB
 * before it, and each entry is parsed only when a query reaches it.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const document = await IndexedJsonDocument.open(reader, { byteLength, maxEntryBytes: 16 << 20 });
 * for await (const entry of document.entries({ start: 1_000_000, end: 1_000_010 })) console.log(entry);
 * ```
 */
export class IndexedJsonDocument implements JsonDocument {
  readonly format = 'json';
  readonly mode = 'indexed';
  readonly rootType: JsonType;
  readonly entryCount: number;
  readonly #reader: SpoolReader;
  readonly #byteLength: number;
  readonly #checkpoints: EntryOffset[];
  readonly #maxEntryBytes: number;
  readonly #large: LargeEntry[];
  /** Where the last entry's value ends: the checkpoints' last span ends there. */
  readonly #lastEntryEnd: number;
  readonly #children = new Map<number, Promise<IndexedJsonDocument | undefined>>();

  private constructor(reader: SpoolReader, fields: JsonEntryIndex, maxEntryBytes: number) {
    this.#reader = reader;
    this.rootType = fields.rootType;
    this.entryCount = fields.entryCount;
    this.#byteLength = fields.byteLength;
    this.#checkpoints = fields.checkpoints.length
      ? fields.checkpoints
      : [{ index: 0, offset: fields.start }];
    this.#large = fields.large;
    this.#lastEntryEnd = fields.lastEntryEnd;
    this.#maxEntryBytes = maxEntryBytes;
  }

  /**
   * Scans the reader's bytes `[start, byteLength)` (default from 0) as one JSON value, or with
   * `resume` the rest of a root array from `resume.offset` (see {@link indexJsonEntries}); a
   * structural error is `E_INVALID_JSON`.
   */
  static async open(
    reader: SpoolReader,
    options: IndexJsonEntriesOptions,
  ): Promise<IndexedJsonDocument> {
    const fields = await indexJsonEntries(reader, options);
    return new IndexedJsonDocument(reader, fields, options.maxEntryBytes);
  }

  /**
   * The entry named by `segment` (a key of an object root, an index of an array root) as a
   * document of its own, when it is an array or object too large to parse: `{"items":[…]}`,
   * the usual shape of a large API response, is then queried element by element.
   */
  child(segment: string): Promise<IndexedJsonDocument | undefined> {
    const entry = this.#large.find((candidate) =>
      this.rootType === 'object' ? candidate.key === segment : String(candidate.index) === segment,
    );
    if (!entry) return Promise.resolve(undefined);
    let child = this.#children.get(entry.index);
    if (!child) {
      // Shared by concurrent queries, so opened without any one caller's signal: one caller's
      // abort must not fail the others. A failed read is tried again by the next query.
      child = this.#openChild(entry);
      this.#children.set(entry.index, child);
      child.catch(() => this.#children.delete(entry.index));
    }
    return child;
  }

  async #openChild(entry: LargeEntry) {
    const type = await this.#typeAt(entry.valueStart);
    if (type !== 'array' && type !== 'object') return undefined; // a huge string or number
    return IndexedJsonDocument.open(this.#reader, {
      start: entry.valueStart,
      byteLength: entry.end,
      maxEntryBytes: this.#maxEntryBytes,
    });
  }

  async #typeAt(valueStart: number): Promise<JsonType> {
    const [first = 0] = await this.#reader.read(valueStart, 1);
    if (first === 0x5b) return 'array';
    return first === 0x7b ? 'object' : (scalarType(first) ?? 'null');
  }

  counts(): Promise<JsonCounts> {
    return Promise.resolve({ entryCount: this.entryCount, indexLimit: this.entryCount });
  }

  async *entries(options: EntryRange = {}): AsyncIterable<JsonEntry> {
    for await (const batch of this.batches(options)) yield* batch;
  }

  /**
   * The entries, parsed a span of entries at a time where an array's entries all parse (see
   * {@link arraySpanBatches}), else, and from the first span that does not parse, as the scan
   * of each chunk read reaches them.
   */
  async *batches(options: EntryRange = {}): AsyncIterable<JsonEntry[]> {
    let start = Math.max(0, options.start ?? 0);
    const end = Math.min(options.end ?? this.entryCount, this.entryCount);
    const root = this.rootType;
    if (start >= end || (root !== 'array' && root !== 'object')) return;
    const hasLarge = this.#large.some((entry) => entry.index >= start && entry.index < end);
    if (root === 'array' && !hasLarge) {
      const offsets = [
        ...this.#checkpoints,
        { index: this.entryCount, offset: this.#lastEntryEnd },
      ];
      const spans = arraySpanBatches(this.#reader, offsets, {
        start,
        end,
        ...(options.latin1 ? { latin1: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const failedAt = yield* spans;
      if (failedAt === undefined) return;
      start = Math.max(start, failedAt);
    }
    yield* this.#scannedBatches(root, start, end, options);
  }

  /** The entries `[start, end)` scanned from each chunk read, parsed as the scan reaches them. */
  async *#scannedBatches(
    root: JsonScanStart['root'],
    start: number,
    end: number,
    options: EntryRange,
  ): AsyncIterable<JsonEntry[]> {
    // Never empty: a document without entries has one checkpoint at its start.
    const checkpoint = this.#checkpoints[lastAtOrBefore(this.#checkpoints, start)] as EntryOffset;
    const resume: JsonScanStart = { root, index: checkpoint.index };
    const ready: JsonEntry[] = [];
    let failure: { text: string; valueStart: number } | undefined;
    const maxBytes = this.#maxEntryBytes;
    const latin1 = options.latin1 === true;
    const largeStarts = new Map<LargeJsonEntry, number>();
    const scanner = new JsonStructureScanner({
      resume,
      capture: (index) => index >= start && index < end,
      maxCaptureBytes: this.#maxEntryBytes,
      onEntry: (span) => {
        if (span.index >= end) return false;
        if (span.index < start) return true;
        if (span.tooLarge) {
          // Its type is read from its first byte once the chunk is scanned.
          const large = { type: 'null' as JsonType, bytes: span.end - span.valueStart, maxBytes };
          const entry: JsonEntry = { index: span.index, value: undefined, large };
          if (span.key !== undefined) entry.key = span.key;
          ready.push(entry);
          largeStarts.set(large, span.valueStart);
          return true;
        }
        const bytes = span.bytes as Uint8Array;
        const text = latin1 ? latin1JsonText(bytes, 0, bytes.length) : undefined;
        try {
          const value = JSON.parse(text ?? decodeUtf8(bytes));
          const entry: JsonEntry = latin1
            ? { index: span.index, value, latin1: text !== undefined }
            : { index: span.index, value };
          if (span.key !== undefined) entry.key = span.key;
          ready.push(entry);
          return true;
        } catch {
          failure = { text: decodeUtf8(bytes), valueStart: span.valueStart };
          return false;
        }
      },
    });
    const chunks = readerChunks(this.#reader, {
      start: checkpoint.offset,
      end: this.#byteLength,
      reuseBuffers: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let offset = checkpoint.offset;
    for await (const chunk of chunks) {
      const more = scanner.push(chunk, offset);
      offset += chunk.length;
      const batch = ready.splice(0);
      for (const [position, entry] of batch.entries()) {
        if (!entry.large) continue;
        entry.large.type = await this.#typeAt(largeStarts.get(entry.large) as number);
        if (!options.large) {
          // The entries before it first, as one at a time would have handed them out.
          if (position > 0) yield batch.slice(0, position);
          throw largeEntryError(entryPath(entry), entry.large);
        }
      }
      if (batch.length) yield batch;
      largeStarts.clear();
      if (failure) throw await this.#invalidEntry(failure);
      if (!more) return;
    }
  }

  async #invalidEntry(failure: { text: string; valueStart: number }) {
    const problem = problemIn(failure.text);
    const offset = failure.valueStart + Buffer.byteLength(failure.text.slice(0, problem.index));
    return invalidJsonAt(this.#reader, offset, problem.message);
  }
}
