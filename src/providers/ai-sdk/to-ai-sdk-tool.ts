import type { Tool as AiSdkTool, JSONSchema7, Schema } from 'ai';
import type { ToolDeclaration } from '../core/forged-tool-declarations.js';
import { toJsonSchema, toStrictJsonSchema } from '../json-schema.js';
import type { StepDispatches } from './step-dispatches.js';
import { type AiSdkMajor, type SpoolforgeToolOutput, toToolModelOutput } from './tool-output.js';

/**
 * What every tool of one tool set shares: the per-step dispatches its calls run in, how schemas
 * are rendered, and the AI SDK major its calls came from (it spells media parts).
 */
export interface AiSdkToolContext {
  steps: StepDispatches;
  /** OpenAI strict mode: every property required (nullable if optional), `strict: true`. */
  strict: boolean;
  /** The major the last call ran under (7 until a call says otherwise). */
  major: AiSdkMajor;
}

/**
 * An AI SDK tool whose calls run through the session: `execute` runs the call in the current
 * step's dispatch, so large returns are spooled and the model gets the handle. Its description
 * and schema are those of the tool the current step offers under that name (a forged tool's
 * schema carries the step's `callId` enum), falling back to `declaration` outside a step.
 *
 * The schema is a lazy schema (a function), which the SDK evaluates each time it prepares a
 * step's tools. Its `validate` accepts any input: the session's executor validates against the
 * step's schema itself, records the call, and tells the model what was wrong (an unknown
 * `callId`, say) — the SDK validating first would skip the session and word its own error.
 * Nothing here is imported from `ai` at run time, so the tool works with whichever copy (and
 * major, 6 or 7) of the SDK calls it.
 *
 * @example
 * ```ts
 * const tools: SpoolforgeTools = { run_build: toAiSdkTool(runBuild, context) };
 * await generateText({ model, prompt, tools, prepareStep, onStepEnd });
 * ```
 */
export function toAiSdkTool(
  declaration: ToolDeclaration,
  context: AiSdkToolContext,
): AiSdkTool<unknown, SpoolforgeToolOutput> {
  const { steps, strict } = context;
  const current = () => steps.offered.get(declaration.name) ?? declaration;
  return {
    get description() {
      return current().description;
    },
    inputSchema: () => acceptingSchema(schemaOf(current(), strict)),
    ...(strict ? { strict: true } : {}),
    execute: async (input, options) => {
      // AI SDK 7 hands a tool its `context`; AI SDK 6 had `experimental_context` instead.
      context.major = 'experimental_context' in options ? 6 : 7;
      const { toolCallId, abortSignal } = options;
      const request = { id: toolCallId, name: declaration.name, arguments: input };
      const [output] = await steps
        .forExecution()
        .run(request, abortSignal ? { signal: abortSignal } : {});
      // run() answers one output per request.
      return output as SpoolforgeToolOutput;
    },
    toModelOutput: ({ output }) => toToolModelOutput(output, { major: context.major }),
  };
}

/**
 * The marker by which the AI SDK (6 and 7 alike) knows a schema object: `jsonSchema()` from
 * `ai` sets the same global symbol. Built here, the schema needs no `ai` at run time.
 */
const aiSdkSchemaMarker = Symbol.for('vercel.ai.schema');

/** A JSON Schema as an AI SDK schema whose validation accepts anything (the session validates). */
function acceptingSchema(jsonSchema: JSONSchema7): Schema<unknown> {
  const schema = {
    [aiSdkSchemaMarker]: true,
    _type: undefined,
    jsonSchema,
    validate: (value: unknown) => ({ success: true as const, value }),
  };
  // The SDK types its marker as a unique symbol of its own; the value is the same global symbol.
  return schema as unknown as Schema<unknown>;
}

const schemas = { loose: new WeakMap<object, JSONSchema7>(), strict: new WeakMap() };

/** Each dispatch forges new schemas; caching by schema converts each one once, not per read. */
function schemaOf(tool: ToolDeclaration, strict: boolean): JSONSchema7 {
  const cache = strict ? schemas.strict : schemas.loose;
  let schema = cache.get(tool.inputSchema);
  if (!schema) {
    const convert = strict ? toStrictJsonSchema : toJsonSchema;
    schema = convert(tool.inputSchema) as JSONSchema7;
    cache.set(tool.inputSchema, schema);
  }
  return schema;
}
