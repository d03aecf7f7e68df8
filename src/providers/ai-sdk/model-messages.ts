import type { ModelMessage, ToolCallPart } from 'ai';
import type { ConversationMessage } from '../../context/conversation-message.js';

/**
 * A provider-neutral history as AI SDK `messages` (`ModelMessage[]`): assistant text and
 * `tool-call` parts (arguments parsed into `input`; arguments that are not JSON go in as their
 * text), and each tool message as a `tool` message with one `tool-result` part (`error-text` for
 * an error). Rebuild the request's messages from the projection every step. With `instructions`,
 * a `system` message comes first: AI SDK 6 takes it, AI SDK 7 only with
 * `allowSystemInMessages: true` (pass its `instructions` option instead).
 *
 * @example
 * ```ts
 * const view = await projectContext(log.history(), { contextWindow: 128_000, encoding: 'o200k_base' });
 * const result = await generateText({ model, instructions, messages: toModelMessages(view.messages), tools });
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
