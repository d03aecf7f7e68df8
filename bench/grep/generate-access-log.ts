import type { LogShape } from '../shared/generate-log.js';
import {
  buildEntryPool,
  generatePooledLog,
  placeholderStamps,
  type ScheduledLine,
} from '../shared/pooled-log.js';
import { AccessLogComposer } from './access-log-composer.js';

/** Where (as fractions of the size) the rare lines go: other places than the first shape's. */
const checksumPositions = [0.002, 0.2, 0.41, 0.58, 0.7, 0.83, 0.97, 0.998];
const scannerPositions = [0.05, 0.33, 0.5, 0.77, 0.91];
/** One scanner line in capitals, so `grep -i` counts one more line than the plain grep. */
const shoutingScannerPosition = 0.63;

function scheduleSpecialLines(size: number, composer: AccessLogComposer): ScheduledLine[] {
  return [
    ...checksumPositions.map((fraction) => ({
      at: fraction * size,
      compose: () => composer.checksumLine(),
    })),
    ...scannerPositions.map((fraction) => ({
      at: fraction * size,
      compose: () => composer.scannerLine(),
    })),
    { at: shoutingScannerPosition * size, compose: () => composer.scannerLine(true) },
  ].sort((first, second) => first.at - second.at);
}

/**
 * Streams an nginx-style log of about `size` bytes ({@link AccessLogComposer}), deterministic
 * like the multi-service log: access lines with the error log's lines mixed in, a few rare
 * `bad checksum` errors and scanner requests.
 *
 * @example
 * ```ts
 * for await (const batch of generateAccessLog({ size: 32 * 1024 * 1024 })) stream.write(batch);
 * ```
 */
export function generateAccessLog(options: { size: number }): AsyncGenerator<Uint8Array> {
  const pooled = new AccessLogComposer(placeholderStamps, 0xacce55);
  return generatePooledLog({
    size: options.size,
    seed: 0x9e7,
    pool: buildEntryPool(() => pooled.entry()),
    specialLines: (stamps) =>
      scheduleSpecialLines(options.size, new AccessLogComposer(stamps, 0x5ca1ab1e)),
  });
}

/** The grep corpus's second log shape, cached under `bench/data/` like the first. */
export const accessLog: LogShape = { name: 'access', version: 1, generate: generateAccessLog };
