import type { JsonDocument } from './json-document.js';
import { JsonShape } from './json-shape.js';
import { type ShapeEntriesOptions, shapeEntries } from './shape-entries.js';
import type { SpanParsingOpen } from './span-parsing-open.js';

/**
 * The shape of a large array's entries taken as {@link SpanParsingOpen} opens it, so one read
 * of its bytes both shapes and indexes them: the one-read path of `SpooledJsonArtifact.shape()`.
 * The open is settled whatever the walk does: after a deadline the rest is indexed then, and
 * after an error (an abort too) the document is opened, fails as the open fails, or is aborted.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const opening = await SpanParsingOpen.start(reader, { byteLength, maxEntryBytes: 16 << 20 });
 * if (opening) console.log((await shapeWhileOpening(opening, { signal })).shape.fields());
 * ```
 */
export async function shapeWhileOpening(
  opening: SpanParsingOpen,
  options: Omit<ShapeEntriesOptions, 'batches'>,
) {
  const shape = new JsonShape();
  // Its entries come as the open reads them; a child is one of the opened document's.
  const root = {
    rootType: 'array' as const,
    child: (segment: string) => opening.document.then((document) => document.child(segment)),
  };
  let whole: Awaited<ReturnType<typeof shapeEntries>>;
  try {
    whole = await shapeEntries(root, '$', shape, { ...options, batches: opening.batches() });
  } catch (error) {
    // The document is settled all the same: opened, failed as the open fails, or aborted.
    void opening.finish();
    throw error;
  }
  // After a deadline, the rest is indexed now.
  return { shape, document: (await opening.finish()) as JsonDocument, ...whole };
}
