import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import { describeInvalidJson } from './invalid-json.js';
import type { EntryRange, JsonDocument, JsonEntry } from './json-document.js';

/**
 * A JSONL / NDJSON artifact: an array of records, one per line, each parsed as it is reached,
 * so a file of any size is processed record by record. A record's index is its 0-based line
 * number (record `$[41]` is line 42, as `artifact_grep` shows it); blank lines hold no record.
 *
 * @example
 * ```ts
 * const document = await JsonLinesDocument.open(artifact, { byteLength: await artifact.byteLength() });
 * for await (const record of document.entries({ start: 0, end: 10 })) console.log(record.value);
 * ```
 */
export class JsonLinesDocument implements JsonDocument {
  readonly format = 'jsonl';
  readonly mode = 'records';
  readonly rootType = 'array';
  readonly entryCount: number;
  readonly indexLimit: number;
  readonly #artifact: SpooledArtifact;

  private constructor(artifact: SpooledArtifact, entryCount: number, lineCount: number) {
    this.#artifact = artifact;
    this.entryCount = entryCount;
    this.indexLimit = lineCount;
  }

  /** Counts the records (non-blank lines) in one byte scan. */
  static async open(
    artifact: SpooledArtifact,
    options: { byteLength: number; signal?: AbortSignal },
  ): Promise<JsonLinesDocument> {
    const { byteLength, signal } = options;
    const lineCount = await artifact.lineCount(signal ? { signal } : {});
    let blank = 0;
    let atLineStart = true;
    let lineIsBlank = true;
    const chunks = readerChunks(artifact.reader, {
      end: byteLength,
      reuseBuffers: true,
      ...(signal ? { signal } : {}),
    });
    for await (const chunk of chunks) {
      for (let index = 0; index < chunk.length; ) {
        if (atLineStart || lineIsBlank) {
          const byte = chunk[index] as number;
          atLineStart = false;
          if (byte === 0x0a) {
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
        index = end + 1;
        atLineStart = true;
        lineIsBlank = true;
      }
    }
    if (!atLineStart && lineIsBlank) blank++;
    return new JsonLinesDocument(artifact, lineCount - blank, lineCount);
  }

  async *entries(options: EntryRange = {}): AsyncIterable<JsonEntry> {
    const start = Math.max(0, options.start ?? 0);
    const end = Math.min(options.end ?? this.indexLimit, this.indexLimit);
    if (start >= end) return;
    const query = options.signal ? { signal: options.signal } : {};
    for await (const line of this.#artifact.lines(start, end, query)) {
      if (line.text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        throw describeInvalidJson(line.text, line.lineNumber + 1);
      }
      yield { index: line.lineNumber, value };
    }
  }
}
