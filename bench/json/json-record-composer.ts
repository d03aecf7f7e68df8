import { createRandom } from '../shared/create-random.js';

const services = ['api-gateway', 'auth', 'billing', 'inventory', 'search', 'notification'];
const resources = ['orders', 'users', 'invoices', 'products', 'carts', 'sessions', 'shipments'];
const methods = ['GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE'];
const regions = ['eu-west-1', 'us-east-1', 'ap-northeast-1', 'sa-east-1'];
const extraTags = ['canary', 'retry', 'mobile', 'web', 'batch', 'internal', 'beta'];
const userNames = [
  'Ana Souza',
  'Jürgen Müller',
  'Zoë Kowalski',
  '田中 花子',
  'Olúmìdé Adébáyọ̀',
  'François Côté',
  'Priya Natarajan',
  'Bob "Bobby" Tables',
];
const errorKinds = [
  { code: 'UPSTREAM_TIMEOUT', message: 'upstream did not answer within 5000 ms' },
  { code: 'DB_POOL_EXHAUSTED', message: 'no connection available in pool "orders-primary"' },
  { code: 'VALIDATION_FAILED', message: "field 'quantity' must be a positive integer" },
  { code: 'RATE_LIMITED', message: 'too many requests for key\tapi-key-7f3a' },
  { code: 'NOT_FOUND', message: 'resource not found' },
];
/** Cumulative status weights, in per mille: about 2 % are 5xx, 7.5 % 4xx. */
const statusWeights: [status: number, cumulative: number][] = [
  [200, 850],
  [201, 880],
  [204, 900],
  [304, 925],
  [400, 950],
  [401, 960],
  [404, 990],
  [429, 995],
  [500, 997],
  [502, 998],
  [503, 999],
  [504, 1000],
];
/** One record in this many carries a long string (a captured response body). */
const longStringEvery = 20_000;
const longStringFiller =
  'Lorem ipsum dolor sit amet, «consectetur» adipiscing elit; sed do eiusmod tempor — ';

/**
 * What the generator knows about the records it wrote, to check the answers against.
 *
 * @example
 * ```ts
 * const facts: RecordFacts = { recordCount: 4, serverErrorCount: 1, hundredthServerErrorId: -1 };
 * ```
 */
export interface RecordFacts {
  recordCount: number;
  /** Records with `status >= 500`. */
  serverErrorCount: number;
  /** The id of the 100th `status >= 500` record (the last of `limit: 100`), or -1. */
  hundredthServerErrorId: number;
}

/**
 * Composes realistic API log records as JSON text, deterministically from a seed: sequential
 * ids (so a slice's answer is checkable), ISO timestamps, mostly-200 statuses, a user or null,
 * tags, a nested `error` on failures, escaped quotes and non-ASCII names, and now and then a
 * long string.
 *
 * @example
 * ```ts
 * const composer = new JsonRecordComposer(0x150);
 * const text = composer.next(); // '{"id":0,"timestamp":"2024-01-01T00:00:00.000Z",…}'
 * ```
 */
export class JsonRecordComposer {
  readonly facts: RecordFacts = { recordCount: 0, serverErrorCount: 0, hundredthServerErrorId: -1 };
  readonly #random: () => number;
  #milliseconds = Date.UTC(2024, 0, 1);

  constructor(seed: number) {
    this.#random = createRandom(seed);
  }

  /** The next record's JSON text (no trailing separator). */
  next(): string {
    const id = this.facts.recordCount++;
    this.#milliseconds += (this.#random() * 40) | 0;
    const status = this.#status();
    if (status >= 500 && ++this.facts.serverErrorCount === 100) {
      this.facts.hundredthServerErrorId = id;
    }
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : this.#pick(['info', 'debug']);
    const resource = this.#pick(resources);
    const latency = (this.#random() * (status >= 500 ? 5000 : 300)).toFixed(1);
    const user = this.#random() < 0.15 ? 'null' : this.#user();
    const fields = [
      `"id":${id}`,
      `"timestamp":"${new Date(this.#milliseconds).toISOString()}"`,
      `"level":"${level}"`,
      `"service":"${this.#pick(services)}"`,
      `"status":${status}`,
      `"latency_ms":${latency}`,
      `"method":"${this.#pick(methods)}"`,
      `"path":"/api/v1/${resource}/${(this.#random() * 1e6) | 0}"`,
      `"user":${user}`,
      `"tags":${this.#tags()}`,
    ];
    if (status >= 500 || (status >= 400 && this.#random() < 0.3)) fields.push(this.#error());
    if (id % longStringEvery === longStringEvery - 1) fields.push(this.#longString());
    return `{${fields.join(',')}}`;
  }

  #pick<T>(values: readonly T[]): T {
    return values[(this.#random() * values.length) | 0] as T;
  }

  #status(): number {
    const draw = this.#random() * 1000;
    return statusWeights.find(([, cumulative]) => draw < cumulative)?.[0] ?? 200;
  }

  #user(): string {
    const name = JSON.stringify(this.#pick(userNames));
    return `{"id":"u_${(this.#random() * 1e5) | 0}","name":${name}}`;
  }

  #tags(): string {
    const tags = [this.#pick(regions)];
    const extra = (this.#random() * 3) | 0;
    for (let count = 0; count < extra; count++) tags.push(this.#pick(extraTags));
    return JSON.stringify(tags);
  }

  #error(): string {
    const kind = this.#pick(errorKinds);
    const upstream = `{"service":"${this.#pick(services)}","attempt":${1 + ((this.#random() * 3) | 0)}}`;
    return `"error":{"code":"${kind.code}","message":${JSON.stringify(kind.message)},"retryable":${this.#random() < 0.5},"upstream":${upstream}}`;
  }

  /** 16-64 KiB of text, as a tool that captures response bodies would log it. */
  #longString(): string {
    const length = (16 + this.#random() * 48) * 1024;
    const body = longStringFiller.repeat(Math.ceil(length / longStringFiller.length));
    return `"response_body":${JSON.stringify(body.slice(0, length))}`;
  }
}
