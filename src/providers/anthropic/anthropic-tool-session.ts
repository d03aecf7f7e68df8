import type Anthropic from '@anthropic-ai/sdk';
import { ToolSession, type ToolSessionOptions } from '../../executor/tool-session.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import { type AnthropicContent, fromAnthropicContent } from './from-anthropic-content.js';
import {
  type AnthropicToolResultsOptions,
  toAnthropicToolResults,
} from './to-anthropic-tool-results.js';
import { toAnthropicTools } from './to-anthropic-tools.js';

/**
 * One request to the Messages API: the `tools` to send with it, `ack()` once its response
 * arrived (the forged tools are pruned), `nack(error)` if the request failed, and `run` for the
 * `tool_use` blocks of the response.
 *
 * @example
 * ```ts
 * const dispatch = agent.dispatch();
 * const message = await dispatch.track(client.messages.create({ model, max_tokens: 4096, messages, tools: dispatch.tools }));
 * const results = await dispatch.run(message.content);
 * ```
 */
export interface AnthropicDispatch {
  /** The session's tools plus the `artifact_*` tools forged for this request. */
  readonly tools: Anthropic.Tool[];
  /** The provider-neutral dispatch underneath (its `tools` registry, `state`, `onAck`). */
  readonly context: DispatchContext;
  ack(): void;
  nack(error: unknown): void;
  /** Acks when the request to the model resolves, nacks and rethrows when it rejects. */
  track<T>(request: PromiseLike<T>): Promise<T>;
  /**
   * Runs the response's `tool_use` blocks (concurrently) and returns their `tool_result` blocks,
   * in order, for the next `user` message; `[]` when the response asked for no tools.
   */
  run(
    content: AnthropicContent,
    options?: { signal?: AbortSignal },
  ): Promise<Anthropic.ToolResultBlockParam[]>;
}

/**
 * A {@link ToolSession} spoken in Messages API shapes: a thin layer over `toAnthropicTools`,
 * `fromAnthropicContent` and `toAnthropicToolResults`. Large tool outputs are spooled and the
 * model gets a handle plus forged query tools in the next request.
 *
 * @example
 * ```ts
 * await using agent = new AnthropicToolSession({ tools: [fetchLog] });
 * const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Why did checkout fail?' }];
 * for (;;) {
 *   const dispatch = agent.dispatch();
 *   const message = await dispatch.track(client.messages.create({ model, max_tokens: 4096, messages, tools: dispatch.tools }));
 *   messages.push({ role: 'assistant', content: message.content });
 *   const results = await dispatch.run(message.content);
 *   if (results.length === 0) break;
 *   messages.push({ role: 'user', content: results });
 * }
 * ```
 */
export class AnthropicToolSession {
  readonly session: ToolSession;
  readonly #results: AnthropicToolResultsOptions;

  /** Takes a session to share, or the options to make one. */
  constructor(
    session: ToolSession | ToolSessionOptions = {},
    options: AnthropicToolResultsOptions = {},
  ) {
    this.session = session instanceof ToolSession ? session : new ToolSession(session);
    this.#results = options;
  }

  /** Forges the tools for the next request and returns it as an {@link AnthropicDispatch}. */
  dispatch(): AnthropicDispatch {
    const context = this.session.dispatch();
    const results = this.#results;
    const session = this.session;
    return {
      tools: toAnthropicTools(context.tools),
      context,
      ack: () => context.ack(),
      nack: (error) => context.nack(error),
      track: (request) => context.track(request),
      async run(content, options = {}) {
        const outcomes = await session.run(fromAnthropicContent(content), context, options);
        return toAnthropicToolResults(outcomes, results);
      },
    };
  }

  /** Closes every artifact the session spooled. */
  close(): Promise<void> {
    return this.session.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
