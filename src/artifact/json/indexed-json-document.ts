import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { decodeUtf8 } from '../decode-utf8.js';
import { invalidJsonAt, problemIn } from './invalid-json.js';
import type { EntryRange, JsonDocument, JsonEntry } from './json-document.js';
import { entryPath } from './json-document.js';
import { JsonScanError, type JsonScanStart, type JsonType } from './json-scan-types.js';
import { JsonStructureScanner } from './json-structure-scanner.js';

/** A checkpoint every 64 KiB: reaching any entry reads at most that much before it. */
const checkpointStride = 64 * 1024;

interface Checkpoint {
  index: number;
  offset: number;
}

/**
 * A JSON document too large to parse whole: one scan finds its root's entries and keeps a byte
 * offset every 64 KiB (16 K numbers per GiB), so any entry is reached by reading at most 64 KiB
 * before it, and each entry is parsed only when a query reaches it.
 *
 * @example
 * ```ts
 * const document = await IndexedJsonDocument.open(reader, { maxEntryBytes: 16 << 20 });
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
  readonly #checkpoints: Checkpoint[];
  readonly #maxEntryBytes: number;

  private constructor(
    reader: SpoolReader,
    fields: {
      rootType: JsonType;
      entryCount: number;
      byteLength: number;
      checkpoints: Checkpoint[];
    },
    maxEntryBytes: number,
  ) {
    this.#reader = reader;
    this.rootType = fields.rootType;
    this.entryCount = fields.entryCount;
    this.#byteLength = fields.byteLength;
    this.#checkpoints = fields.checkpoints;
    this.#maxEntryBytes = maxEntryBytes;
  }

  /** Scans the reader's first `byteLength` bytes; a structural error is `E_INVALID_JSON`. */
  static async open(
    reader: SpoolReader,
    options: { byteLength: number; maxEntryBytes: number; signal?: AbortSignal },
  ): Promise<IndexedJsonDocument> {
    const checkpoints: Checkpoint[] = [];
    let last = Number.NEGATIVE_INFINITY;
    const scanner = new JsonStructureScanner({
      onEntry: (entry) => {
        if (entry.start - last >= checkpointStride) {
          checkpoints.push({ index: entry.index, offset: entry.start });
          last = entry.start;
        }
        return true;
      },
    });
    const { byteLength, signal } = options;
    await scan(reader, scanner, 0, byteLength, signal);
    const fields = {
      rootType: scanner.root ?? 'null',
      entryCount: scanner.entryCount,
      byteLength,
      checkpoints,
    };
    return new IndexedJsonDocument(reader, fields, options.maxEntryBytes);
  }

  get indexLimit(): number {
    return this.entryCount;
  }

  async *entries(options: EntryRange = {}): AsyncIterable<JsonEntry> {
    const start = Math.max(0, options.start ?? 0);
    const end = Math.min(options.end ?? this.entryCount, this.entryCount);
    if (start >= end || (this.rootType !== 'array' && this.rootType !== 'object')) return;
    const checkpoint = this.#checkpointFor(start);
    const resume: JsonScanStart = { root: this.rootType, index: checkpoint.index };
    const ready: JsonEntry[] = [];
    let failure: { text: string; valueStart: number } | undefined;
    const scanner = new JsonStructureScanner({
      resume,
      capture: (index) => index >= start && index < end,
      maxCaptureBytes: this.#maxEntryBytes,
      onEntry: (span) => {
        if (span.index >= end) return false;
        if (span.index < start) return true;
        if (span.tooLarge) {
          throw new SpoolforgeError(
            'E_ARTIFACT_TOO_LARGE',
            `${entryPath(span)} is larger than maxParseBytes (${formatBytes(this.#maxEntryBytes)}); ` +
              'read its text with artifact_cat or artifact_grep',
          );
        }
        const text = decodeUtf8(span.bytes as Uint8Array);
        try {
          const entry: JsonEntry = { index: span.index, value: JSON.parse(text) };
          if (span.key !== undefined) entry.key = span.key;
          ready.push(entry);
          return true;
        } catch {
          failure = { text, valueStart: span.valueStart };
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
      yield* ready.splice(0);
      if (failure) throw await this.#invalidEntry(failure);
      if (!more) return;
    }
  }

  #checkpointFor(index: number): Checkpoint {
    let low = 0;
    let high = this.#checkpoints.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#checkpoints[middle] as Checkpoint).index <= index) low = middle;
      else high = middle - 1;
    }
    return this.#checkpoints[low] ?? { index: 0, offset: 0 };
  }

  async #invalidEntry(failure: { text: string; valueStart: number }) {
    const problem = problemIn(failure.text);
    const offset = failure.valueStart + Buffer.byteLength(failure.text.slice(0, problem.index));
    return invalidJsonAt(this.#reader, offset, problem.message);
  }
}

async function scan(
  reader: SpoolReader,
  scanner: JsonStructureScanner,
  start: number,
  end: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  let offset = start;
  try {
    const chunks = readerChunks(reader, {
      start,
      end,
      reuseBuffers: true,
      ...(signal ? { signal } : {}),
    });
    for await (const chunk of chunks) {
      if (!scanner.push(chunk, offset)) return;
      offset += chunk.length;
    }
    scanner.end(offset);
  } catch (error) {
    if (error instanceof JsonScanError)
      throw await invalidJsonAt(reader, error.offset, error.message);
    throw error;
  }
}
