import type { JsonType } from './json-scan-types.js';

/**
 * One top-level entry of a JSON document: an element of the root array, a member of the root
 * object, or a record (line) of a JSONL file.
 *
 * @example
 * ```ts
 * const entry: JsonEntry = { index: 3, value: { status: 500 } };
 * ```
 */
export interface JsonEntry {
  index: number;
  /** The member name, for an object root. */
  key?: string;
  value: unknown;
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
  /** How many entries there are (elements, members, or non-blank records). */
  readonly entryCount: number;
  /** The exclusive bound of entry indexes: a JSONL record's index is its 0-based line number. */
  readonly indexLimit: number;
  /** The whole value, when the document was parsed whole. */
  readonly value?: unknown;
  /** Entries with `start <= index < end`, in order, each parsed as it is reached. */
  entries(options?: EntryRange): AsyncIterable<JsonEntry>;
  /** An entry too large to parse, as a document of its own (indexed documents only). */
  child?(segment: string, signal?: AbortSignal): Promise<JsonDocument | undefined>;
}

/**
 * A range of entry indexes, half-open like `Array.prototype.slice`.
 *
 * @example
 * ```ts
 * const range: EntryRange = { start: 0, end: 100, signal };
 * ```
 */
export interface EntryRange {
  start?: number;
  end?: number | undefined;
  signal?: AbortSignal;
}

/**
 * The JSONPath of an entry: `$[3]` in an array, `$['name']` in an object (the normalized form
 * jsonpath-plus reports).
 *
 * @example
 * ```ts
 * entryPath({ index: 3, value: 1 }); // '$[3]'
 * ```
 */
export function entryPath(entry: Pick<JsonEntry, 'index' | 'key'>): string {
  return entry.key === undefined ? `$[${entry.index}]` : `$['${entry.key}']`;
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
