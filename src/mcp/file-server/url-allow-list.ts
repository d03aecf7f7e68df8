import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * The http(s) URL prefixes a file server may read. A URL is compared parsed, not as a string:
 * the same scheme, host and port as a prefix (so `https://logs.example.com.evil` is not under
 * `https://logs.example.com`), and its normalised path (`..` and `%2e%2e` resolved) equal to the
 * prefix's path or under it by whole segments (`/logs` allows `/logs/a.log`, not `/logs-old`),
 * compared decoded. A path with an encoded separator (`%2f`, `%5c`) or a segment that decodes to
 * a dot segment is refused: a server that decodes before it normalises would read
 * `/logs/..%2fsecret` as `/secret`. A URL carrying a user name or password is refused.
 *
 * @example
 * ```ts
 * const urls = new UrlAllowList(['https://logs.example.com/ci/']);
 * urls.check('https://logs.example.com/ci/run-7.log'); // 'https://logs.example.com/ci/run-7.log'
 * ```
 */
export class UrlAllowList {
  readonly #prefixes: readonly URL[];

  /** Each prefix must be an http(s) URL (`E_INVALID_ARGUMENT`). */
  constructor(prefixes: readonly string[]) {
    this.#prefixes = prefixes.map((prefix) => {
      const url = URL.canParse(prefix) ? new URL(prefix) : undefined;
      if (!url || !isHttp(url) || url.username || url.password || !decodedPath(url)) {
        throw new SpoolforgeError(
          'E_INVALID_ARGUMENT',
          `An allowed URL prefix must be an http(s) URL without credentials or encoded separators: ${JSON.stringify(prefix)}`,
        );
      }
      return url;
    });
  }

  /** The prefixes, normalised. */
  get prefixes(): readonly string[] {
    return this.#prefixes.map((prefix) => prefix.href);
  }

  /** The URL, normalised, when it is under a prefix; else `E_PATH_NOT_ALLOWED` naming them. */
  check(text: string): string {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url && isHttp(url) && !url.username && !url.password) {
      if (this.#prefixes.some((prefix) => isUnder(url, prefix))) return url.href;
    }
    const allowed = this.prefixes.join(', ') || 'none';
    throw new SpoolforgeError(
      'E_PATH_NOT_ALLOWED',
      `${JSON.stringify(quoteInput(text))} is not under the URL prefixes this server reads: ${allowed}`,
    );
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function isUnder(url: URL, prefix: URL): boolean {
  if (url.origin !== prefix.origin) return false;
  const path = decodedPath(url);
  const under = decodedPath(prefix);
  if (path === undefined || under === undefined) return false;
  return path === under || path.startsWith(under.endsWith('/') ? under : `${under}/`);
}

/**
 * The URL's path decoded, segment by segment; none when a segment decodes to a separator or a
 * dot segment (which a server decoding first would act on), or is not valid percent-encoding.
 */
function decodedPath(url: URL): string | undefined {
  const segments: string[] = [];
  for (const segment of url.pathname.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (/[/\\]/.test(decoded) || decoded === '.' || decoded === '..') return undefined;
    segments.push(decoded);
  }
  return segments.join('/');
}
