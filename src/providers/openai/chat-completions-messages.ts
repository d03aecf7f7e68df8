import type {
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ConversationMessage } from '../../context/conversation-message.js';
import { fromChatCompletionsToolCalls } from './chat-completions-tools.js';

/**
 * A provider-neutral history as Chat Completions `messages`: a `system` message first when
 * `instructions` are given, assistant tool calls as `function` calls, tool messages as
 * `role: "tool"`. Rebuild the request's messages from the history after a compaction.
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({
 *   model: 'gpt-4o-mini',
 *   messages: toChatCompletionsMessages(history, { instructions: 'You investigate build failures.' }),
 * });
 * ```
 */
export function toChatCompletionsMessages(
  messages: readonly ConversationMessage[],
  options: { instructions?: string } = {},
): ChatCompletionMessageParam[] {
  const system: ChatCompletionMessageParam[] =
    options.instructions === undefined ? [] : [{ role: 'system', content: options.instructions }];
  return [...system, ...messages.map(toChatCompletionsMessage)];
}

function toChatCompletionsMessage(message: ConversationMessage): ChatCompletionMessageParam {
  if (message.role === 'user') return { role: 'user', content: message.content };
  if (message.role === 'tool') {
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
  if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
  return {
    role: 'assistant',
    // The API answers `null` content beside tool calls; send it back the same way.
    content: message.content === '' ? null : message.content,
    tool_calls: message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

/**
 * A Chat Completions reply (`completion.choices[0].message`) as a provider-neutral assistant
 * message: its text (or refusal) and its tool calls, arguments as the JSON text the model sent.
 *
 * @example
 * ```ts
 * const message = completion.choices[0]!.message;
 * history.push(fromChatCompletionsMessage(message));
 * ```
 */
export function fromChatCompletionsMessage(message: ChatCompletionMessage): ConversationMessage {
  const toolCalls = fromChatCompletionsToolCalls(message.tool_calls).map((call) => ({
    id: call.id,
    name: call.name,
    arguments: call.arguments as string,
  }));
  const content = message.content ?? message.refusal ?? '';
  return toolCalls.length > 0
    ? { role: 'assistant', content, toolCalls }
    : { role: 'assistant', content };
}
