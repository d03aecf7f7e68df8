import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * A bound on the viewer's query work shared by all requests of one handler: at most
 * `concurrency` queries run at once (each regex scan is a worker thread of its own), at most
 * `queueLimit` wait their turn in arrival order, and any more are turned away at once, so a
 * burst of catastrophic patterns cannot starve the process of threads, memory or CPU.
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
  constructor(options: { concurrency: number; queueLimit: number }) {
    const { concurrency, queueLimit } = options;
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `maxConcurrentQueries must be a whole number ≥ 1, not ${concurrency}`,
      );
    }
    if (!(Number.isInteger(queueLimit) && queueLimit >= 0)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `maxQueuedQueries must be a whole number ≥ 0, not ${queueLimit}`,
      );
    }
    this.#concurrency = options.concurrency;
    this.#queueLimit = options.queueLimit;
  }

  /**
   * A slot: resolves to the function that gives it back (call it exactly once) when one is
   * free, `undefined` at once when the queue is full. Aborting while queued leaves the queue
   * and rejects with `E_ABORTED`.
   */
  async acquire(signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (signal?.aborted) throw abortError(signal);
    if (this.#running < this.#concurrency) {
      this.#running++;
      return this.#releaser();
    }
    if (this.#waiting.length >= this.#queueLimit) return undefined;
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

  /** Gives the slot straight to the next in the queue, so no newcomer can take it meanwhile. */
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
