import { lineBlocks } from '../../spool/line-blocks.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { decodeUtf8 } from '../decode-utf8.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import { describeInvalidJson } from './invalid-json.js';
import { latin1JsonText, utf8JsonText } from './json-bytes.js';
import type { EntryRange, JsonCounts, JsonDocument, JsonEntry } from './json-document.js';

/**
 * A JSONL / NDJSON artifact: an array of records, one per line, each parsed as it is reached,
 * so a file of any size is processed record by record, and a query that needs only the first
 * records reads only them. A record's index is its 0-based line number (record `$[41]` is line
 * 42, as `artifact_grep` shows it); a blank line (JSON whitespace only) holds no record.
 *
 * @example
 * ```ts
 * const document = new JsonLinesDocument(artifact, { byteLength: await artifact.byteLength() });
 * for await (const record of document.entries({ start: 0, end: 10 })) console.log(record.value);
 * ```
 */
export class JsonLinesDocument implements JsonDocument {
  readonly format = 'jsonl';
  readonly mode = 'records';
  readonly rootType = 'array';
  readonly #artifact: SpooledArtifact;
  readonly #byteLength: number;
  #counts: Promise<JsonCounts> | undefined;

  /** Reads nothing: the records are read as queries reach them, the counts when asked for. */
  constructor(artifact: SpooledArtifact, options: { byteLength: number }) {
    this.#artifact = artifact;
    this.#byteLength = options.byteLength;
  }

  /** Records and lines, counted in one byte scan the first time (or by a full entries() pass). */
  counts(options: { signal?: AbortSignal } = {}): Promise<JsonCounts> {
    if (this.#counts) return this.#counts;
    const counting = countJsonLines(this.#artifact.reader, { ...options, end: this.#byteLength });
    this.#counts = counting;
    // An abort or a failed read is tried again by the next caller.
    counting.catch(() => {
      if (this.#counts === counting) this.#counts = undefined;
    });
    return counting;
  }

  async *entries(options: EntryRange = {}): AsyncIterable<JsonEntry> {
    for await (const batch of this.batches(options)) yield* batch;
  }

  /**
   * The records of each 64 KiB of whole lines read: a record is parsed only once a query has
   * asked for its batch, and a bad line fails only once the records before it are handed out.
   */
  async *batches(options: EntryRange = {}): AsyncIterable<JsonEntry[]> {
    const start = Math.max(0, options.start ?? 0);
    const end = options.end ?? Number.POSITIVE_INFINITY;
    if (start >= end) return;
    const query = options.signal ? { signal: options.signal } : {};
    const chunks = readerChunks(this.#artifact.reader, {
      start: await this.#artifact.lineOffset(start, query),
      end: this.#byteLength,
      initialChunkSize: 64 * 1024,
      reuseBuffers: true,
      ...query,
    });
    let lineNumber = start;
    let records = 0;
    const latin1 = options.latin1 === true;
    for await (const bytes of lineBlocks(chunks, query)) {
      let batch: JsonEntry[] = [];
      let batchStart = 0;
      for (let position = 0; position < bytes.length; lineNumber++) {
        if (lineNumber >= end) break;
        const found = bytes.indexOf(0x0a, position);
        const lineEnd = found === -1 ? bytes.length : found;
        if (!isBlank(bytes, position, lineEnd)) {
          let line = latin1 ? latin1JsonText(bytes, position, lineEnd) : undefined;
          const asLatin1 = line !== undefined;
          // Line by line: a block decoded whole is a two-byte string as soon as one of its
          // lines is, which halves JSON.parse's speed on all of them.
          line ??= utf8JsonText(bytes, position, lineEnd);
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch {
            // The records before it first, as one at a time would have handed them out.
            if (batch.length) yield batch;
            const text = asLatin1 ? decodeUtf8(bytes.subarray(position, lineEnd)) : line;
            throw describeInvalidJson(text, lineNumber + 1);
          }
          batch.push(
            latin1 ? { index: lineNumber, value, latin1: asLatin1 } : { index: lineNumber, value },
          );
          records++;
        }
        position = lineEnd + 1;
        // A batch per 64 KiB: a query that stops early has parsed little past its last match.
        if (position - batchStart >= batchBytes && batch.length) {
          yield batch;
          batch = [];
          batchStart = position;
        }
      }
      if (batch.length) yield batch;
      if (lineNumber >= end) return;
    }
    // Read to the end from the start: the counts come free.
    if (start === 0 && end === Number.POSITIVE_INFINITY && !this.#counts)
      this.#counts = Promise.resolve({ entryCount: records, indexLimit: lineNumber });
  }
}

/** Bytes of lines parsed before their records are handed out. */
const batchBytes = 64 * 1024;

/** Whether `bytes[start, end)` is JSON whitespace only (space, tab, carriage return). */
function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/** Lines (a last one without a newline included) and the non-blank ones among them, in one scan. */
async function countJsonLines(
  reader: SpoolReader,
  options: { end: number; signal?: AbortSignal },
): Promise<JsonCounts> {
  let lines = 0;
  let blank = 0;
  let atLineStart = true;
  let lineIsBlank = true;
  for await (const chunk of readerChunks(reader, { ...options, reuseBuffers: true })) {
    for (let index = 0; index < chunk.length; ) {
      if (atLineStart || lineIsBlank) {
        const byte = chunk[index] as number;
        atLineStart = false;
        if (byte === 0x0a) {
          lines++;
          if (lineIsBlank) blank++;
          atLineStart = true;
          lineIsBlank = true;
        } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) lineIsBlank = false;
        index++;
        continue;
      }
      // Past a line's first visible byte, only its end matters.
      const end = chunk.indexOf(0x0a, index);
      if (end === -1) break;
      lines++;
      index = end + 1;
      atLineStart = true;
      lineIsBlank = true;
    }
  }
  if (!atLineStart) {
    lines++;
    if (lineIsBlank) blank++;
  }
  return { entryCount: lines - blank, indexLimit: lines };
}
