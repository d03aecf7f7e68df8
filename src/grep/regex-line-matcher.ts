import type { Worker } from 'node:worker_threads';
import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';
import type { LineMatcher } from './line-matcher.js';
import {
  type RegexWorkerLease,
  type RegexWorkerPool,
  type RegexWorkerRequest,
  regexWorkerPool,
} from './regex-worker-pool.js';

/** Milliseconds a disposed matcher waits for its blocks in flight before it stops its worker. */
const drainMs = 1_000;

/**
 * Options for a {@link RegexLineMatcher}.
 */
export interface RegexLineMatcherOptions {
  /**
   * Milliseconds from creation after which matching fails with `E_REGEX_TIMEOUT` (or `E_BUSY`
   * if no worker was free by then).
   */
  timeout?: number;
  signal?: AbortSignal;
  /** With the pool's queue full: wait (the default) or fail with `E_BUSY`. */
  whenBusy?: RegexWorkerRequest['whenBusy'];
  /** The worker threads to run in; the process's shared pool by default. */
  pool?: RegexWorkerPool;
}

/**
 * Tests each line against a JavaScript regular expression in a worker thread of a
 * {@link RegexWorkerPool}, taken at the first block and given back by `dispose()`. The main
 * thread stays responsive whatever the pattern does, and the worker is terminated on timeout or
 * abort, which is the only way to stop a backtracking regex. Two blocks may be in flight at
 * once, each in a shared buffer of its own: a scan finds the next block's candidates while the
 * worker tests this one's.
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
  readonly #regex: { source: string; flags: string };
  readonly #deadline: number | undefined;
  readonly #timeout: number | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #whenBusy: RegexWorkerRequest['whenBusy'];
  readonly #pool: RegexWorkerPool;
  /** The worker lent to this matcher, asked for at its first block. */
  #lease: Promise<RegexWorkerLease> | undefined;
  /** The lease until it is given back, and its worker. */
  #held: RegexWorkerLease | undefined;
  #worker: Worker | undefined;
  /** The two shared buffers blocks are copied into, used in turn. */
  readonly #slots: (SharedArrayBuffer | undefined)[] = [undefined, undefined];
  /** The answer each slot still waits for: its buffer is not reused before it arrives. */
  readonly #slotAnswers: (Promise<unknown> | undefined)[] = [undefined, undefined];
  #nextSlot = 0;
  /** Requests in the order they were posted, which is the order the worker answers them. */
  readonly #waiting: { resolve: (starts: Uint32Array) => void; reject: (error: Error) => void }[] =
    [];
  #patternSent = false;
  /** Blocks posted to the worker and not answered yet (their callers may have gone). */
  #unanswered = 0;
  #failure: Error | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Set while a disposed matcher waits for its last answers to give its worker back warm. */
  #drain: { timer: NodeJS.Timeout; done: () => void } | undefined;

  constructor(regex: RegExp, options: RegexLineMatcherOptions = {}) {
    this.#regex = { source: regex.source, flags: regex.flags };
    this.#timeout = options.timeout;
    this.#deadline = options.timeout === undefined ? undefined : Date.now() + options.timeout;
    this.#signal = options.signal;
    this.#whenBusy = options.whenBusy;
    this.#pool = options.pool ?? regexWorkerPool;
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

  /**
   * Gives the worker back, and resolves once it is back: warm when it is idle or its blocks in
   * flight (a scan that stopped early leaves one) are answered within a second and the time
   * budget, else terminated.
   */
  async dispose(): Promise<void> {
    const disposed = new SpoolforgeError('E_IO', 'Regex matcher disposed');
    if (this.#failure === undefined && this.#unanswered > 0) {
      this.#failure = disposed;
      this.#settleAll(disposed);
      const left = (this.#deadline ?? Number.POSITIVE_INFINITY) - Date.now();
      await new Promise<void>((done) => {
        const timer = setTimeout(() => this.#giveBack(false), Math.max(0, Math.min(drainMs, left)));
        this.#drain = { timer, done };
      });
      return;
    }
    this.#fail(disposed);
    // A worker granted after this is given back at once.
    await this.#lease?.catch(() => undefined);
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
    // Copied now: the caller may reuse `block` while a worker is awaited.
    new Uint8Array(buffer).set(block);
    const message = { slot, buffer: sent, length: block.length };
    return this.#worker ? this.#post(this.#worker, message) : this.#postOnLease(message);
  }

  async #postOnLease(message: object): Promise<Uint32Array> {
    this.#lease ??= this.#pool
      .lease({
        ...(this.#signal ? { signal: this.#signal } : {}),
        ...(this.#deadline === undefined ? {} : { deadline: this.#deadline }),
        ...(this.#whenBusy ? { whenBusy: this.#whenBusy } : {}),
      })
      .then((lease) => {
        this.#held = lease;
        this.#worker = lease.worker
          .on('message', this.#onMessage)
          .on('error', this.#onError)
          .on('exit', this.#onExit);
        if (this.#failure) this.#giveBack(true); // failed or disposed while it waited
        return lease;
      });
    try {
      await this.#lease;
    } catch (error) {
      throw this.#fail(error as Error);
    }
    if (this.#failure || !this.#worker) throw this.#failure;
    return this.#post(this.#worker, message);
  }

  /** Posts a block; the first one posted also carries the pattern (each names its buffer). */
  #post(worker: Worker, message: object): Promise<Uint32Array> {
    const regex = this.#patternSent ? {} : { regex: this.#regex };
    this.#patternSent = true;
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (this.#waiting.length === 1) this.#busy();
      this.#unanswered++;
      worker.postMessage({ ...message, ...regex });
    });
  }

  readonly #onMessage = (starts: Uint32Array) => {
    this.#unanswered--;
    this.#waiting.shift()?.resolve(starts);
    this.#idle();
    if (this.#drain && this.#unanswered === 0) this.#giveBack(true);
  };

  readonly #onError = (error: Error) =>
    this.#fail(
      new SpoolforgeError('E_IO', `Regex worker failed: ${error.message}`, { cause: error }),
      false,
    );

  readonly #onExit = (code: number) =>
    this.#fail(new SpoolforgeError('E_IO', `Regex worker exited with code ${code}`), false);

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

  /**
   * Fails every request, now and later, and gives the worker back: warm if it had no block,
   * else terminated (a runaway regex with it).
   */
  #fail(error: Error, reusable = this.#unanswered === 0): Error {
    this.#failure ??= error;
    this.#settleAll(this.#failure);
    this.#giveBack(reusable);
    return this.#failure;
  }

  #giveBack(reusable: boolean): void {
    const lease = this.#held;
    if (!lease) return;
    this.#held = undefined;
    clearTimeout(this.#drain?.timer);
    this.#drain?.done();
    lease.worker.off('message', this.#onMessage).off('error', this.#onError);
    lease.worker.off('exit', this.#onExit);
    lease.release(reusable);
  }

  #settleAll(error: Error): void {
    for (const request of this.#waiting.splice(0)) request.reject(error);
    this.#idle();
  }
}
