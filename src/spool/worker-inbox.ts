import type { Worker } from 'node:worker_threads';
import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';
import { isWorkerFailure, type WorkerFailure } from './parallel-ranges.js';

/**
 * The messages of one worker thread, taken one at a time in the order they were posted, so a
 * consumer can read several workers strictly in turn while they all run. A posted
 * {@link WorkerFailure}, a crash, an early exit or an abort rejects the next `take()`.
 *
 * @example
 * ```ts
 * const inbox = new WorkerInbox<{ records: Uint8Array } | { done: true }>(worker);
 * for (let message = await inbox.take(); !('done' in message); message = await inbox.take()) {
 *   write(message.records);
 * }
 * ```
 */
export class WorkerInbox<Message> {
  readonly #queue: Message[] = [];
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(worker: Worker, options: { signal?: AbortSignal | undefined } = {}) {
    const { signal } = options;
    worker.on('message', (message: Message | WorkerFailure) => {
      if (isWorkerFailure(message)) {
        this.#fail(new SpoolforgeError(message.failure.code, message.failure.message));
      } else this.#queue.push(message);
      this.#wake?.();
    });
    worker.once('error', (error) => this.#fail(error));
    worker.once('exit', (code) =>
      this.#fail(new SpoolforgeError('E_IO', `A worker thread exited with code ${code}`)),
    );
    if (signal) {
      const onAbort = () => this.#fail(abortError(signal));
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      worker.once('exit', () => signal.removeEventListener('abort', onAbort));
    }
  }

  /** The next message; waits for it. */
  async take(): Promise<Message> {
    for (;;) {
      const message = this.#queue.shift();
      if (message !== undefined) return message;
      if (this.#failure) throw this.#failure;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#wake?.();
  }
}
