/**
 * Options for an {@link HttpSpoolReader}.
 */
export interface HttpSpoolReaderOptions {
  /**
   * Sent with every request (authorization, cookies, API keys). An `Authorization` here wins
   * over a user and password in the URL. Every value counts as a secret: errors never show it.
   */
  headers?: ConstructorParameters<typeof Headers>[0];
  /** A `fetch` of your own: auth that signs each request, a proxy, a test double. */
  fetch?: typeof globalThis.fetch;
  /**
   * The URL each request goes to, asked before every request (retries included): for a URL
   * that must be signed again, as a presigned URL before it expires. The reader's own `url`
   * still names the object in errors and in `describe()`; the query values and the user and
   * password of the last 1024 URLs given here are kept out of errors as those of `url` are.
   * Requests still go through `node:http` (or `fetch`, when given); a user and password in
   * the given URL are not sent. `Authorization`, `Proxy-Authorization` and `Cookie` (those of
   * `headers`, or `url`'s user and password) go only to `url`'s origin, as across a redirect.
   * Not an http(s) URL: `E_INVALID_ARGUMENT`.
   */
  requestUrl?: () => string | URL | Promise<string | URL>;
  /** Unit of the block cache and of random reads. Default 128 KiB. */
  blockSize?: number;
  /** Bytes the least-recently-used block cache keeps. Default 8 MiB. */
  cacheBytes?: number;
  /** The largest request of a sequential scan; scans start at two blocks and double. Default 4 MiB. */
  partSize?: number;
  /** Requests a sequential scan keeps in flight once it is under way. Default 4. */
  readAhead?: number;
  /** Retries of a request after network errors, timeouts, 408, 429 and 5xx. Default 4. */
  retries?: number;
  /** First backoff in milliseconds, doubled each retry (with jitter). Default 250. */
  retryDelay?: number;
  /** Longest wait between attempts; a `Retry-After` asking more fails the read. Default 10 s. */
  maxRetryDelay?: number;
  /** Milliseconds to wait for response headers or the next body chunk. Default 30 s. */
  timeout?: number;
  /**
   * A server that ignores Range (answers 200) is still read when its body is at most this
   * size, kept whole in memory; larger ones fail with `E_REMOTE_RANGE_UNSUPPORTED`. Default 1 MiB.
   */
  wholeBodyLimit?: number;
  /** Aborts every request in flight and fails later reads with `E_ABORTED`. */
  signal?: AbortSignal;
}
