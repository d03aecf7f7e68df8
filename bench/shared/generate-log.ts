import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirectory } from './bench-paths.js';
import {
  buildEntryPool,
  Clock,
  createRandom,
  LogComposer,
  poolSize,
  rareLiteral,
  requestIdPlaceholder,
  stampRequestId,
} from './log-composer.js';

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

/** Big batches keep per-write overhead negligible; the stream still applies back-pressure. */
const batchBytes = 4 * 1024 * 1024;

/** Special lines, each due once the output passes `at` bytes. */
function scheduleSpecialLines(size: number) {
  return [
    ...[
      ...rareLinePositions.map((fraction) => fraction * size),
      size / 2 + nearbyRareLineDistance,
    ].map((at) => ({ at, compose: (composer: LogComposer) => composer.rareLine() })),
    ...longLinePositions.map((fraction) => ({
      at: fraction * size,
      compose: (composer: LogComposer) => composer.longLine(),
    })),
    {
      at: lowerCaseRarePosition * size,
      compose: (composer: LogComposer) => composer.jsonLine(rareLiteral.toLowerCase()),
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
 * The cached file's name: the size and the generator version, so a new generator regenerates.
 *
 * @example
 * ```ts
 * logFileName(1024); // 'multi-service-1024-v1.log'
 * ```
 */
export function logFileName(size: number): string {
  return `multi-service-${size}-v${generatorVersion}.log`;
}

/**
 * Returns the path of a deterministic multi-service log of about `size` bytes (it stops at the
 * first line end past `size`), generating it on first use and reusing the cached file after.
 * The log has ISO timestamps, INFO/DEBUG/WARN/ERROR levels, service names, request ids, JSON
 * lines, multi-line stack traces, a few ~100 KB lines and a few {@link rareLiteral} lines.
 *
 * @example
 * ```ts
 * const path = await ensureLog({ size: 256 * 1024 * 1024 });
 * ```
 */
export async function ensureLog(options: { size: number; directory?: string }): Promise<string> {
  const { size } = options;
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new RangeError(`size must be a positive number of bytes, got ${size}`);
  }
  const directory = options.directory ?? dataDirectory;
  const path = join(directory, logFileName(size));
  const cached = await stat(path).catch(() => undefined);
  if (cached?.isFile()) return path;
  await mkdir(directory, { recursive: true });
  // Write under a temporary name so an interrupted run never leaves a truncated cached log.
  const partialPath = `${path}.${process.pid}.partial`;
  try {
    await writeLog(partialPath, size);
    await rename(partialPath, path);
  } catch (error) {
    await rm(partialPath, { force: true });
    throw error;
  }
  return path;
}

async function writeLog(path: string, size: number): Promise<void> {
  const stream = createWriteStream(path, { highWaterMark: batchBytes });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  for await (const batch of generateLog({ size })) {
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
export async function* generateLog(options: { size: number }): AsyncGenerator<Uint8Array> {
  const { size } = options;
  const random = createRandom(0xb10c);
  const clock = new Clock();
  const pool = buildEntryPool();
  const requestId = Buffer.from(requestIdPlaceholder);
  const specialComposer = new LogComposer(
    {
      timestamp: () => clock.text(),
      requestId: () => {
        stampRequestId(requestId, 4, random);
        return requestId.toString('latin1');
      },
    },
    0x5ec1a1,
  );
  const specialLines = scheduleSpecialLines(size);
  let nextSpecial = 0;
  let flushed = 0;
  let batch = Buffer.allocUnsafe(batchBytes);
  let used = 0;
  while (flushed + used < size) {
    clock.advance(random);
    const special = specialLines[nextSpecial];
    const isSpecial = special !== undefined && flushed + used >= special.at;
    const text = isSpecial ? special.compose(specialComposer) : undefined;
    const entry = isSpecial ? 0 : (random() * poolSize) | 0;
    const bytes = pool.entries[entry] as Uint8Array;
    const needed = text === undefined ? bytes.length : text.length * 3;
    if (needed > batch.length - used) {
      yield batch.subarray(0, used);
      flushed += used;
      // The consumer may still hold the old batch, so the next one is a new buffer.
      batch = Buffer.allocUnsafe(batchBytes);
      used = 0;
    }
    if (text !== undefined) {
      nextSpecial++;
      used += batch.write(text, used);
      continue;
    }
    // TypedArray#set is a builtin memmove; Buffer#copy crosses into C++ on every small copy.
    batch.set(bytes, used);
    clock.stamp(batch, used + (pool.timestampOffsets[entry] ?? 0));
    stampRequestId(batch, used + (pool.requestIdOffsets[entry] ?? 0), random);
    used += bytes.length;
  }
  if (used > 0) yield batch.subarray(0, used);
}
