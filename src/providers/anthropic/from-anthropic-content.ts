import type Anthropic from '@anthropic-ai/sdk';
import type { ToolCallRequest } from '../../executor/tool-executor.js';

/**
 * What a Messages response (or a stored assistant message) holds: its `content`, as blocks or
 * as the plain string a `MessageParam` may carry.
 */
export type AnthropicContent =
  | string
  | readonly (Anthropic.ContentBlock | Anthropic.ContentBlockParam)[];

/**
 * The calls a Messages response asks for: one {@link ToolCallRequest} per `tool_use` block, in
 * order, with the block's `id`, `name` and already-parsed `input`. Text, thinking and server
 * tool blocks are not ours to run and are skipped; a reply without `tool_use` yields `[]`.
 *
 * @example
 * ```ts
 * const message = await client.messages.create({ model, max_tokens: 4096, messages, tools });
 * const requests = fromAnthropicContent(message.content);
 * const outcomes = await session.run(requests, dispatch);
 * ```
 */
export function fromAnthropicContent(content: AnthropicContent): ToolCallRequest[] {
  if (typeof content === 'string') return [];
  return content
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({ id: block.id, name: block.name, arguments: block.input }));
}
