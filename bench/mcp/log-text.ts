import { createRandom } from '../shared/create-random.js';

const services = ['api-gateway', 'auth-service', 'billing', 'inventory', 'search', 'scheduler'];
const levels = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];
const paths = ['/v1/orders', '/v1/users', '/v1/invoices', '/v1/carts', '/v1/sessions'];
const blockLines = 1_000;

const hex = (fraction: number, digits: number) =>
  Math.floor(fraction * 16 ** digits)
    .toString(16)
    .padStart(digits, '0');

/** About 100 KiB of varied, deterministic log lines (ASCII, so one byte a character). */
function logBlock(): string {
  const random = createRandom(0x6d637031);
  const pick = <T>(list: readonly T[]) => list[(random() * list.length) | 0] as T;
  let milliseconds = Date.UTC(2024, 0, 1);
  const lines: string[] = [];
  for (let index = 0; index < blockLines; index++) {
    milliseconds += (random() * 40) | 0;
    // A draw has 32 random bits: two make the 12 hex digits of a request id.
    const requestId = `${hex(random(), 8)}${hex(random(), 4)}`;
    const status = pick([200, 200, 200, 201, 204, 404, 500, 503]);
    lines.push(
      `${new Date(milliseconds).toISOString()} ${pick(levels).padEnd(5)} ${pick(services)} ` +
        `req-${requestId} GET ${pick(paths)}/${(random() * 100_000) | 0} ${status} ` +
        `${(random() * 900) | 0}ms user=${(random() * 10_000) | 0}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Exactly `bytes` bytes of log text, ending with a line end: one block repeated, so even a
 * 200 MB result is built in milliseconds and its generation does not weigh on the upstream's
 * time.
 *
 * @example
 * ```ts
 * const text = logText(30_000_000); // text.length === 30_000_000
 * ```
 */
export function logText(bytes: number): string {
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new RangeError(`bytes: got ${bytes}`);
  const block = logBlock();
  const whole = Math.floor(bytes / block.length);
  const rest = bytes - whole * block.length;
  return block.repeat(whole) + (rest > 0 ? `${block.slice(0, rest - 1)}\n` : '');
}
