import type { SpoolReader } from '../../spool/spool-reader.js';
import { detectKind } from '../detect-kind.js';

/** Enough to see a first record and the start of a second. */
const sniffBytes = 64 * 1024;

/**
 * Whether a reader's bytes are JSONL (a JSON object or array per line) or one JSON document.
 *
 * @example
 * ```ts
 * await detectJsonFormat(reader, await reader.byteLength()); // 'jsonl'
 * ```
 */
export async function detectJsonFormat(
  reader: SpoolReader,
  byteLength: number,
  options: { signal?: AbortSignal } = {},
): Promise<'json' | 'jsonl'> {
  const head = await reader.read(0, Math.min(byteLength, sniffBytes), options);
  return detectKind(head, { complete: byteLength <= sniffBytes }) === 'jsonl' ? 'jsonl' : 'json';
}
