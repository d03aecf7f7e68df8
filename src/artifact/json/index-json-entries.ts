import type { SpoolReader } from '../../spool/spool-reader.js';
import type { EntryOffset } from './array-span-batches.js';
import type { JsonType } from './json-scan-types.js';
import { JsonStructureScanner } from './json-structure-scanner.js';
import { scanJsonStructure } from './scan-json-structure.js';

/** A checkpoint every 64 KiB: reaching any entry reads at most that much before it. */
export const checkpointStride = 64 * 1024;

/**
 * Where an open takes over from a pass that already indexed a root array's first entries: the
 * checkpoints it found, the next entry's index, and the offset just after the comma before it
 * (or after the root's `[`).
 */
export interface ArrayIndexResume {
  checkpoints: EntryOffset[];
  index: number;
  offset: number;
}

/** An entry too large to parse: where its value's bytes are, to index it as a document. */
export interface LargeEntry {
  index: number;
  key?: string;
  valueStart: number;
  end: number;
}

/**
 * Options for {@link indexJsonEntries}.
 */
export interface IndexJsonEntriesOptions {
  /** Where the value starts. Default 0. */
  start?: number;
  /** Where the value ends (exclusive). */
  byteLength: number;
  /** An entry past this is remembered in `large`, to be indexed as a document of its own. */
  maxEntryBytes: number;
  resume?: ArrayIndexResume;
  signal?: AbortSignal;
}

/** What one scan of a JSON value learns of its root's entries: {@link indexJsonEntries}. */
export interface JsonEntryIndex {
  rootType: JsonType;
  entryCount: number;
  /** Where the value starts. */
  start: number;
  byteLength: number;
  /** `resume`'s or the first entry, then each {@link checkpointStride} or more past the last. */
  checkpoints: EntryOffset[];
  /** The entries past `maxEntryBytes`. */
  large: LargeEntry[];
  /** Where the last entry's value ends. */
  lastEntryEnd: number;
}

/**
 * Scans the reader's bytes `[start, byteLength)` (default from 0) as one JSON value, or with
 * `resume` the rest of a root array from `resume.offset`, keeping a checkpoint every 64 KiB
 * and every entry past `maxEntryBytes`; a structural error is `E_INVALID_JSON`.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const index = await indexJsonEntries(reader, { byteLength, maxEntryBytes: 16 << 20 });
 * console.log(index.entryCount, index.checkpoints.length);
 * ```
 */
export async function indexJsonEntries(
  reader: SpoolReader,
  options: IndexJsonEntriesOptions,
): Promise<JsonEntryIndex> {
  const { resume } = options;
  const checkpoints: EntryOffset[] = resume ? [...resume.checkpoints] : [];
  const large: LargeEntry[] = [];
  let last = checkpoints.at(-1)?.offset ?? Number.NEGATIVE_INFINITY;
  let lastEntryEnd = 0;
  const scanner = new JsonStructureScanner({
    ...(resume ? { resume: { root: 'array', index: resume.index } } : {}),
    onEntry: (entry) => {
      lastEntryEnd = entry.end;
      if (entry.start - last >= checkpointStride) {
        checkpoints.push({ index: entry.index, offset: entry.start });
        last = entry.start;
      }
      // Each is larger than maxEntryBytes, so there are few: all are remembered.
      if (entry.end - entry.valueStart > options.maxEntryBytes) {
        const { index, key, valueStart, end } = entry;
        large.push(
          key === undefined ? { index, valueStart, end } : { index, key, valueStart, end },
        );
      }
      return true;
    },
  });
  const { start = 0, byteLength, signal } = options;
  await scanJsonStructure(reader, scanner, {
    start: resume?.offset ?? start,
    end: byteLength,
    signal,
  });
  return {
    rootType: scanner.root ?? 'null',
    entryCount: scanner.entryCount,
    start,
    byteLength,
    checkpoints,
    large,
    lastEntryEnd,
  };
}
