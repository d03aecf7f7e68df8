import { throwIfAborted } from '../../shared/spoolforge-error.js';
import type { EntryRange, JsonCounts, JsonDocument, JsonEntry } from './json-document.js';
import { jsonType } from './json-document.js';
import type { JsonType } from './json-scan-types.js';

/**
 * A JSON document small enough to parse whole (up to the artifact's `maxParseBytes`).
 *
 * @example
 * ```ts
 * const document = new ParsedJsonDocument(JSON.parse(text));
 * (await document.counts()).entryCount; // elements or members of the root
 * ```
 */
export class ParsedJsonDocument implements JsonDocument {
  readonly format = 'json';
  readonly mode = 'parsed';
  readonly value: unknown;
  readonly rootType: JsonType;
  readonly entryCount: number;

  constructor(value: unknown) {
    this.value = value;
    this.rootType = jsonType(value);
    this.entryCount = Array.isArray(value)
      ? value.length
      : this.rootType === 'object'
        ? Object.keys(value as object).length
        : 0;
  }

  counts(): Promise<JsonCounts> {
    return Promise.resolve({ entryCount: this.entryCount, indexLimit: this.entryCount });
  }

  async *entries(options: EntryRange = {}): AsyncIterable<JsonEntry> {
    const start = options.start ?? 0;
    const end = Math.min(options.end ?? this.entryCount, this.entryCount);
    const value = this.value;
    const keys = this.rootType === 'object' ? Object.keys(value as object) : undefined;
    for (let index = start; index < end; index++) {
      if (index % 4096 === 0) throwIfAborted(options.signal);
      if (keys) {
        const key = keys[index] as string;
        yield { index, key, value: (value as Record<string, unknown>)[key] };
      } else yield { index, value: (value as unknown[])[index] };
    }
  }
}
