import { abortError, SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * How failed requests are retried: network errors, timeouts, 408, 429 and 5xx, with exponential
 * backoff and jitter, honouring `Retry-After`.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** The first backoff in milliseconds; each retry doubles it. */
  retryDelay: number;
  /** No wait is longer; a `Retry-After` asking for more fails the request instead. */
  maxRetryDelay: number;
}

/** A failure worth another attempt; `retryAfter` is the server's wish in milliseconds. */
export class RetryableFailure extends Error {
  readonly retryAfter: number | undefined;

  constructor(message: string, options: { cause?: unknown; retryAfter?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfter = options.retryAfter;
  }
}

/**
 * Runs `attempt` until it succeeds, throws a non-retryable error, or the policy's retries are
 * spent (then `E_REMOTE_FAILED` naming `label` and the last failure). Waits are abortable.
 */
export async function withRetries<T>(
  label: string,
  policy: RetryPolicy,
  signal: AbortSignal,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RetryableFailure)) throw error;
      const backoff = Math.min(policy.maxRetryDelay, policy.retryDelay * 2 ** retry);
      const delay = error.retryAfter ?? backoff * (0.5 + Math.random() / 2);
      if (retry >= policy.retries || delay > policy.maxRetryDelay) {
        const why = delay > policy.maxRetryDelay ? `; the server asks to wait ${delay} ms` : '';
        throw new SpoolforgeError(
          'E_REMOTE_FAILED',
          `${label}: ${error.message} (after ${retry + 1} attempts${why})`,
          { cause: error.cause ?? error },
        );
      }
      await sleep(delay, signal);
    }
  }
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
