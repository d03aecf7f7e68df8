import type { ModelMessage, ToolCallPart } from 'ai';
import type { ConversationMessage } from '../../context/conversation-message.js';

/**
 * A provider-neutral history as AI SDK `messages` (`ModelMessage[]`): a `system` message first
 * when `instructions` are given, assistant text and `tool-call` parts (arguments parsed into
 * `input`; arguments that are not JSON go in as their text), and each tool message as a `tool`
 * message with one `tool-result` part (`error-text` for an error). Rebuild the request's
 * messages from the projection every step.
 *
 * @example
 * ```ts
 * const view = await projectContext(log.history(), { contextWindow: 128_000, encoding: 'o200k_base' });
 * const result = await generateText({ model, messages: toModelMessages(view.messages, { instructions }), tools });
 * ```
 */
export function toModelMessages(
  messages: readonly ConversationMessage[],
  options: { instructions?: string } = {},
): ModelMessage[] {
  const system: ModelMessage[] =
    options.instructions === undefined ? [] : [{ role: 'system', content: options.instructions }];
  return [...system, ...messages.map(toModelMessage)];
}

function toModelMessage(message: ConversationMessage): ModelMessage {
  if (message.role === 'user') return { role: 'user', content: message.content };
  if (message.role === 'tool') {
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: { type: message.isError ? 'error-text' : 'text', value: message.content },
        },
      ],
    };
  }
  if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
  const calls = message.toolCalls.map(
    (call): ToolCallPart => ({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: parseArguments(call.arguments),
    }),
  );
  return {
    role: 'assistant',
    content: message.content === '' ? calls : [{ type: 'text', text: message.content }, ...calls],
  };
}

/** Malformed JSON from a model stays the text it sent. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
