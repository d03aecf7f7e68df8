import type { SpoolReader } from '../../spool/spool-reader.js';
import { looksBinary, looksJsonl } from '../kinds/built-in-sniffers.js';
import { sniffBytes, sniffSample } from '../kinds/sniff-sample.js';

/**
 * Whether a reader's bytes are JSONL (a JSON object or array per line) or one JSON document,
 * as the built-in `jsonl` kind sniffs them.
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
  const sample = sniffSample(head, { complete: byteLength <= sniffBytes });
  return !looksBinary(sample) && looksJsonl(sample) ? 'jsonl' : 'json';
}
