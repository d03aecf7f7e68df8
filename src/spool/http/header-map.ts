import { validateHeaderName, validateHeaderValue } from 'node:http';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { HttpSpoolReaderOptions } from './http-spool-reader-options.js';

/**
 * Request headers by lower-case name, repeated names joined with `, `, as `Headers` keeps them.
 * A plain map: the first `Headers` of a process loads fetch's implementation, about 30 ms of a
 * command's start-up that the `node:http` path has no other use for.
 */
export type HeaderMap = Map<string, string>;

/** Credentials fetch does not send on to another origin. */
const originBoundHeaders = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * `headers` without the credentials fetch keeps to their origin (`Authorization`,
 * `Proxy-Authorization`, `Cookie`): what a request to another origin than the reader's gets.
 *
 * @example
 * ```ts
 * withoutOriginBound(new Map([['authorization', 'Basic YTpi'], ['range', 'bytes=0-9']]));
 * // Map { 'range' => 'bytes=0-9' }
 * ```
 */
export function withoutOriginBound(headers: HeaderMap): HeaderMap {
  const sent = new Map(headers);
  for (const name of originBoundHeaders) sent.delete(name);
  return sent;
}

/** The whitespace `Headers` strips from both ends of a value. */
const edgeWhitespace = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * `init` (a record, `[name, value]` pairs or a `Headers`) as a {@link HeaderMap}, each value
 * without the whitespace at its ends. A name or value that cannot be sent is
 * `E_INVALID_ARGUMENT` naming `label` and never the value, which may be a secret.
 *
 * @example
 * ```ts
 * headerMapOf({ Authorization: 'Bearer t0k3n' }, 'https://logs.example.com/a.log');
 * // Map { 'authorization' => 'Bearer t0k3n' }
 * ```
 */
export function headerMapOf(init: HttpSpoolReaderOptions['headers'], label: string): HeaderMap {
  const headers: HeaderMap = new Map();
  if (init === undefined) return headers;
  const pairs: Iterable<readonly unknown[]> =
    Symbol.iterator in init ? (init as Iterable<readonly unknown[]>) : Object.entries(init);
  for (const pair of pairs) {
    const [name, raw] = pair;
    const value = String(raw).replace(edgeWhitespace, '');
    if (pair.length !== 2 || typeof name !== 'string' || !sendable(name, value)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `${label}: options.headers has an invalid header name or value`,
      );
    }
    const key = name.toLowerCase();
    const earlier = headers.get(key);
    headers.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return headers;
}

/** Whether `node:http` accepts the header (its checks throw on a bad name or value). */
function sendable(name: string, value: string): boolean {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}
