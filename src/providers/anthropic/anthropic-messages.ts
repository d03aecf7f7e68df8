import type Anthropic from '@anthropic-ai/sdk';
import type { ConversationMessage } from '../../context/conversation-message.js';
import { fromAnthropicContent } from './from-anthropic-content.js';

type Block = Anthropic.ContentBlockParam;

/**
 * A provider-neutral history as Messages API `messages`: assistant text and `tool_use` blocks
 * (arguments parsed into `input`), tool results as `tool_result` blocks (`is_error` kept) in a
 * user message. Consecutive messages on one side (tool results, then a user's text) are merged
 * so roles alternate, and empty text is left out (the API rejects empty text blocks). Pass the
 * system prompt as the request's `system`.
 *
 * @example
 * ```ts
 * const message = await client.messages.create({
 *   model: 'claude-sonnet-4-5',
 *   max_tokens: 4096,
 *   system: 'You investigate build failures.',
 *   messages: toAnthropicMessages(history),
 * });
 * ```
 */
export function toAnthropicMessages(
  messages: readonly ConversationMessage[],
): Anthropic.MessageParam[] {
  const merged: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    if (blocks.length === 0) continue;
    const last = merged.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else merged.push({ role, content: blocks });
  }
  return merged.map(({ role, content }) =>
    content.length === 1 && content[0]?.type === 'text'
      ? { role, content: content[0].text }
      : { role, content },
  );
}

function toBlocks(message: ConversationMessage): Block[] {
  if (message.role === 'tool') {
    return [
      {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        ...(message.content === '' ? {} : { content: message.content }),
        ...(message.isError ? { is_error: true } : {}),
      },
    ];
  }
  const text: Block[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
  const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
  return [
    ...text,
    ...calls.map(
      (call): Block => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: toInput(call.arguments),
      }),
    ),
  ];
}

/** `tool_use.input` must be an object; arguments that are not a JSON object go in as text. */
function toInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Malformed JSON from a model: keep what it sent.
  }
  return { arguments: text };
}

/**
 * A Messages API reply as a provider-neutral assistant message: its text blocks joined (a reply
 * with citations splits one text into several blocks), its
 * `tool_use` blocks as tool calls with `input` as JSON text. Thinking and server tool blocks are
 * left out.
 *
 * @example
 * ```ts
 * const message = await client.messages.create({ model, max_tokens: 4096, messages, tools });
 * history.push(fromAnthropicMessage(message));
 * ```
 */
export function fromAnthropicMessage(
  message: Pick<Anthropic.Message, 'content'>,
): ConversationMessage {
  const content = message.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('');
  const toolCalls = fromAnthropicContent(message.content).map((call) => ({
    id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.arguments),
  }));
  return toolCalls.length > 0
    ? { role: 'assistant', content, toolCalls }
    : { role: 'assistant', content };
}
