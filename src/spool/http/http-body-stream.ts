import { abortError, SpoolforgeError } from '../../shared/spoolforge-error.js';
import { rangeClient } from './http-range-client.js';
import { requestWholeBody } from './http-range-request.js';
import type { HttpSpoolReaderOptions } from './http-spool-reader-options.js';
import { redactError } from './redact-secrets.js';

/**
 * The body of one plain GET of `url`, chunk by chunk as it is read: a single pass from the start
 * for a server that ignores Range requests, whatever its size, holding no more than the chunk in
 * hand (the socket waits while the reader is busy). The request is retried until its headers
 * come (with `options`' retries, timeout, headers and credentials, as {@link HttpSpoolReader});
 * a body cut off mid-way cannot resume without Range and fails with `E_REMOTE_FAILED`, as does
 * a body with no chunk for `timeout` ms. Leaving the loop early closes the connection.
 *
 * @example
 * ```ts
 * for await (const chunk of httpBodyStream('http://127.0.0.1:8000/build.log')) scan(chunk);
 * ```
 */
export async function* httpBodyStream(
  url: string,
  options: HttpSpoolReaderOptions = {},
): AsyncGenerator<Uint8Array> {
  const client = rangeClient(url, options, () => undefined);
  const controller = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([controller.signal, options.signal])
    : controller.signal;
  const response = await requestWholeBody(client, signal);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, client.timeout);
  try {
    for await (const chunk of response.chunks()) {
      timer.refresh();
      yield chunk;
      // The reader's time is not the server's.
      timer.refresh();
    }
  } catch (error) {
    if (options.signal?.aborted) throw abortError(options.signal);
    if (SpoolforgeError.isInstance(error)) throw error;
    const safe = redactError(error, client) as Error & { code?: string };
    const why = timedOut ? `no data for ${client.timeout} ms` : (safe.code ?? safe.message);
    throw new SpoolforgeError(
      'E_REMOTE_FAILED',
      `${client.label}: the body stopped mid-way (${why}), and the server ignores Range requests to resume it`,
      { cause: safe },
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
