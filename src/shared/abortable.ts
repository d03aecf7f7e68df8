import { abortError, throwIfAborted } from './spoolforge-error.js';

/**
 * Settles like `promise`, but rejects with `E_ABORTED` as soon as `signal` fires: for waiting on
 * work that cannot itself be cancelled (a shared request, a silent source).
 *
 * @example
 * ```ts
 * const next = await raceAbort(iterator.next(), signal);
 * ```
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined); // settled later by nobody's await
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort))
      .catch(() => undefined);
  });
}

/**
 * Iterates `source`, but rejects as soon as `signal` fires, even while the source is silent, and
 * lets the source release what it holds (a file descriptor, a socket) when iteration stops.
 * Each step listens for the abort afresh: racing every step against one long-lived promise would
 * keep every chunk reachable from that promise's reactions (a leak of the whole stream).
 *
 * @example
 * ```ts
 * for await (const chunk of abortable(request.body, signal)) await writer.write(chunk);
 * ```
 */
export async function* abortable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  if (!signal) {
    yield* source;
    return;
  }
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      throwIfAborted(signal);
      const next = await raceAbort(iterator.next(), signal);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    void iterator.return?.()?.catch?.(() => undefined);
  }
}
