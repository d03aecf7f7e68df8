import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { jsonFormatOfMediaType } from '../kinds/media-types.js';
import {
  type QueryOptions,
  SpooledArtifact,
  type SpooledArtifactOptions,
} from '../spooled-artifact.js';
import { detectJsonFormat } from './detect-json-format.js';
import { IndexedJsonDocument } from './indexed-json-document.js';
import { describeInvalidJson } from './invalid-json.js';
import type { JsonDocument } from './json-document.js';
import { JsonLinesDocument } from './json-lines-document.js';
import { type JsonMatch, queryJson } from './json-path-query.js';
import { JsonShape } from './json-shape.js';
import { ParsedJsonDocument } from './parsed-json-document.js';
import { resolveJsonPath } from './resolve-json-path.js';
import { shapeEntries } from './shape-entries.js';
import { shapeWhileOpening } from './shape-while-opening.js';
import { SpanParsingOpen } from './span-parsing-open.js';

/**
 * Options for a {@link SpooledJsonArtifact}.
 */
export interface SpooledJsonArtifactOptions extends SpooledArtifactOptions {
  /** `json` (one document) or `jsonl` (one value per line). Default: the media type, else sniffed. */
  format?: 'json' | 'jsonl';
  /**
   * A JSON document up to this size is parsed whole; a larger one is indexed by byte offset and
   * its entries are parsed one at a time (this is also the largest entry parsed). Default 16 MiB.
   */
  maxParseBytes?: number;
}

/**
 * Options for JSON queries that scan: a deadline stops them between entries.
 *
 * @example
 * ```ts
 * await orders.query('$[?(@.status >= 500)]', { limit: 100, timeout: 10_000 });
 * ```
 */
export interface JsonScanOptions extends QueryOptions {
  /** The first entry to look at. */
  startIndex?: number;
  /** Milliseconds before a scan stops with what it has. Default: no limit. */
  timeout?: number;
}

/**
 * A spooled JSON document or JSONL / NDJSON file, queried by JSONPath (jsonpath-plus, safe
 * evaluation only) and summarised by {@link SpooledJsonArtifact.shape}. A document up to
 * `maxParseBytes` is parsed whole; a larger one is scanned once to index its top-level entries
 * by byte offset, and JSONL is read record by record, so a multi-GB file is queried in flat
 * memory. Invalid JSON is an `E_INVALID_JSON` error with its line and column, while the text
 * queries (`head`, `grep`, `cat`) keep working.
 *
 * @example
 * ```ts
 * await using rows = (await spool(response.body!, { kind: 'json' })) as SpooledJsonArtifact;
 * console.log(await rows.length());
 * console.log(await rows.query('$[?(@.status >= 500)].path', { limit: 20 }));
 * ```
 */
export class SpooledJsonArtifact extends SpooledArtifact {
  static readonly defaultMaxParseBytes = 16 * 1024 * 1024;
  readonly maxParseBytes: number;
  #format: 'json' | 'jsonl' | undefined;
  #document: { byteLength: number; promise: Promise<JsonDocument> } | undefined;

  constructor(reader: SpooledArtifact['reader'], options: SpooledJsonArtifactOptions = {}) {
    super(reader, options);
    this.maxParseBytes = options.maxParseBytes ?? SpooledJsonArtifact.defaultMaxParseBytes;
    this.#format =
      options.format ?? (options.mediaType ? jsonFormatOfMediaType(options.mediaType) : undefined);
  }

  /** `json` or `jsonl`: set, declared by media type, or (once a query has run) sniffed. */
  override get kind(): string {
    return this.#format ?? 'json';
  }

  /** The content as top-level entries, opened once (and again if the artifact grew). */
  async document(options: QueryOptions = {}): Promise<JsonDocument> {
    for (;;) {
      const byteLength = await this.byteLength();
      const shared = this.#document?.byteLength === byteLength ? this.#document.promise : undefined;
      if (!shared) return this.#remember(byteLength, this.#open(byteLength, options.signal));
      try {
        return await shared;
      } catch (error) {
        // Another caller's abort ended the open this one waited for (a `shape()` that opens
        // as it walks): it was forgotten, so this caller opens the document itself.
        const aborted = SpoolforgeError.isInstance(error) && error.code === 'E_ABORTED';
        if (!aborted || options.signal?.aborted) throw error;
      }
    }
  }

  #remember(byteLength: number, promise: Promise<JsonDocument>): Promise<JsonDocument> {
    const document = { byteLength, promise };
    this.#document = document;
    // A failure is remembered like a success (the bytes will not change), except an abort.
    promise.catch((error) => {
      if (
        SpoolforgeError.isInstance(error) &&
        error.code === 'E_ABORTED' &&
        this.#document === document
      )
        this.#document = undefined;
    });
    return promise;
  }

  /** Elements of the root array, members of the root object, or records of JSONL. */
  async length(options: QueryOptions = {}): Promise<number> {
    const document = await this.document(options);
    return (await document.counts(options.signal ? { signal: options.signal } : {})).entryCount;
  }

  /** Up to `limit` (default 1,000) values a JSONPath matches, with their paths. */
  async query(
    path: string,
    options: JsonScanOptions & { limit?: number } = {},
  ): Promise<JsonMatch[]> {
    const document = await this.document(options);
    const limit = options.limit ?? 1_000;
    const matches: JsonMatch[] = [];
    await queryJson(document, path, {
      ...scanOptions(options),
      onEntry: (found) => {
        for (let index = 0; index < found.length && matches.length < limit; index++)
          matches.push(found[index] as JsonMatch);
        return matches.length < limit;
      },
    });
    return matches;
  }

  /**
   * An inferred schema of the entries (or of the values `path` matches): field paths, types
   * with counts, examples. `scanned` says how many values it saw before any timeout.
   */
  async shape(options: JsonScanOptions & { path?: string } = {}) {
    const path = options.path ?? '$';
    const opening =
      path === '$' && !options.startIndex ? await this.#openParsing(options) : undefined;
    if (opening) return shapeWhileOpening(opening, scanOptions(options));
    const shape = new JsonShape();
    const document = await this.document(options);
    let scanned = 0;
    // The root, or an entry too large to parse (`$.items`), is shaped from its entries.
    const target = await resolveJsonPath(document, path);
    if (target.segments.length === 1) {
      const whole = await shapeEntries(target.document, target.prefix, shape, scanOptions(options));
      return { shape, document, ...whole };
    }
    const result = await queryJson(document, path, {
      ...scanOptions(options),
      onEntry: (matches) => {
        for (const match of matches) {
          scanned++;
          shape.add(path, match.value);
        }
        return true;
      },
    });
    return { shape, scanned, document, ...result };
  }

  /** The whole value; `E_ARTIFACT_TOO_LARGE` past `maxParseBytes` (JSONL: an array of records). */
  async value(options: QueryOptions = {}): Promise<unknown> {
    const document = await this.document(options);
    if (document.mode === 'parsed') return document.value;
    if ((await this.byteLength()) > this.maxParseBytes) {
      throw new SpoolforgeError(
        'E_ARTIFACT_TOO_LARGE',
        `value() would parse more than maxParseBytes (${this.maxParseBytes} bytes); use query(), length() or shape()`,
      );
    }
    const records: unknown[] = [];
    for await (const entry of document.entries(options)) records.push(entry.value);
    return records;
  }

  /**
   * A large JSON array not opened yet, opened by the caller's walk of every entry (see
   * {@link SpanParsingOpen}); undefined for anything else, which {@link document} opens.
   */
  async #openParsing(options: QueryOptions): Promise<SpanParsingOpen | undefined> {
    const { signal } = options;
    const byteLength = await this.byteLength();
    if (this.#document?.byteLength === byteLength || byteLength <= this.maxParseBytes) return;
    if ((await this.#formatOf(byteLength, signal)) !== 'json') return;
    const opening = await SpanParsingOpen.start(this.reader, {
      byteLength,
      maxEntryBytes: this.maxParseBytes,
      signal,
    });
    // Another query may have opened it meanwhile.
    if (!opening || this.#document?.byteLength === byteLength) return;
    this.#remember(byteLength, opening.document);
    return opening;
  }

  async #open(byteLength: number, signal: AbortSignal | undefined): Promise<JsonDocument> {
    const query = signal ? { signal } : {};
    if ((await this.#formatOf(byteLength, signal)) === 'jsonl') {
      return new JsonLinesDocument(this, { byteLength });
    }
    if (byteLength > this.maxParseBytes) {
      return IndexedJsonDocument.open(this.reader, {
        byteLength,
        maxEntryBytes: this.maxParseBytes,
        ...query,
      });
    }
    const text = await this.asString(query);
    try {
      return new ParsedJsonDocument(JSON.parse(text));
    } catch {
      throw describeInvalidJson(text);
    }
  }

  /** The format set or declared, else sniffed from the first of `byteLength` bytes (once). */
  async #formatOf(byteLength: number, signal: AbortSignal | undefined) {
    this.#format ??= await detectJsonFormat(this.reader, byteLength, signal ? { signal } : {});
    return this.#format;
  }
}

function scanOptions(options: JsonScanOptions) {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.startIndex !== undefined ? { startIndex: options.startIndex } : {}),
    ...(options.timeout !== undefined ? { deadline: performance.now() + options.timeout } : {}),
  };
}
