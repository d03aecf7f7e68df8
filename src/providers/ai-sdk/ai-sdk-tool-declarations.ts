import type { JSONSchema7, ToolSet } from 'ai';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/** One tool as a request declares it to the AI SDK: JSON, nothing to run. */
export interface AiSdkToolDeclaration {
  description?: string;
  inputSchema: JSONSchema7;
  strict?: boolean;
}

const aiSdkSchemaMarker = Symbol.for('vercel.ai.schema');

/**
 * The tools a `generateText` step offers, as JSON: each active tool's description, its input's
 * JSON Schema as the step evaluates it (a forged tool's carries the step's `callId` enum) and
 * `strict`, in the tool set's order. What `ConversationLog.modelCalls` records as a request's
 * tools; `jsonSchema()` of each schema offers the same tools again.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a tool whose schema is not an AI SDK schema
 *   (a zod schema: wrap it with `jsonSchema()` or `zodSchema()`).
 * @example
 * ```ts
 * const spoolforge = spoolforgeToolSet({ tools: [runBuild] });
 * const { activeTools } = spoolforge.prepareStep({ stepNumber: 0 });
 * const tools = await aiSdkToolDeclarations(spoolforge.tools, activeTools);
 * ```
 */
export async function aiSdkToolDeclarations(
  tools: ToolSet,
  activeTools?: readonly string[],
): Promise<Record<string, AiSdkToolDeclaration>> {
  const declarations: Record<string, AiSdkToolDeclaration> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (activeTools && !activeTools.includes(name)) continue;
    const lazy = tool.inputSchema as unknown;
    const schema = (typeof lazy === 'function' ? lazy() : lazy) as Record<PropertyKey, unknown>;
    if (!schema?.[aiSdkSchemaMarker]) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Tool ${name}'s inputSchema is not an AI SDK schema: wrap it with jsonSchema() or zodSchema()`,
      );
    }
    const { description } = tool;
    const strict = (tool as { strict?: boolean }).strict;
    declarations[name] = {
      ...(typeof description === 'string' ? { description } : {}),
      inputSchema: (await schema.jsonSchema) as JSONSchema7,
      ...(strict === undefined ? {} : { strict }),
    };
  }
  return declarations;
}
