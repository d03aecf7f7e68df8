import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { Tool } from '../../tools/tool.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import { toStrictJsonSchema } from '../json-schema.js';

/**
 * The tools an adapter turns into a request's `tools`: a registry (a dispatch's `tools`, with
 * the forged `artifact_*` tools merged in) or a plain list.
 */
// biome-ignore lint/suspicious/noExplicitAny: tools of every input type
export type ToolSource = ToolRegistry | readonly Tool<any>[];

/**
 * One tool as both OpenAI APIs describe a function: name, description, a strict JSON Schema.
 */
export interface OpenAIFunctionDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: true;
}

/** OpenAI rejects any other function name with a 400; failing here names the tool. */
const functionNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The function definitions of `tools`, in order. Strict mode (`strict: true`) needs an object
 * schema with every property required and `additionalProperties: false`; optional fields
 * become nullable, which the executor reads back as "left out".
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a name OpenAI rejects or a non-object input.
 * @example
 * ```ts
 * toFunctionDefinitions([runBuild]);
 * // [{ name: 'run_build', description: '…', parameters: { type: 'object', …, additionalProperties: false }, strict: true }]
 * ```
 */
export function toFunctionDefinitions(tools: ToolSource): OpenAIFunctionDefinition[] {
  const list = 'list' in tools ? tools.list() : tools;
  return list.map((tool) => {
    if (!functionNamePattern.test(tool.name)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Tool name '${tool.name}' is not accepted by OpenAI: use 1–64 letters, digits, '_' or '-'`,
      );
    }
    const parameters = toStrictJsonSchema(tool.inputSchema);
    if (parameters.type !== 'object') {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Tool '${tool.name}': OpenAI function parameters must be an object; use z.object({ … })`,
      );
    }
    return { name: tool.name, description: tool.description, parameters, strict: true };
  });
}
