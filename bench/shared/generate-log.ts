import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirectory } from './bench-paths.js';
import { LogComposer, rareLiteral } from './log-composer.js';
import {
  batchBytes,
  buildEntryPool,
  generatePooledLog,
  placeholderStamps,
  type ScheduledLine,
} from './pooled-log.js';

export { rareLiteral };

/** Bump whenever the output changes, so cached logs from an older generator are not reused. */
export const generatorVersion = 1;

/** Where (as fractions of the size) the rare lines go. */
export const rareLinePositions = [0.001, 0.125, 0.25, 0.5, 0.75, 0.9, 0.999];
/** One more rare line this many bytes after the middle one, so `grep -C 3` merges their groups. */
const nearbyRareLineDistance = 400;

/** Where the ~100 KB lines go. */
const longLinePositions = [0.1, 0.3, 0.6, 0.85, 0.95];
/** One lower-case occurrence, so `grep -i` counts one more line than the case-sensitive grep. */
const lowerCaseRarePosition = 0.66;

/** Special lines, each due once the output passes `at` bytes. */
function scheduleSpecialLines(size: number, composer: LogComposer): ScheduledLine[] {
  return [
    ...[
      ...rareLinePositions.map((fraction) => fraction * size),
      size / 2 + nearbyRareLineDistance,
    ].map((at) => ({ at, compose: () => composer.rareLine() })),
    ...longLinePositions.map((fraction) => ({
      at: fraction * size,
      compose: () => composer.longLine(),
    })),
    {
      at: lowerCaseRarePosition * size,
      compose: () => composer.jsonLine(rareLiteral.toLowerCase()),
    },
  ].sort((first, second) => first.at - second.at);
}

/**
 * Parses a size: `256M`, `1G`, `4G`, `1.5G`, `1024K`, or plain bytes; binary units.
 *
 * @example
 * ```ts
 * parseSize('1G'); // 1073741824
 * ```
 */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?$/i.exec(text.trim());
  if (!match) throw new Error(`--size: expected something like 256M, 1G or 4G, got '${text}'`);
  const exponent = ' KMGT'.indexOf((match[2] ?? '').toUpperCase() || ' ');
  return Math.round(Number(match[1]) * 1024 ** exponent);
}

/**
 * A kind of generated log: its name, its generator's version, and the generator, which
 * streams the same bytes for the same size every time.
 *
 * @example
 * ```ts
 * const shape: LogShape = { name: 'multi-service', version: 1, generate: generateLog };
 * ```
 */
export interface LogShape {
  name: string;
  /** Bump whenever the output changes, so cached logs from an older generator are not reused. */
  version: number;
  generate: (options: { size: number }) => AsyncGenerator<Uint8Array>;
}

/**
 * The cached file's name: the shape, the size and the generator version, so a new generator
 * regenerates.
 *
 * @example
 * ```ts
 * logFileName(1024); // 'multi-service-1024-v1.log'
 * ```
 */
export function logFileName(size: number, shape: LogShape = multiServiceLog): string {
  return `${shape.name}-${size}-v${shape.version}.log`;
}

/**
 * Returns the path of a deterministic log of about `size` bytes (it stops at the first line end
 * past `size`), generating it on first use and reusing the cached file after; of `shape`, by
 * default {@link multiServiceLog}.
 *
 * @example
 * ```ts
 * const path = await ensureLog({ size: 256 * 1024 * 1024 });
 * ```
 */
export async function ensureLog(options: {
  size: number;
  directory?: string;
  shape?: LogShape;
}): Promise<string> {
  const { size, shape = multiServiceLog } = options;
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new RangeError(`size must be a positive number of bytes, got ${size}`);
  }
  const directory = options.directory ?? dataDirectory;
  const path = join(directory, logFileName(size, shape));
  const cached = await stat(path).catch(() => undefined);
  if (cached?.isFile()) return path;
  await mkdir(directory, { recursive: true });
  // Write under a temporary name so an interrupted run never leaves a truncated cached log.
  const partialPath = `${path}.${process.pid}.partial`;
  try {
    await writeLog(partialPath, shape.generate({ size }));
    await rename(partialPath, path);
  } catch (error) {
    await rm(partialPath, { force: true });
    throw error;
  }
  return path;
}

async function writeLog(path: string, batches: AsyncIterable<Uint8Array>): Promise<void> {
  const stream = createWriteStream(path, { highWaterMark: batchBytes });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  for await (const batch of batches) {
    if (!stream.write(batch)) {
      await Promise.race([
        new Promise<void>((resolve) => stream.once('drain', () => resolve())),
        failed,
      ]);
    }
  }
  await Promise.race([new Promise<void>((resolve) => stream.end(resolve)), failed]);
}

/**
 * Streams the log {@link ensureLog} caches, in 4 MiB batches, without touching the disk: the
 * demo spools it as a tool's output would arrive. Same size, same bytes.
 *
 * @example
 * ```ts
 * const artifact = await spool(generateLog({ size: 256 * 1024 * 1024 }));
 * ```
 */
export function generateLog(options: { size: number }): AsyncGenerator<Uint8Array> {
  const pooled = new LogComposer(placeholderStamps, 0x5f00f);
  return generatePooledLog({
    size: options.size,
    seed: 0xb10c,
    pool: buildEntryPool(() => pooled.entry()),
    specialLines: (stamps) => scheduleSpecialLines(options.size, new LogComposer(stamps, 0x5ec1a1)),
  });
}

/**
 * The log every bench uses: ISO timestamps, INFO/DEBUG/WARN/ERROR levels, service names,
 * request ids, JSON lines, multi-line stack traces, a few ~100 KB lines and a few
 * {@link rareLiteral} lines.
 */
export const multiServiceLog: LogShape = {
  name: 'multi-service',
  version: generatorVersion,
  generate: generateLog,
};
