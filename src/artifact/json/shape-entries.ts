import { entryBatches, entryPath, type JsonDocument, type JsonEntry } from './json-document.js';
import type { JsonQueryResult } from './json-path-query.js';
import type { JsonShape } from './json-shape.js';

/**
 * Options for {@link shapeEntries}.
 */
export interface ShapeEntriesOptions {
  /** The first entry to look at. */
  startIndex?: number;
  /** `performance.now()` past which the walk stops between entries. */
  deadline?: number;
  signal?: AbortSignal;
  /** The entries, when they do not come from `document.batches` (an array being opened). */
  batches?: AsyncIterable<JsonEntry[]>;
}

/**
 * Adds a document's entries to `shape` under `base` (`$[*]` for an array's elements). An entry
 * too large to parse is counted by its type and, when it is an array or object, shaped from its
 * own entries in turn (the `items` of `{"items":[…], "meta":{…}}`), never parsed whole.
 *
 * @example
 * ```ts
 * const shape = new JsonShape();
 * const { scanned, stopped } = await shapeEntries(document, '$', shape, { signal });
 * ```
 */
export async function shapeEntries(
  document: Pick<JsonDocument, 'rootType' | 'child'>,
  base: string,
  shape: JsonShape,
  options: ShapeEntriesOptions,
): Promise<{ scanned: number } & JsonQueryResult> {
  const array = document.rootType === 'array';
  let scanned = 0;
  if (!array && document.rootType !== 'object') return { scanned };
  const { startIndex, deadline, signal } = options;
  const batches =
    options.batches ??
    entryBatches(document as JsonDocument, {
      large: true,
      latin1: true,
      ...(startIndex !== undefined ? { start: startIndex } : {}),
      ...(signal ? { signal } : {}),
    });
  const elements = `${base}[*]`;
  for await (const batch of batches) {
    for (const entry of batch) {
      const path = array ? elements : base + entryPath(entry).slice(1);
      const parentObjects = array ? undefined : 1;
      scanned++;
      if (!entry.large) shape.add(path, entry.value, parentObjects, 0, entry.latin1 === true);
      else {
        shape.addType(path, entry.large.type, parentObjects);
        const child = await document.child?.(entry.key ?? String(entry.index));
        if (child) {
          const { batches: _, ...inherited } = options;
          const inner = await shapeEntries(child, path, shape, { ...inherited, startIndex: 0 });
          scanned += inner.scanned;
        }
      }
      if (deadline !== undefined && performance.now() > deadline) {
        return { scanned, stopped: 'deadline', nextIndex: entry.index + 1 };
      }
    }
  }
  return { scanned };
}
