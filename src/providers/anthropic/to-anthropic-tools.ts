import type Anthropic from '@anthropic-ai/sdk';
import type { Tool } from '../../tools/tool.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { toObjectJsonSchema } from '../json-schema.js';

/** What a tool needs to be offered: the handler stays on our side. */
type OfferableTool = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

/**
 * Tools as the Messages API's `tools` parameter takes them: `{ name, description, input_schema }`,
 * the schema converted from zod. Pass a dispatch's registry (`dispatch.tools`) so the forged
 * `artifact_*` tools, with their `callId` enums, go out with the request.
 *
 * Anthropic requires `input_schema` to be an object schema; a tool whose zod schema is not
 * `z.object(…)` fails here with `E_INVALID_ARGUMENT` rather than as an HTTP 400 later.
 *
 * @example
 * ```ts
 * const dispatch = session.dispatch();
 * const message = await client.messages.create({
 *   model: 'claude-sonnet-4-5',
 *   max_tokens: 4096,
 *   messages,
 *   tools: toAnthropicTools(dispatch.tools),
 * });
 * ```
 */
export function toAnthropicTools(tools: ToolRegistry | Iterable<OfferableTool>): Anthropic.Tool[] {
  const list = tools instanceof ToolRegistry ? tools.list() : [...tools];
  return list.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: toObjectJsonSchema(tool, 'Anthropic') as Anthropic.Tool.InputSchema,
  }));
}
