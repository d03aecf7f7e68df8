import { createRandom } from './create-random.js';

const hexDigits = Buffer.from('0123456789abcdef');
/** Stands for a timestamp in pooled entries until {@link Clock.stamp} overwrites it. */
export const timestampPlaceholder = '0000-00-00T00:00:00.000Z';
/** Stands for a request id in pooled entries until {@link stampRequestId} overwrites it. */
export const requestIdPlaceholder = 'req-000000000000';
/**
 * Distinct entries to draw from; each copy gets a fresh timestamp and request id. A pool this
 * small stays in the CPU cache, which triples generation speed over a pool of 65,536.
 */
export const poolSize = 4096;

/**
 * Log time: moves forward 0-3 ms per entry from 2024-01-01T00:00:00Z, and writes itself over a
 * timestamp placeholder in place.
 *
 * @example
 * ```ts
 * clock.advance(random);
 * clock.stamp(batch, lineStart); // 2024-01-01T00:00:00.003Z
 * ```
 */
export class Clock {
  #milliseconds = Date.UTC(2024, 0, 1);
  #second = -1;
  #secondPrefix = Buffer.alloc(19);

  advance(random: () => number): void {
    this.#milliseconds += (random() * 4) | 0;
    const second = Math.floor(this.#milliseconds / 1000);
    if (second !== this.#second) {
      // toISOString is slow; it runs once per second of log time, not once per line.
      this.#second = second;
      this.#secondPrefix.write(new Date(second * 1000).toISOString().slice(0, 19), 'latin1');
    }
  }

  /** Overwrites a {@link timestampPlaceholder} at `position`. */
  stamp(target: Uint8Array, position: number): void {
    // A byte loop: Buffer#copy's call into C++ costs more than 19 bytes are worth.
    const prefix = this.#secondPrefix;
    for (let index = 0; index < 19; index++) target[position + index] = prefix[index] ?? 0;
    const fraction = this.#milliseconds % 1000;
    target[position + 20] = 48 + Math.floor(fraction / 100);
    target[position + 21] = 48 + (Math.floor(fraction / 10) % 10);
    target[position + 22] = 48 + (fraction % 10);
  }

  text(): string {
    const target = Buffer.from(timestampPlaceholder, 'latin1');
    this.stamp(target, 0);
    return target.toString('latin1');
  }
}

/**
 * Overwrites the 12 hex digits of a request id (the part after `req-`) at `position`.
 *
 * @example
 * ```ts
 * stampRequestId(batch, lineStart + requestIdOffset, random);
 * ```
 */
export function stampRequestId(target: Uint8Array, position: number, random: () => number): void {
  for (let half = 0; half < 2; half++) {
    let bits = (random() * 0x1000000) | 0;
    for (let digit = 0; digit < 6; digit++, bits >>>= 4) {
      target[position + half * 6 + digit] = hexDigits[bits & 15] ?? 0;
    }
  }
}

/**
 * What entries are stamped with: placeholders in the pool, real values in special lines.
 *
 * @example
 * ```ts
 * const stamps: Stamps = { timestamp: () => clock.text(), requestId: () => 'req-0123456789ab' };
 * ```
 */
export interface Stamps {
  timestamp(): string;
  requestId(): string;
}

/**
 * Entries encoded once, with where each one's timestamp and request id go.
 *
 * @example
 * ```ts
 * const { entries, timestampOffsets } = buildEntryPool(() => composer.entry());
 * ```
 */
export interface EntryPool {
  entries: Uint8Array[];
  timestampOffsets: Int32Array;
  /** Where the hex digits of an entry's request id start; -1 when it has none. */
  requestIdOffsets: Int32Array;
}

/** The stamps of pooled entries: placeholders, overwritten in each copy. */
export const placeholderStamps: Stamps = {
  timestamp: () => timestampPlaceholder,
  requestId: () => requestIdPlaceholder,
};

/**
 * Encodes {@link poolSize} entries composed with {@link placeholderStamps}. Copying
 * pre-encoded entries and stamping them is what makes generation fast: composing every line as
 * a string costs microseconds, mostly in the garbage collector.
 *
 * @example
 * ```ts
 * const composer = new LogComposer(placeholderStamps, 0x5f00f);
 * const pool = buildEntryPool(() => composer.entry());
 * ```
 */
export function buildEntryPool(entry: () => string): EntryPool {
  const entries = Array.from({ length: poolSize }, () => new Uint8Array(Buffer.from(entry())));
  const timestampOffsets = new Int32Array(poolSize);
  const requestIdOffsets = new Int32Array(poolSize);
  entries.forEach((bytes, index) => {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    timestampOffsets[index] = text.indexOf(timestampPlaceholder);
    const requestId = text.indexOf(requestIdPlaceholder);
    requestIdOffsets[index] = requestId === -1 ? -1 : requestId + 'req-'.length;
  });
  return { entries, timestampOffsets, requestIdOffsets };
}

/**
 * A special line of a pooled log: composed once the output passes `at` bytes.
 *
 * @example
 * ```ts
 * const line: ScheduledLine = { at: size / 2, compose: () => composer.rareLine() };
 * ```
 */
export interface ScheduledLine {
  at: number;
  compose: () => string;
}

/**
 * What a pooled log is made of.
 *
 * @example
 * ```ts
 * const recipe: PooledLogRecipe = { size, seed: 0xb10c, pool, specialLines: () => [] };
 * ```
 */
export interface PooledLogRecipe {
  /** Bytes to write; the log stops at the first line end past it. */
  size: number;
  /** Seeds which entry comes next, the clock and the request ids. */
  seed: number;
  pool: EntryPool;
  /** The special lines, sorted by `at`, given the stamps of the log's clock and ids. */
  specialLines: (stamps: Stamps) => ScheduledLine[];
}

/** Big batches keep per-write overhead negligible; a stream still applies back-pressure. */
export const batchBytes = 4 * 1024 * 1024;

/**
 * Streams a log in {@link batchBytes} batches: pooled entries drawn at random, each stamped
 * with the clock's time and a fresh request id, and the special lines where they are due.
 * Deterministic: the same recipe gives the same bytes.
 *
 * @example
 * ```ts
 * for await (const batch of generatePooledLog(recipe)) stream.write(batch);
 * ```
 */
export async function* generatePooledLog(recipe: PooledLogRecipe): AsyncGenerator<Uint8Array> {
  const { size, pool } = recipe;
  const random = createRandom(recipe.seed);
  const clock = new Clock();
  const requestId = Buffer.from(requestIdPlaceholder);
  const specialLines = recipe.specialLines({
    timestamp: () => clock.text(),
    requestId: () => {
      stampRequestId(requestId, 4, random);
      return requestId.toString('latin1');
    },
  });
  let nextSpecial = 0;
  let flushed = 0;
  let batch = Buffer.allocUnsafe(batchBytes);
  let used = 0;
  while (flushed + used < size) {
    clock.advance(random);
    const special = specialLines[nextSpecial];
    const isSpecial = special !== undefined && flushed + used >= special.at;
    const text = isSpecial ? special.compose() : undefined;
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
    const requestIdOffset = pool.requestIdOffsets[entry] ?? -1;
    if (requestIdOffset >= 0) stampRequestId(batch, used + requestIdOffset, random);
    used += bytes.length;
  }
  if (used > 0) yield batch.subarray(0, used);
}
