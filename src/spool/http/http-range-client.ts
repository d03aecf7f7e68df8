import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { RangeClient } from './http-range-request.js';
import type { HttpSpoolReaderOptions } from './http-spool-reader-options.js';
import { nodeHttpSend } from './node-http-send.js';
import { fetchSend } from './range-response.js';
import { secretsOf } from './redact-secrets.js';
import { decodeUrlComponent, redactUrl } from './redact-url.js';

/**
 * The {@link RangeClient} of a reader of `url` with `options`' defaults filled in; `onRequest`
 * counts requests. Requests go through `node:http`, or through `options.fetch` when given. A user
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
  const headers = headersOf(options, label);
  const target = new URL(url);
  let fetched = url;
  if (target.username || target.password) {
    if (!headers.has('authorization')) {
      const userPass = `${decodeUrlComponent(target.username)}:${decodeUrlComponent(target.password)}`;
      headers.set('authorization', `Basic ${Buffer.from(userPass).toString('base64')}`);
    }
    target.username = '';
    target.password = '';
    fetched = target.href;
  }
  const send = options.fetch ? fetchSend(options.fetch) : nodeHttpSend(label);
  return {
    url: fetched,
    label,
    secrets: secretsOf(url, headers),
    send: (input, requestHeaders, signal) => {
      onRequest();
      return send(input, requestHeaders, signal);
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

/** `options.headers` as `Headers`; the TypeError for an invalid one would quote its value. */
function headersOf(options: HttpSpoolReaderOptions, label: string): Headers {
  try {
    return new Headers(options.headers);
  } catch {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `${label}: options.headers has an invalid header name or value`,
    );
  }
}
