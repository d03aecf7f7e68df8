import type {
  FunctionTool,
  ResponseFunctionToolCall,
  ResponseOutputItem,
} from 'openai/resources/responses/responses';
import type { ToolCallRequest } from '../../executor/tool-executor.js';
import { type ToolSource, toFunctionDefinitions } from './function-definition.js';

/**
 * The `tools` parameter of a Responses request: one flat strict `function` tool per tool. Pass
 * a dispatch's `tools` so the forged `artifact_*` tools (with their `callId` enums) go along.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a name OpenAI rejects or a non-object input.
 * @example
 * ```ts
 * const dispatch = session.dispatch();
 * const response = await client.responses.create({
 *   model: 'gpt-4o-mini',
 *   input,
 *   tools: toResponsesTools(dispatch.tools),
 * });
 * ```
 */
export function toResponsesTools(tools: ToolSource): FunctionTool[] {
  return toFunctionDefinitions(tools).map((definition) => ({ type: 'function', ...definition }));
}

/**
 * The `function_call` items of a response's `output` as requests for {@link ToolSession.run},
 * keyed by `call_id` (what `function_call_output` answers), not the item `id`. Arguments stay
 * the JSON string the model sent: the executor parses them, so malformed JSON becomes an error
 * result rather than a throw here. Other items (messages, reasoning) are skipped.
 *
 * @example
 * ```ts
 * const requests = fromResponsesOutput(response.output);
 * const outcomes = await session.run(requests, dispatch);
 * ```
 */
export function fromResponsesOutput(output: readonly ResponseOutputItem[]): ToolCallRequest[] {
  return output
    .filter((item): item is ResponseFunctionToolCall => item.type === 'function_call')
    .map((item) => ({ id: item.call_id, name: item.name, arguments: item.arguments }));
}
