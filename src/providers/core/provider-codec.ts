import type { ToolCallRequest } from '../../executor/tool-executor.js';
import type { ToolCallOutcome } from '../../executor/tool-result-content.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';

/**
 * How one provider API speaks of tools: the three conversions an adapter is made of. A
 * {@link ProviderToolSession} does the rest (forging, ack / nack, running the calls).
 *
 * @example
 * ```ts
 * const anthropic: ProviderCodec<Anthropic.Tool, AnthropicContent, Anthropic.ToolResultBlockParam> = {
 *   toTools: toAnthropicTools,
 *   fromCalls: fromAnthropicContent,
 *   toResults: (outcomes) => toAnthropicToolResults(outcomes),
 * };
 * ```
 */
export interface ProviderCodec<ToolParam, Calls, Result> {
  /** A dispatch's tools (the session's and the forged ones) as the request declares them. */
  toTools(tools: ToolRegistry): ToolParam[];
  /** What a response asked for, as the requests the session runs (`[]` when nothing). */
  fromCalls(calls: Calls): ToolCallRequest[];
  /** The outcomes, in request order, as what answers the calls in the next request. */
  toResults(outcomes: ToolCallOutcome[]): Result[];
}
