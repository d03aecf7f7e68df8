import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { failedResponse, isResponse } from './failed-response.js';
import type { SpilledValues } from './spilled-values.js';

/**
 * What one line of upstream output came to: a message, or an error to report. `tokens` are the
 * values it spilled, freed if it is not delivered.
 *
 * @example
 * ```ts
 * const outcome: LineOutcome = { message: { jsonrpc: '2.0', id: 1, result: {} }, tokens: [] };
 * ```
 */
export type LineOutcome =
  | { message: JSONRPCMessage; tokens?: string[] }
  | { error: SpoolforgeError; tokens?: string[] };

/**
 * Options for a {@link DeliveryQueue}.
 *
 * @example
 * ```ts
 * const options: DeliveryQueueOptions = { spilled, onmessage: (message) => console.log(message) };
 * ```
 */
export interface DeliveryQueueOptions {
  spilled: SpilledValues;
  onmessage: (message: JSONRPCMessage) => void;
  onerror?: (error: SpoolforgeError) => void;
}

/**
 * Holds back the outcomes of a chunk until the spool writes it caused have landed, so that
 * whoever takes a token can read all of its value; then delivers them in order.
 *
 * @example
 * ```ts
 * const queue = new DeliveryQueue({ spilled, onmessage: (message) => console.log(message) });
 * queue.track(writer.write(bytes));
 * queue.push({ message });
 * await queue.flush(); // the write landed, then the message went out
 * ```
 */
export class DeliveryQueue {
  readonly #options: DeliveryQueueOptions;
  #writes: Promise<void>[] = [];
  #writeError: unknown;
  #outcomes: LineOutcome[] = [];
  #chain: Promise<void> = Promise.resolve();

  constructor(options: DeliveryQueueOptions) {
    this.#options = options;
  }

  /** A spool write (or release) the next {@link DeliveryQueue.flush} waits for. */
  track(write: Promise<void>): void {
    this.#writes.push(
      write.then(undefined, (error: unknown) => {
        this.#writeError ??= error;
      }),
    );
  }

  /** An outcome to deliver at the next flush. */
  push(outcome: LineOutcome): void {
    this.#outcomes.push(outcome);
  }

  /** Takes the values of `tokens` out of the registry and frees them. */
  release(tokens: readonly string[]): void {
    for (const token of tokens) {
      const value = this.#options.spilled.take(token);
      if (value) this.track(value.release());
    }
  }

  /**
   * Delivers what was pushed once the writes tracked so far have landed. Rejects with `E_IO` if
   * one failed; the messages of this flush are then dropped and their values freed, and a
   * response among them becomes a JSON-RPC error saying why, so that its request fails now
   * rather than at its timeout.
   */
  flush(): Promise<void> {
    const writes = this.#writes;
    const outcomes = this.#outcomes;
    this.#writes = [];
    this.#outcomes = [];
    const run = this.#chain.then(async () => {
      await Promise.all(writes);
      const failure =
        this.#writeError === undefined
          ? undefined
          : new SpoolforgeError('E_IO', 'Cannot spool a value from the upstream', {
              cause: this.#writeError,
            });
      this.#writeError = undefined;
      for (const outcome of outcomes) {
        if ('message' in outcome && failure === undefined) {
          this.#options.onmessage(outcome.message);
          continue;
        }
        if (outcome.tokens) this.release(outcome.tokens);
        if ('error' in outcome) this.#options.onerror?.(outcome.error);
        else if (failure && isResponse(outcome.message)) {
          this.#options.onmessage(failedResponse(outcome.message.id, failure));
        }
      }
      if (failure !== undefined) throw failure;
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }
}
