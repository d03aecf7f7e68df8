import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { ToolCallRequest } from '../../executor/tool-executor.js';
import { type ToolSource, toFunctionDefinitions } from './function-definition.js';

/**
 * The `tools` parameter of a Chat Completions request: one strict function per tool. Pass a
 * dispatch's `tools` so the forged `artifact_*` tools (with their `callId` enums) go along.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a name OpenAI rejects or a non-object input.
 * @example
 * ```ts
 * const dispatch = session.dispatch();
 * const completion = await client.chat.completions.create({
 *   model: 'gpt-4o-mini',
 *   messages,
 *   tools: toChatCompletionsTools(dispatch.tools),
 * });
 * ```
 */
export function toChatCompletionsTools(tools: ToolSource): ChatCompletionFunctionTool[] {
  return toFunctionDefinitions(tools).map((definition) => ({
    type: 'function',
    function: definition,
  }));
}

/**
 * The calls of an assistant message (`message.tool_calls`) as requests for
 * {@link ToolSession.run}. Arguments stay the JSON string the model sent: the executor parses
 * them, so malformed JSON becomes an error result the model can read rather than a throw here.
 * A custom tool call passes its free-text input the same way.
 *
 * @example
 * ```ts
 * const message = completion.choices[0]!.message;
 * const outcomes = await session.run(fromChatCompletionsToolCalls(message.tool_calls), dispatch);
 * ```
 */
export function fromChatCompletionsToolCalls(
  toolCalls: readonly ChatCompletionMessageToolCall[] | null | undefined,
): ToolCallRequest[] {
  return (toolCalls ?? []).map((toolCall) =>
    toolCall.type === 'custom'
      ? { id: toolCall.id, name: toolCall.custom.name, arguments: toolCall.custom.input }
      : { id: toolCall.id, name: toolCall.function.name, arguments: toolCall.function.arguments },
  );
}
