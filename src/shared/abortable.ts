import { abortError } from './spoolforge-error.js';

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
