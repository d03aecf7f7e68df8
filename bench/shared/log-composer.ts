/** The rare literal that `grep` rows look for; {@link LogComposer.rareLine} writes it. */
export const rareLiteral = 'FATAL_DISK_QUOTA';

/** Length of a {@link LogComposer.longLine}. */
const longLineBytes = 100 * 1024;

const services = [
  'api-gateway',
  'auth-service',
  'billing',
  'inventory',
  'search',
  'notification',
  'scheduler',
  'storage',
];
const resources = ['orders', 'users', 'invoices', 'products', 'carts', 'sessions', 'shipments'];
const jobs = ['nightly-report', 'reindex', 'purge-sessions', 'sync-ledger', 'send-digest'];
const cities = ['Zürich', 'São Paulo', 'Kraków', '東京', 'Berlin', 'Lagos', 'Montréal'];
const events = ['order.created', 'payment.captured', 'cart.updated', 'user.login', 'stock.low'];
const stackFrames = [
  'at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
  'at PgPool.acquire (/srv/app/node_modules/pg-pool/index.js:45:11)',
  'at async OrderRepository.findById (/srv/app/src/orders/order-repository.js:88:19)',
  'at async OrderService.capture (/srv/app/src/orders/order-service.js:142:7)',
  'at async Router.handle (/srv/app/node_modules/express/lib/router/index.js:284:9)',
  'at processTicksAndRejections (node:internal/process/task_queues:95:5)',
  'at Timeout._onTimeout (/srv/app/src/http/upstream-client.js:61:23)',
  'at listOnTimeout (node:internal/timers:573:17)',
];
const hexDigits = Buffer.from('0123456789abcdef');
const timestampPlaceholder = '0000-00-00T00:00:00.000Z';
/** Stands for a request id in pooled entries until {@link stampRequestId} overwrites it. */
export const requestIdPlaceholder = 'req-000000000000';
/**
 * Distinct entries to draw from; each copy gets a fresh timestamp and request id. A pool this
 * small stays in the CPU cache, which triples generation speed over a pool of 65,536.
 */
export const poolSize = 4096;

/**
 * A seeded generator of numbers in `[0, 1)` (mulberry32): tiny, fast and, unlike `Math.random`,
 * the same on every run.
 *
 * @example
 * ```ts
 * const random = createRandom(42);
 * const die = 1 + Math.floor(random() * 6);
 * ```
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

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
 * Composes log entries (one or more lines, each ending in `\n`) from a seeded generator.
 *
 * @example
 * ```ts
 * const composer = new LogComposer(stamps, 7);
 * const text = composer.entry() + composer.rareLine();
 * ```
 */
export class LogComposer {
  readonly #random: () => number;
  readonly #stamps: Stamps;

  constructor(stamps: Stamps, seed: number) {
    this.#stamps = stamps;
    this.#random = createRandom(seed);
  }

  integer(limit: number): number {
    return (this.#random() * limit) | 0;
  }

  pick<T>(values: readonly T[]): T {
    return values[this.integer(values.length)] as T;
  }

  prefix(level: string, service = this.pick(services)): string {
    return `${this.#stamps.timestamp()} ${level} [${service}] req=${this.#stamps.requestId()} `;
  }

  /** One ordinary entry: a text line, a JSON line, or an error with a stack trace. */
  entry(): string {
    const roll = this.integer(100);
    if (roll < 10) return this.jsonLine();
    if (roll < 66) return this.prefix('INFO ') + this.infoMessage();
    if (roll < 86) return this.prefix('DEBUG') + this.debugMessage();
    if (roll < 95) return this.prefix('WARN ') + this.warnMessage();
    const error = this.prefix('ERROR') + this.errorMessage();
    return this.integer(4) === 0 ? error + this.stackTrace() : error;
  }

  infoMessage(): string {
    const resource = this.pick(resources);
    switch (this.integer(5)) {
      case 0:
        return `GET /api/v1/${resource}/${this.integer(100000)} 200 ${this.integer(400)}ms\n`;
      case 1:
        return `POST /api/v1/${resource} 201 ${this.integer(900)}ms\n`;
      case 2:
        return `user ${this.integer(50000)} signed in from 10.${this.integer(256)}.${this.integer(256)}.${this.integer(256)}\n`;
      case 3:
        return `cache hit ratio ${this.integer(100)}% for ${resource}\n`;
      default:
        return `job ${this.pick(jobs)} completed in ${this.integer(60000)}ms\n`;
    }
  }

  debugMessage(): string {
    switch (this.integer(3)) {
      case 0:
        return `query SELECT * FROM ${this.pick(resources)} WHERE id = ${this.integer(100000)} took ${this.integer(80)}ms\n`;
      case 1:
        return `feature flag new-checkout=${this.integer(2) === 0} for tenant ${this.integer(900)}\n`;
      default:
        return `retry budget ${this.integer(10)}/10 for ${this.pick(services)}\n`;
    }
  }

  warnMessage(): string {
    switch (this.integer(3)) {
      case 0:
        return `slow response from ${this.pick(services)}: ${500 + this.integer(4000)}ms (threshold 500ms)\n`;
      case 1:
        return `deprecated header X-Api-Version used by client ${this.integer(3000)}\n`;
      default:
        return `connection pool at ${60 + this.integer(40)}% capacity, waiting for timeout\n`;
    }
  }

  errorMessage(): string {
    switch (this.integer(5)) {
      case 0:
        return `upstream ${this.pick(services)} request timeout after ${1000 + this.integer(9000)}ms\n`;
      case 1:
        return `failed to charge card for order ${this.integer(100000)}: card_declined\n`;
      case 2:
        return `database connection reset by peer (attempt ${1 + this.integer(5)})\n`;
      case 3:
        return `unhandled rejection in ${this.pick(jobs)}: socket hang up\n`;
      default:
        return `read timeout on ${this.pick(resources)} shard ${this.integer(64)}\n`;
    }
  }

  stackTrace(): string {
    let trace = `Error: connect ETIMEDOUT 10.0.${this.integer(256)}.${this.integer(256)}:5432\n`;
    const depth = 4 + this.integer(10);
    for (let frame = 0; frame < depth; frame++) trace += `    ${this.pick(stackFrames)}\n`;
    return this.integer(3) === 0 ? `${trace}Caused by: socket hang up\n` : trace;
  }

  jsonLine(alert = 'none'): string {
    return (
      `{"ts":"${this.#stamps.timestamp()}","level":"info","service":"${this.pick(services)}",` +
      `"requestId":"${this.#stamps.requestId()}","event":"${this.pick(events)}",` +
      `"durationMs":${this.integer(2000)},"user":{"id":${this.integer(50000)},` +
      `"city":"${this.pick(cities)}"},"items":${this.integer(20)},"alert":"${alert}"}\n`
    );
  }

  rareLine(): string {
    const used = 1000 + this.integer(24);
    return `${this.prefix('ERROR', 'storage')}${rareLiteral} exceeded on volume /data/${this.integer(16)}: ${used} GiB of 1000 GiB used\n`;
  }

  /** A DEBUG line holding a response body of about `longLineBytes`, on one line. */
  longLine(): string {
    const items: string[] = [];
    let length = 0;
    while (length < longLineBytes) {
      const item = `{"id":${this.integer(1e6)},"score":${this.integer(1000) / 1000},"title":"${this.pick(resources)} #${this.integer(1e9)}"}`;
      items.push(item);
      length += item.length + 1;
    }
    return `${this.prefix('DEBUG', 'search')}response body: {"results":[${items.join(',')}]}\n`;
  }
}

/**
 * Entries encoded once, with where each one's timestamp and request id go.
 *
 * @example
 * ```ts
 * const { entries, timestampOffsets } = buildEntryPool();
 * ```
 */
export interface EntryPool {
  entries: Uint8Array[];
  timestampOffsets: Int32Array;
  requestIdOffsets: Int32Array;
}

/**
 * Composes {@link poolSize} entries with placeholder stamps. Copying pre-encoded entries and
 * stamping them is what makes generation fast: composing every line as a string costs
 * microseconds, mostly in the garbage collector.
 *
 * @example
 * ```ts
 * const pool = buildEntryPool();
 * batch.set(pool.entries[0], 0);
 * ```
 */
export function buildEntryPool(): EntryPool {
  const composer = new LogComposer(
    { timestamp: () => timestampPlaceholder, requestId: () => requestIdPlaceholder },
    0x5f00f,
  );
  const entries = Array.from(
    { length: poolSize },
    () => new Uint8Array(Buffer.from(composer.entry())),
  );
  const timestampOffsets = new Int32Array(poolSize);
  const requestIdOffsets = new Int32Array(poolSize);
  entries.forEach((entry, index) => {
    const bytes = Buffer.from(entry.buffer, entry.byteOffset, entry.length);
    timestampOffsets[index] = bytes.indexOf(timestampPlaceholder);
    requestIdOffsets[index] = bytes.indexOf(requestIdPlaceholder) + 'req-'.length;
  });
  return { entries, timestampOffsets, requestIdOffsets };
}
