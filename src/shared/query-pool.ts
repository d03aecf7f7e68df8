import { abortError, SpoolforgeError } from './spoolforge-error.js';

/**
 * Options of a {@link QueryPool}.
 */
export interface QueryPoolOptions {
  /** Turns that run at once, a whole number ≥ 1. */
  concurrency: number;
  /** Turns that may wait for a bounded {@link QueryPool.acquire}, a whole number ≥ 0. */
  queueLimit: number;
  /** The names the caller gives these two options, for the messages that refuse them. */
  names?: { concurrency: string; queueLimit: string };
}

/**
 * A bound on slow work shared by its callers (the viewer's queries, the regex worker threads):
 * at most `concurrency` turns run at once, at most `queueLimit` wait their turn in arrival
 * order, and any more are turned away at once, so a burst of catastrophic patterns cannot
 * starve the process of threads, memory or CPU.
 *
 * @example
 * ```ts
 * const pool = new QueryPool({ concurrency: 2, queueLimit: 8 });
 * const release = await pool.acquire(signal);
 * if (release === undefined) return tooBusy();
 * try {
 *   await runQuery();
 * } finally {
 *   release();
 * }
 * ```
 */
export class QueryPool {
  readonly #concurrency: number;
  readonly #queueLimit: number;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  /** `concurrency` ≥ 1 and `queueLimit` ≥ 0, whole numbers, else `E_INVALID_ARGUMENT`. */
  constructor(options: QueryPoolOptions) {
    const { concurrency, queueLimit } = options;
    const names = options.names ?? { concurrency: 'concurrency', queueLimit: 'queueLimit' };
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `${names.concurrency} must be a whole number ≥ 1, not ${concurrency}`,
      );
    }
    if (!(Number.isInteger(queueLimit) && queueLimit >= 0)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `${names.queueLimit} must be a whole number ≥ 0, not ${queueLimit}`,
      );
    }
    this.#concurrency = concurrency;
    this.#queueLimit = queueLimit;
  }

  /** Turns running now and turns waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /**
   * A turn: resolves to the function that gives it back (call it exactly once) when one is
   * free, `undefined` at once when the queue is full. With `queue: 'unbounded'` a caller waits
   * past `queueLimit` (your own code, which would rather wait than fail); it still counts
   * against the bounded callers' queue. Aborting while queued leaves the queue and rejects
   * with `E_ABORTED`.
   */
  async acquire(
    signal?: AbortSignal,
    options: { queue?: 'bounded' | 'unbounded' } = {},
  ): Promise<(() => void) | undefined> {
    if (signal?.aborted) throw abortError(signal);
    if (this.#running < this.#concurrency) {
      this.#running++;
      return this.#releaser();
    }
    if (options.queue !== 'unbounded' && this.#waiting.length >= this.#queueLimit) {
      return undefined;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(turn), 1);
        reject(abortError(signal as AbortSignal));
      };
      const turn = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#waiting.push(turn);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.#releaser();
  }

  /** Gives the turn straight to the next in the queue, so no newcomer can take it meanwhile. */
  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    };
  }
}
