import { SeededComposer } from '../shared/seeded-composer.js';

/** The rare literal of the access log's error lines; {@link AccessLogComposer.checksumLine}. */
export const checksumLiteral = 'bad checksum';

const hosts = ['shop.example.com', 'api.example.com', 'cdn.example.com', 'admin.example.com'];
const subnets = ['203.0.113', '198.51.100', '192.0.2', '100.64.7'];
const users = ['alice', 'bob', 'svc-backup', 'carol'];
const methods = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE'];
const products = ['shoes', 'jackets', 'cartridges', 'lamps', 'tents', 'kettles'];
const searchTerms = ['rain+jacket', 'led+lamp', 'cart+wheels', 'tent+4p', 'espresso', 'socks'];
const referers = [
  '-',
  '-',
  'https://shop.example.com/',
  'https://shop.example.com/cart',
  'https://www.google.com/',
  'https://duckduckgo.com/',
];
const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'python-requests/2.31.0',
  'curl/8.5.0',
  'kube-probe/1.29',
];
const caches = ['HIT', 'HIT', 'MISS', 'MISS', 'BYPASS', 'EXPIRED', '-'];
/** Weighted: mostly 200, some redirects, 404s, client aborts (499) and a few 5xx. */
const statuses = [
  200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 304, 301, 302,
  404, 404, 499, 200, 201, 204, 500, 502, 503, 504, 400,
];

/**
 * Composes the lines of an nginx-style log: access lines (combined format followed by
 * `key=value` timings, the upstream's status, a request id and the cache status) with the
 * server's error log lines mixed in, as a container's merged output shows them. Lines are
 * 150–400 bytes, a few GraphQL GETs several KB; the vocabulary is HTTP's, not the multi-service
 * log's.
 *
 * @example
 * ```ts
 * const composer = new AccessLogComposer(placeholderStamps, 7);
 * const line = composer.entry();
 * ```
 */
export class AccessLogComposer extends SeededComposer {
  /** One ordinary line: mostly access lines, 4 in 100 from the error log. */
  entry(): string {
    const roll = this.integer(100);
    if (roll < 3) return this.errorLine();
    if (roll < 4) return this.warnLine();
    return this.accessLine();
  }

  address(): string {
    return `${this.pick(subnets)}.${1 + this.integer(254)}`;
  }

  upstream(): string {
    return `10.0.${this.integer(8)}.${10 + this.integer(20)}:8080`;
  }

  path(): string {
    switch (this.integer(9)) {
      case 0:
        return `/api/v2/products/${this.integer(90000)}?page=${1 + this.integer(20)}`;
      case 1:
        return `/api/v2/carts/${this.integer(500000)}/items`;
      case 2:
        return `/static/js/app.${this.integer(0xffffff).toString(16)}.js`;
      case 3:
        return `/images/${this.pick(products)}/${this.integer(90000)}_640.webp`;
      case 4:
        return `/search?q=${this.pick(searchTerms)}&sort=price_asc`;
      case 5:
        return '/cart';
      case 6:
        return `/checkout/confirm?order=${this.integer(1e6)}`;
      case 7:
        return this.integer(40) === 0 ? this.graphqlPath() : '/healthz';
      default:
        return `/api/v2/${this.pick(products)}?limit=${10 * (1 + this.integer(10))}`;
    }
  }

  /** A GraphQL query in the URL: lines of several KB among lines of hundreds of bytes. */
  graphqlPath(): string {
    const fields = Array.from({ length: 40 + this.integer(160) }, () => this.pick(products));
    return `/graphql?query=%7Bproducts(first%3A50)%7B${fields.join('%20')}%7D%7D`;
  }

  accessLine(path = this.path(), userAgent = this.pick(userAgents), status = this.pick(statuses)) {
    const user = this.integer(10) === 0 ? this.pick(users) : '-';
    const protocol = this.integer(2) === 0 ? 'HTTP/2.0' : 'HTTP/1.1';
    const seconds = (this.integer(2000) / 1000).toFixed(3);
    const upstreamStatus = path.startsWith('/static') || path.startsWith('/images') ? '-' : status;
    return (
      `${this.address()} - ${user} [${this.stamps.timestamp()}] "${this.pick(methods)} ${path} ${protocol}" ` +
      `${status} ${this.integer(90000)} "${this.pick(referers)}" "${userAgent}" rt=${seconds} ` +
      `upstream=${this.upstream()} upstream_status=${upstreamStatus} ` +
      `rid=${this.stamps.requestId()} cache=${this.pick(caches)}\n`
    );
  }

  /** The part every error log line ends with: which client, server and request. */
  context(path = this.path()): string {
    const host = this.pick(hosts);
    return `client: ${this.address()}, server: ${host}, request: "GET ${path} HTTP/1.1", host: "${host}"\n`;
  }

  prefix(level: string): string {
    return `${this.stamps.timestamp()} [${level}] 31#31: *${this.integer(9000000)} `;
  }

  errorLine(): string {
    const path = this.path();
    switch (this.integer(3)) {
      case 0:
        return `${this.prefix('error')}upstream timed out (110: Connection timed out) while reading response header from upstream, upstream: "http://${this.upstream()}${path}", ${this.context(path)}`;
      case 1:
        return `${this.prefix('error')}connect() failed (111: Connection refused) while connecting to upstream, upstream: "http://${this.upstream()}${path}", ${this.context(path)}`;
      default:
        return `${this.prefix('error')}open() "/usr/share/nginx/html/favicon.ico" failed (2: No such file or directory), ${this.context('/favicon.ico')}`;
    }
  }

  warnLine(): string {
    if (this.integer(2) === 0) {
      return `${this.prefix('warn')}upstream server temporarily disabled while reading response header from upstream, ${this.context()}`;
    }
    const file = `${this.integer(10)}/${10 + this.integer(90)}/${String(this.integer(1e10)).padStart(10, '0')}`;
    return `${this.prefix('warn')}an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/${file} while reading upstream, ${this.context()}`;
  }

  /** A rare error line: a cache file failing its {@link checksumLiteral}. */
  checksumLine(): string {
    const file = `${this.integer(10)}/${this.integer(0xff).toString(16)}/${this.integer(0xffffff).toString(16)}`;
    return `${this.prefix('error')}cache file "/var/cache/nginx/${file}" has a ${checksumLiteral}, ${this.context()}`;
  }

  /** A rare access line: a scanner probing for WordPress; `shout` writes its name in capitals. */
  scannerLine(shout = false): string {
    const name = shout ? 'SQLMAP' : 'sqlmap';
    return this.accessLine(
      `/wp-login.php?id=${this.integer(100)}%27%20OR%201%3D1`,
      `${name}/1.7.2#stable (https://sqlmap.org)`,
      404,
    );
  }
}
