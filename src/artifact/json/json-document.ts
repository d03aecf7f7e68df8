import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { JsonType } from './json-scan-types.js';

/**
 * One top-level entry of a JSON document: an element of the root array, a member of the root
 * object, or a record (line) of a JSONL file.
 */
export interface JsonEntry {
  index: number;
  /** The member name, for an object root. */
  key?: string;
  value: unknown;
  /** Set, with `value` undefined, for an entry too large to parse (see {@link EntryRange.large}). */
  large?: LargeJsonEntry;
  /** Parsed from its bytes read as latin1 (see {@link EntryRange.latin1}). */
  latin1?: boolean;
}

/**
 * What is known of an entry too large to parse without parsing it: its type (from its first
 * byte), its size, and the limit it passed.
 */
export interface LargeJsonEntry {
  type: JsonType;
  bytes: number;
  maxBytes: number;
}

/**
 * A JSON artifact's content as a sequence of top-level entries, however it is held: parsed
 * whole, indexed by byte offset, or read record by record. Every query is built on this.
 *
 * @example
 * ```ts
 * for await (const { index, value } of document.entries({ start: 10, end: 20 })) console.log(index, value);
 * ```
 */
export interface JsonDocument {
  readonly format: 'json' | 'jsonl';
  /** How it is held: `parsed` whole, `indexed` by byte offsets, or JSONL `records`. */
  readonly mode: 'parsed' | 'indexed' | 'records';
  /** The root's type; a JSONL file is an array of its records. */
  readonly rootType: JsonType;
  /**
   * How many entries there are: known at once for a JSON document, counted by one scan (then
   * remembered) for JSONL, which a query reading only its first records never needs.
   */
  counts(options?: { signal?: AbortSignal }): Promise<JsonCounts>;
  /** The whole value, when the document was parsed whole. */
  readonly value?: unknown;
  /** Entries with `start <= index < end`, in order, each parsed as it is reached. */
  entries(options?: EntryRange): AsyncIterable<JsonEntry>;
  /** The same entries a batch at a time, where they come that way (see {@link entryBatches}). */
  batches?(options?: EntryRange): AsyncIterable<JsonEntry[]>;
  /** An entry too large to parse, as a document of its own (indexed documents only). */
  child?(segment: string): Promise<JsonDocument | undefined>;
}

/**
 * A document's entry counts.
 */
export interface JsonCounts {
  /** Elements, members, or non-blank records. */
  entryCount: number;
  /** The exclusive bound of entry indexes: a JSONL record's index is its 0-based line number. */
  indexLimit: number;
}

/**
 * A range of entry indexes, half-open like `Array.prototype.slice`.
 */
export interface EntryRange {
  start?: number;
  /** Default: to the end. */
  end?: number | undefined;
  signal?: AbortSignal;
  /**
   * Yield an entry too large to parse with `large` set instead of failing with
   * `E_ARTIFACT_TOO_LARGE`: for callers that skip it or describe it (the default fails).
   */
  large?: boolean;
  /**
   * Parse an entry from its bytes read as latin1 where that reads the same JSON (no `\u00`
   * escape), setting `latin1` on it: its keys and strings then hold UTF-8 bytes as characters.
   * JSON.parse is fastest on such one-byte strings; for callers that read types and decode the
   * few strings they keep (`JsonShape`). Other documents may ignore it.
   */
  latin1?: boolean;
}

/**
 * A document's entries in batches, for a scan over many: JSONL's come a block of lines at a
 * time, which spares an await per record; another document's come one by one.
 *
 * @example
 * ```ts
 * for await (const batch of entryBatches(document, { start: 0 })) for (const entry of batch) count++;
 * ```
 */
export async function* entryBatches(
  document: JsonDocument,
  options: EntryRange = {},
): AsyncIterable<JsonEntry[]> {
  if (document.batches) {
    yield* document.batches(options);
    return;
  }
  for await (const entry of document.entries(options)) yield [entry];
}

/**
 * The JSONPath of an entry: `$[3]` in an array, `$['name']` in an object (the normalized form
 * jsonpath-plus reports).
 *
 * @example
 * ```ts
 * entryPath({ index: 3 }); // '$[3]'
 * ```
 */
export function entryPath(entry: Pick<JsonEntry, 'index' | 'key'>): string {
  return entry.key === undefined ? `$[${entry.index}]` : `$['${entry.key.replaceAll("'", "\\'")}']`;
}

/**
 * The `E_ARTIFACT_TOO_LARGE` error of a query that needs an entry too large to parse.
 *
 * @example
 * ```ts
 * if (entry.large) throw largeEntryError(entryPath(entry), entry.large);
 * ```
 */
export function largeEntryError(path: string, large: LargeJsonEntry): SpoolforgeError {
  const inside =
    large.type === 'array' || large.type === 'object'
      ? `query inside it with a path that starts with ${path} (e.g. ${path}${large.type === 'array' ? '[0]' : '.*'}), or `
      : '';
  return new SpoolforgeError(
    'E_ARTIFACT_TOO_LARGE',
    `${path} (${large.type}, ${formatBytes(large.bytes)}) is larger than maxParseBytes (${formatBytes(large.maxBytes)}); ` +
      `${inside}read its text with artifact_read or artifact_grep`,
  );
}

/**
 * The type of a parsed JSON value.
 *
 * @example
 * ```ts
 * jsonType([1, 2]); // 'array'
 * ```
 */
export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}
