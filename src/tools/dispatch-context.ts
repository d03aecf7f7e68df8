import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ToolCall } from './tool-call.js';
import { ToolRegistry } from './tool-registry.js';

type Settlement = { kind: 'ack' } | { kind: 'nack'; error: unknown };

/**
 * One request to the model: the tool calls of the turn so far (whose results the model may
 * query) and the tools offered with it. The caller acks once the model's response was handled,
 * or nacks if the request failed; signalling twice is an error.
 *
 * @example
 * ```ts
 * const context = new DispatchContext({ turnToolCalls: session.toolCalls, tools: registry });
 * const unsubscribe = context.onAck(() => console.log('dispatch done'));
 * const reply = await context.track(callModel(context.tools.list())); // ack, or nack on failure
 * ```
 */
export class DispatchContext {
  readonly turnToolCalls: readonly ToolCall[];
  /** The tools offered with this request (empty unless given or set by a session). */
  tools: ToolRegistry;
  #settlement: Settlement | undefined;
  readonly #ackHandlers = new Set<() => void>();
  readonly #nackHandlers = new Set<(error: unknown) => void>();

  constructor(init: { turnToolCalls?: readonly ToolCall[]; tools?: ToolRegistry }) {
    this.turnToolCalls = [...(init.turnToolCalls ?? [])];
    this.tools = init.tools ?? new ToolRegistry();
  }

  /** `'pending'` until ack or nack. */
  get state(): 'pending' | 'acked' | 'nacked' {
    if (!this.#settlement) return 'pending';
    return this.#settlement.kind === 'ack' ? 'acked' : 'nacked';
  }

  /** The dispatch's response was handled. Runs the ack handlers (a bound registry prunes). */
  ack(): void {
    this.#settle({ kind: 'ack' });
    for (const handler of [...this.#ackHandlers]) handler();
  }

  /** The request failed; ephemeral tools stay so a retry can offer them again. */
  nack(error: unknown): void {
    this.#settle({ kind: 'nack', error });
    for (const handler of [...this.#nackHandlers]) handler(error);
  }

  /**
   * Settles this dispatch by the request it sent: acks when `request` resolves, nacks (and
   * rethrows) when it rejects.
   */
  async track<T>(request: PromiseLike<T>): Promise<T> {
    let response: T;
    try {
      response = await request;
    } catch (error) {
      this.nack(error);
      throw error;
    }
    this.ack();
    return response;
  }

  /** Runs `handler` on ack; returns an unsubscribe function. */
  onAck(handler: () => void): () => void {
    this.#ackHandlers.add(handler);
    return () => this.#ackHandlers.delete(handler);
  }

  /** Runs `handler` on nack; returns an unsubscribe function. */
  onNack(handler: (error: unknown) => void): () => void {
    this.#nackHandlers.add(handler);
    return () => this.#nackHandlers.delete(handler);
  }

  #settle(settlement: Settlement): void {
    if (this.#settlement) {
      throw new SpoolforgeError(
        'E_DISPATCH_ALREADY_SIGNALLED',
        `This dispatch was already ${this.state}; ack or nack it once`,
      );
    }
    this.#settlement = settlement;
  }
}
