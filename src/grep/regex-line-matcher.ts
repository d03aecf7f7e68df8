import type { Worker } from 'node:worker_threads';
import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';
import { startWorker } from '../shared/start-worker.js';
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
 * which is the only way to stop a backtracking regex. Two blocks may be in flight at once, each
 * in a shared buffer of its own: a scan finds the next block's candidates while the worker
 * tests this one's.
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
  /** The two shared buffers blocks are copied into, used in turn. */
  readonly #slots: (SharedArrayBuffer | undefined)[] = [undefined, undefined];
  /** The answer each slot still waits for: its buffer is not reused before it arrives. */
  readonly #slotAnswers: (Promise<unknown> | undefined)[] = [undefined, undefined];
  #nextSlot = 0;
  /** Requests in the order they were posted, which is the order the worker answers them. */
  readonly #waiting: { resolve: (starts: Uint32Array) => void; reject: (error: Error) => void }[] =
    [];
  #failure: Error | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(regex: RegExp, options: RegexLineMatcherOptions = {}) {
    this.#worker = startWorker(workerUrl('grep/regex-worker.js'), {
      workerData: { source: regex.source, flags: regex.flags },
      // A small nursery is collected often; each slice's strings are garbage at once, so this
      // costs no speed and keeps the worker's share of RSS small.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    this.#timeout = options.timeout;
    this.#deadline = options.timeout === undefined ? undefined : Date.now() + options.timeout;
    this.#signal = options.signal;
    this.#worker
      .on('message', (starts: Uint32Array) => {
        this.#waiting.shift()?.resolve(starts);
        this.#idle();
      })
      .on('error', (error: Error) =>
        this.#fail(
          new SpoolforgeError('E_IO', `Regex worker failed: ${error.message}`, { cause: error }),
        ),
      )
      .on('exit', (code: number) =>
        this.#fail(new SpoolforgeError('E_IO', `Regex worker exited with code ${code}`)),
      );
  }

  /**
   * The matching lines of `block`, copied at once unless both buffers are busy: then when the
   * older of them is answered, so `block` must stay valid until its own answer arrives.
   */
  matchingLines(block: Uint8Array): Promise<Uint32Array> {
    const slot = this.#nextSlot;
    this.#nextSlot = 1 - slot;
    const pending = this.#slotAnswers[slot];
    const answer = pending
      ? pending.then(
          () => this.#request(slot, block),
          () => this.#request(slot, block),
        )
      : this.#request(slot, block);
    this.#slotAnswers[slot] = answer;
    return answer;
  }

  async dispose(): Promise<void> {
    this.#settleAll(new SpoolforgeError('E_IO', 'Regex matcher disposed'));
    await this.#worker.terminate();
  }

  #request(slot: number, block: Uint8Array): Promise<Uint32Array> {
    const signal = this.#signal;
    if (this.#failure) return Promise.reject(this.#failure);
    if (signal?.aborted) return Promise.reject(this.#fail(abortError(signal)));
    if (this.#deadline !== undefined && this.#deadline - Date.now() <= 0) {
      return Promise.reject(this.#fail(this.#timeoutError()));
    }
    let buffer = this.#slots[slot];
    let sent: SharedArrayBuffer | undefined;
    if (!buffer || buffer.byteLength < block.length) {
      buffer = new SharedArrayBuffer(Math.max(block.length, 1 << 20));
      this.#slots[slot] = buffer;
      sent = buffer;
    }
    new Uint8Array(buffer).set(block);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (this.#waiting.length === 1) this.#busy();
      this.#worker.postMessage({ slot, buffer: sent, length: block.length });
    });
  }

  /** The worker has work: watch the deadline and the signal until it is idle again. */
  #busy(): void {
    if (this.#deadline !== undefined) {
      this.#timer = setTimeout(
        () => this.#fail(this.#timeoutError()),
        Math.max(0, this.#deadline - Date.now()),
      );
    }
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  #idle(): void {
    if (this.#waiting.length > 0) return;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  readonly #onAbort = () => {
    if (this.#signal) this.#fail(abortError(this.#signal));
  };

  #timeoutError(): SpoolforgeError {
    return new SpoolforgeError(
      'E_REGEX_TIMEOUT',
      `The regular expression ran past its time budget of ${this.#timeout} ms; ` +
        'try a fixed string or a simpler pattern',
    );
  }

  /** Fails every request, now and later, and stops the worker (a runaway regex with it). */
  #fail(error: Error): Error {
    this.#failure ??= error;
    this.#settleAll(this.#failure);
    void this.#worker.terminate();
    return this.#failure;
  }

  #settleAll(error: Error): void {
    for (const request of this.#waiting.splice(0)) request.reject(error);
    this.#idle();
  }
}
