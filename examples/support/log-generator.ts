// A deterministic, realistic multi-service log, streamed: the demo spools it, the bench writes it.

/**
 * Options for {@link generateLog}.
 *
 * @example
 * ```ts
 * const options: GenerateLogOptions = { size: 64 * 1024 * 1024, seed: 7 };
 * ```
 */
export interface GenerateLogOptions {
  /** Approximate size in bytes (the last batch may overshoot by a few KiB). */
  size: number;
  seed?: number;
}

/**
 * Parses sizes like `512M`, `1G`, `4G`, `100K` or plain bytes.
 *
 * @example
 * ```ts
 * parseSize('1G'); // 1073741824
 * ```
 */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMG]?)i?B?$/i.exec(text.trim());
  if (!match) throw new Error(`Invalid size '${text}': use e.g. 256M, 1G`);
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(match[2] ?? '').toUpperCase()] ?? 1;
  return Math.round(Number(match[1]) * unit);
}

const services = ['api', 'auth', 'billing', 'search', 'worker', 'gateway'];
const paths = ['/v1/orders', '/v1/users/me', '/v1/search?q=shoes', '/healthz', '/v1/invoices'];

/**
 * Yields the log in ~1 MiB string batches: timestamps, levels, request ids, JSON payloads,
 * multi-line stack traces, rare `FATAL` lines and a few very long lines. Same seed, same bytes.
 *
 * @example
 * ```ts
 * const artifact = await spool(generateLog({ size: 256 * 1024 * 1024 }));
 * ```
 */
export async function* generateLog(options: GenerateLogOptions): AsyncGenerator<string> {
  let state = options.seed ?? 42;
  const random = () => {
    // mulberry32: small, fast and deterministic
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  let written = 0;
  let line = 0;
  let time = Date.UTC(2026, 10, 22, 0, 0, 0);
  while (written < options.size) {
    const batch: string[] = [];
    let batchSize = 0;
    while (batchSize < 1024 * 1024) {
      time += Math.floor(random() * 40);
      const stamp = new Date(time).toISOString();
      const service = pick(services);
      const request = `req-${(line * 2654435761) >>> 0}`;
      const roll = random();
      let text: string;
      if (roll < 0.00001)
        text = `${stamp} FATAL ${service} ${request} disk quota exceeded on /var/lib/${service}`;
      else if (roll < 0.00002)
        text = `${stamp} DEBUG ${service} ${request} payload ${'x'.repeat(100_000)}`;
      else if (roll < 0.002) {
        text = `${stamp} ERROR ${service} ${request} unhandled exception: TimeoutError: upstream timed out\n    at fetchUpstream (src/${service}/client.ts:88:11)\n    at async handle (src/${service}/handler.ts:41:5)`;
      } else if (roll < 0.2) {
        const status = random() < 0.05 ? 503 : 200;
        text = `${stamp} INFO ${service} ${request} ${JSON.stringify({ path: pick(paths), status, ms: Math.floor(random() * 900) })}`;
      } else {
        const status = random() < 0.01 ? 500 + Math.floor(random() * 4) : 200;
        text = `${stamp} ${random() < 0.1 ? 'WARN' : 'INFO'} ${service} ${request} GET ${pick(paths)} status=${status} ms=${Math.floor(random() * 300)}`;
      }
      batch.push(text);
      batchSize += text.length + 1;
      line++;
    }
    written += batchSize;
    yield `${batch.join('\n')}\n`;
  }
}
