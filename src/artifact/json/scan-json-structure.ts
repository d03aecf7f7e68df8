import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { invalidJsonAt } from './invalid-json.js';
import { JsonScanError } from './json-scan-types.js';
import type { JsonStructureScanner } from './json-structure-scanner.js';

/**
 * Feeds the reader's bytes `[start, end)` to `scanner` until it stops or they end; a structural
 * error becomes `E_INVALID_JSON` with the line and column of its offset.
 *
 * @example
 * ```ts
 * await scanJsonStructure(reader, new JsonStructureScanner({ onEntry: () => true }), { start: 0, end: size });
 * ```
 */
export async function scanJsonStructure(
  reader: SpoolReader,
  scanner: JsonStructureScanner,
  options: { start: number; end: number; signal?: AbortSignal | undefined },
): Promise<void> {
  const { start, end, signal } = options;
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
