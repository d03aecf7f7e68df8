import type {
  ResponseInputItem,
  ResponseOutputItem,
  ResponseOutputMessage,
} from 'openai/resources/responses/responses';
import type {
  ConversationMessage,
  ConversationToolCall,
} from '../../context/conversation-message.js';
import { fromResponsesOutput } from './responses-tools.js';

/**
 * A provider-neutral history as a Responses `input`: user and assistant text as messages, each
 * tool call as a `function_call` item and each tool result as a `function_call_output` item.
 * Pass the system prompt as the request's `instructions`.
 *
 * @example
 * ```ts
 * const response = await client.responses.create({
 *   model: 'gpt-4o-mini',
 *   instructions: 'You investigate build failures.',
 *   input: toResponsesInput(history),
 * });
 * ```
 */
export function toResponsesInput(messages: readonly ConversationMessage[]): ResponseInputItem[] {
  return messages.flatMap((message): ResponseInputItem[] => {
    if (message.role === 'tool') {
      return [
        { type: 'function_call_output', call_id: message.toolCallId, output: message.content },
      ];
    }
    const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    const text: ResponseInputItem[] =
      message.content === '' && calls.length > 0
        ? []
        : [{ type: 'message', role: message.role, content: message.content }];
    return [
      ...text,
      ...calls.map(
        (call): ResponseInputItem => ({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
        }),
      ),
    ];
  });
}

/**
 * A response's `output` as provider-neutral messages: one assistant message with the text of
 * its `message` items (refusals included) and its `function_call` items as tool calls, keyed by
 * `call_id`; `[]` for an output with neither (reasoning only).
 *
 * @example
 * ```ts
 * const response = await client.responses.create({ model, input: toResponsesInput(history), tools });
 * history.push(...fromResponsesOutputItems(response.output));
 * ```
 */
export function fromResponsesOutputItems(
  output: readonly ResponseOutputItem[],
): ConversationMessage[] {
  const content = output
    .filter((item): item is ResponseOutputMessage => item.type === 'message')
    .flatMap((item) => item.content)
    .map((part) => (part.type === 'output_text' ? part.text : part.refusal))
    .join('');
  const toolCalls: ConversationToolCall[] = fromResponsesOutput(output).map((call) => ({
    id: call.id,
    name: call.name,
    arguments: call.arguments as string,
  }));
  if (toolCalls.length > 0) return [{ role: 'assistant', content, toolCalls }];
  return content === '' ? [] : [{ role: 'assistant', content }];
}
