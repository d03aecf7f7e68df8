import type { DispatchContext } from '../../tools/dispatch-context.js';

/**
 * One request to a model, in its provider's shapes: the `tools` to send, `ack()` once the
 * response arrived (the forged `artifact_*` tools are then pruned from `context.tools`) or
 * `nack(error)` if the request failed (`track` does both), and `run(calls)` to execute what the
 * model asked for and get what answers it. Calls run against the tools this dispatch offered,
 * even after `ack()`.
 *
 * @example
 * ```ts
 * const dispatch = agent.dispatch();
 * const message = await dispatch.track(client.messages.create({ model, max_tokens: 4096, messages, tools: dispatch.tools }));
 * const results = await dispatch.run(message.content);
 * ```
 */
export interface ProviderDispatch<ToolParam, Calls, Result> {
  /** The provider-neutral dispatch underneath (its `tools` registry, `state`, `onAck`). */
  readonly context: DispatchContext;
  /** The request's tools: the session's and the ones forged for this request. */
  readonly tools: ToolParam[];
  ack(): void;
  nack(error: unknown): void;
  /** Acks when the request to the model resolves, nacks and rethrows when it rejects. */
  track<T>(request: PromiseLike<T>): Promise<T>;
  /** Runs the calls (concurrently) and returns what answers them, in request order. */
  run(calls: Calls, options?: { signal?: AbortSignal }): Promise<Result[]>;
}
