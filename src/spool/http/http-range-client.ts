import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { headerMapOf, withoutOriginBound } from './header-map.js';
import type { RangeClient } from './http-range-request.js';
import type { HttpSpoolReaderOptions } from './http-spool-reader-options.js';
import { nodeHttpSend } from './node-http-send.js';
import { fetchSend } from './range-response.js';
import { secretsOf } from './redact-secrets.js';
import { decodeUrlComponent, redactUrl } from './redact-url.js';

/**
 * How many of the URLs `options.requestUrl` or a redirect gave are kept out of errors: far more than the
 * requests one reader has in flight (a scan keeps `readAhead` of them), so a signer that signs
 * every request still has the URL of any request an error can quote redacted.
 */
const recentUrls = 1024;

/**
 * The {@link RangeClient} of a reader of `url` with `options`' defaults filled in; `onRequest`
 * counts requests. Requests go through `node:http`, or through `options.fetch` when given, to
 * `url` or to the URL `options.requestUrl` gives for each. A user
 * and password in the URL are sent as `Authorization: Basic` (fetch refuses a URL that carries
 * them), unless `options.headers` has an `Authorization` of its own.
 * Errors are scrubbed of the URL's credentials and of every header value; a header that cannot
 * be sent is `E_INVALID_ARGUMENT`, its value unquoted.
 *
 * @example
 * ```ts
 * const client = rangeClient('https://user:pw@logs.example.com/a.log', {}, () => count++);
 * ```
 */
export function rangeClient(
  url: string,
  options: HttpSpoolReaderOptions,
  onRequest: () => void,
): RangeClient {
  const label = redactUrl(url);
  const headers = headerMapOf(options.headers, label);
  const target = new URL(url);
  if (target.username || target.password) {
    if (!headers.has('authorization')) {
      const userPass = `${decodeUrlComponent(target.username)}:${decodeUrlComponent(target.password)}`;
      headers.set('authorization', `Basic ${Buffer.from(userPass).toString('base64')}`);
    }
  }
  // The URLs given lately (by requestUrl, or a redirect's Location), oldest first; their
  // secrets are worked out when an error needs them.
  const recent = new Set<string>();
  let secrets: string[] | undefined;
  const remember = (given: string) => {
    if (recent.has(given)) return;
    recent.add(given);
    if (recent.size > recentUrls) recent.delete(recent.values().next().value as string);
    secrets = undefined;
  };
  const send = options.fetch ? fetchSend(options.fetch) : nodeHttpSend(label, remember);
  const { requestUrl } = options;
  const urlOf = requestUrl
    ? async () => {
        const next = String(await requestUrl());
        remember(next);
        return withoutCredentials(next, label);
      }
    : () => withoutCredentials(url, label);
  return {
    label,
    get secrets() {
      secrets ??= secretsOf([url, ...recent], headers);
      return secrets;
    },
    send: async (requestHeaders, signal) => {
      onRequest();
      const next = await urlOf();
      // Credentials go to the reader's origin only, as across a redirect.
      const sameOrigin = next === url || new URL(next).origin === target.origin;
      return send(next, sameOrigin ? requestHeaders : withoutOriginBound(requestHeaders), signal);
    },
    headers,
    policy: {
      retries: options.retries ?? 4,
      retryDelay: options.retryDelay ?? 250,
      maxRetryDelay: options.maxRetryDelay ?? 10_000,
    },
    timeout: options.timeout ?? 30_000,
    wholeBodyLimit: options.wholeBodyLimit ?? 1024 * 1024,
  };
}

/**
 * `url` without its user and password (fetch refuses a URL that carries them; they go as
 * `Authorization`); not an http(s) URL, `E_INVALID_ARGUMENT` without quoting it.
 */
function withoutCredentials(url: string, label: string): string {
  const target = URL.canParse(url) ? new URL(url) : undefined;
  if (target?.protocol !== 'http:' && target?.protocol !== 'https:') {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `${label}: options.requestUrl gave something that is not an http(s) URL`,
    );
  }
  if (!target.username && !target.password) return url;
  target.username = '';
  target.password = '';
  return target.href;
}
