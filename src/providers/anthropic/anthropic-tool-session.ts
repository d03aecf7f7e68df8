import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderDispatch } from '../core/provider-dispatch.js';
import {
  ProviderToolSession,
  type ProviderToolSessionOptions,
} from '../core/provider-tool-session.js';
import { type AnthropicContent, fromAnthropicContent } from './from-anthropic-content.js';
import {
  type AnthropicToolResultsOptions,
  toAnthropicToolResults,
} from './to-anthropic-tool-results.js';
import { toAnthropicTools } from './to-anthropic-tools.js';

/**
 * One request to the Messages API: the `tools` to send with it, `ack()` once its response
 * arrived (the forged tools are pruned), `nack(error)` if the request failed, and `run` for the
 * `tool_use` blocks of the response: it runs them (concurrently) and returns their
 * `tool_result` blocks, in order, for the next `user` message; `[]` when the response asked
 * for no tools.
 *
 * @example
 * ```ts
 * const dispatch = agent.dispatch();
 * const message = await dispatch.track(client.messages.create({ model, max_tokens: 4096, messages, tools: dispatch.tools }));
 * const results = await dispatch.run(message.content);
 * ```
 */
export type AnthropicDispatch = ProviderDispatch<
  Anthropic.Tool,
  AnthropicContent,
  Anthropic.ToolResultBlockParam
>;

/**
 * Options for an {@link AnthropicToolSession}: those of a new `ToolSession` (the adapter closes
 * it) or a `session` of yours (you close it), and how tool results are sent.
 */
export type AnthropicToolSessionOptions = AnthropicToolResultsOptions & ProviderToolSessionOptions;

/**
 * A {@link ToolSession} spoken in Messages API shapes: a thin layer over `toAnthropicTools`,
 * `fromAnthropicContent` and `toAnthropicToolResults`. Large tool outputs are spooled and the
 * model gets a handle plus forged query tools in the next request. `close()` closes the session
 * if the adapter made it; a `session` you passed in is yours to close.
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
export class AnthropicToolSession extends ProviderToolSession {
  readonly #results: AnthropicToolResultsOptions;

  constructor(options: AnthropicToolSessionOptions = {}) {
    super(options);
    const { maxImageBytes } = options;
    this.#results = maxImageBytes === undefined ? {} : { maxImageBytes };
  }

  /** Forges the tools for the next request and returns it as an {@link AnthropicDispatch}. */
  dispatch(): AnthropicDispatch {
    return this.dispatchAs({
      toTools: toAnthropicTools,
      fromCalls: fromAnthropicContent,
      toResults: (outcomes) => toAnthropicToolResults(outcomes, this.#results),
    });
  }
}
