import { Worker } from 'node:worker_threads';
import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';
import { workerUrl } from '../shared/worker-url.js';
import type { LineMatcher } from './line-matcher.js';

/**
 * Options for a {@link RegexLineMatcher}.
 */
export interface RegexLineMatcherOptions {
  /** Milliseconds from creation after which matching fails with `E_REGEX_TIMEOUT`. */
  timeout?: number;
  signal?: AbortSignal;
}

/**
 * Tests each line against a JavaScript regular expression in a worker thread. The main thread
 * stays responsive whatever the pattern does, and the worker is terminated on timeout or abort,
 * which is the only way to stop a backtracking regex.
 *
 * @example
 * ```ts
 * const matcher = new RegexLineMatcher(/ERROR \d+/s, { timeout: 2_000 });
 * try {
 *   const starts = await matcher.matchingLines(block);
 * } finally {
 *   await matcher.dispose();
 * }
 * ```
 */
export class RegexLineMatcher implements LineMatcher {
  readonly #worker: Worker;
  readonly #deadline: number | undefined;
  readonly #timeout: number | undefined;
  readonly #signal: AbortSignal | undefined;
  #shared: SharedArrayBuffer | undefined;

  constructor(regex: RegExp, options: RegexLineMatcherOptions = {}) {
    this.#worker = new Worker(workerUrl('grep/regex-worker.js'), {
      workerData: { source: regex.source, flags: regex.flags },
      // A small nursery is collected often; each slice's strings are garbage at once, so this
      // costs no speed and keeps the worker's share of RSS small.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    this.#timeout = options.timeout;
    this.#deadline = options.timeout === undefined ? undefined : Date.now() + options.timeout;
    this.#signal = options.signal;
  }

  matchingLines(block: Uint8Array): Promise<Uint32Array> {
    let sharedBuffer: SharedArrayBuffer | undefined;
    if (!this.#shared || this.#shared.byteLength < block.length) {
      this.#shared = new SharedArrayBuffer(Math.max(block.length, 1 << 20));
      sharedBuffer = this.#shared;
    }
    new Uint8Array(this.#shared).set(block);
    return this.#request({ buffer: sharedBuffer, length: block.length });
  }

  async dispose(): Promise<void> {
    await this.#worker.terminate();
  }

  #request(message: {
    buffer: SharedArrayBuffer | undefined;
    length: number;
  }): Promise<Uint32Array> {
    const worker = this.#worker;
    const signal = this.#signal;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (error: Error | undefined, starts?: Uint32Array) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (error) {
          void worker.terminate();
          reject(error);
        } else resolve(starts ?? new Uint32Array(0));
      };
      const onMessage = (starts: Uint32Array) => settle(undefined, starts);
      const onError = (error: Error) =>
        settle(
          new SpoolforgeError('E_IO', `Regex worker failed: ${error.message}`, { cause: error }),
        );
      const onExit = (code: number) =>
        settle(new SpoolforgeError('E_IO', `Regex worker exited with code ${code}`));
      const onAbort = () => {
        if (signal) settle(abortError(signal));
      };
      if (signal?.aborted) return onAbort();
      if (this.#deadline !== undefined) {
        const remaining = this.#deadline - Date.now();
        const fail = () =>
          settle(
            new SpoolforgeError(
              'E_REGEX_TIMEOUT',
              `The regular expression ran past its time budget of ${this.#timeout} ms; ` +
                'try a fixed string or a simpler pattern',
            ),
          );
        if (remaining <= 0) return fail();
        timer = setTimeout(fail, remaining);
      }
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(message);
    });
  }
}
