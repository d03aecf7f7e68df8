import type { FunctionDeclaration, Tool as GeminiTool } from '@google/genai';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { Tool } from '../../tools/tool.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { toObjectJsonSchema } from '../json-schema.js';
import { toGeminiSchema } from './to-gemini-schema.js';

/** What a tool needs to be offered: the handler stays on our side. */
type OfferableTool = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

/** The API refuses any other function name with a 400 (64 characters at most, as it answers). */
const functionNamePattern = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/**
 * How parameters are declared: `'openapi'` as `parameters` in Gemini's OpenAPI 3.0 subset
 * (every Gemini model and Vertex AI; see `toGeminiSchema`), or `'json-schema'` as
 * `parametersJsonSchema`, the JSON Schema as it is (newer models; keeps what the subset cannot
 * say, such as `additionalProperties` and `$ref`).
 */
export type GeminiSchemaDialect = 'openapi' | 'json-schema';

/**
 * Options for {@link toGeminiTools}.
 */
export interface GeminiToolsOptions {
  /** Default `'openapi'`. */
  schema?: GeminiSchemaDialect;
}

/**
 * Tools as `generateContent`'s `config.tools` takes them: one Gemini `Tool` whose
 * `functionDeclarations` are `{ name, description, parameters }`, or `[]` when there are none.
 * Pass a dispatch's registry (`dispatch.tools`) so the forged `artifact_*` tools, with their
 * `callId` enums, go out with the request. A tool without arguments declares no parameters
 * (the API refuses an object schema without properties). Gemini needs an object schema; a
 * tool whose zod schema is not `z.object(…)`, or whose name the API refuses (it must start
 * with a letter or `_`, then letters, digits, `_`, `.`, `:` or `-`, 64 at most), fails here
 * with `E_INVALID_ARGUMENT`, naming the tool, rather than as an HTTP 400 at the request.
 *
 * @example
 * ```ts
 * const dispatch = session.dispatch();
 * const response = await ai.models.generateContent({
 *   model: 'gemini-2.5-flash',
 *   contents,
 *   config: { tools: toGeminiTools(dispatch.tools) },
 * });
 * ```
 */
export function toGeminiTools(
  tools: ToolRegistry | Iterable<OfferableTool>,
  options: GeminiToolsOptions = {},
): GeminiTool[] {
  const { schema: dialect = 'openapi' } = options;
  // Checked before any tool: a typo would otherwise send every schema in the default dialect.
  if (dialect !== 'openapi' && dialect !== 'json-schema') {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `schema must be 'openapi' or 'json-schema', got ${JSON.stringify(dialect)}`,
    );
  }
  const list = tools instanceof ToolRegistry ? tools.list() : [...tools];
  if (list.length === 0) return [];
  return [{ functionDeclarations: list.map((tool) => toDeclaration(tool, dialect)) }];
}

function toDeclaration(tool: OfferableTool, dialect: GeminiSchemaDialect) {
  if (!functionNamePattern.test(tool.name)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `Tool name '${tool.name}' is not accepted by Gemini: start with a letter or '_', then use ` +
        `up to 64 letters, digits, '_', '.', ':' or '-'`,
    );
  }
  const schema = toObjectJsonSchema(tool, 'Gemini');
  const declaration: FunctionDeclaration = { name: tool.name, description: tool.description };
  if (Object.keys(schema.properties ?? {}).length === 0) return declaration;
  if (dialect === 'json-schema') return { ...declaration, parametersJsonSchema: schema };
  return { ...declaration, parameters: toGeminiSchema(schema) };
}
