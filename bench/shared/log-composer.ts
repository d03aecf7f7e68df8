import { SeededComposer } from './seeded-composer.js';

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

/**
 * Composes log entries (one or more lines, each ending in `\n`) from a seeded generator.
 *
 * @example
 * ```ts
 * const composer = new LogComposer(stamps, 7);
 * const text = composer.entry() + composer.rareLine();
 * ```
 */
export class LogComposer extends SeededComposer {
  prefix(level: string, service = this.pick(services)): string {
    return `${this.stamps.timestamp()} ${level} [${service}] req=${this.stamps.requestId()} `;
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
      `{"ts":"${this.stamps.timestamp()}","level":"info","service":"${this.pick(services)}",` +
      `"requestId":"${this.stamps.requestId()}","event":"${this.pick(events)}",` +
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
