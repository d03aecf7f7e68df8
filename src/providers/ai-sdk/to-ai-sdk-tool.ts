import { type Tool as AiSdkTool, type JSONSchema7, jsonSchema } from 'ai';
import type { ToolDeclaration } from '../core/forged-tool-declarations.js';
import { toJsonSchema, toStrictJsonSchema } from '../json-schema.js';
import type { StepDispatches } from './step-dispatches.js';
import { type SpoolforgeToolOutput, toToolModelOutput } from './tool-output.js';

/**
 * What every tool of one tool set shares: the per-step dispatches its calls run in, and how
 * schemas are rendered.
 */
export interface AiSdkToolContext {
  steps: StepDispatches;
  /** OpenAI strict mode: every property required (nullable if optional), `strict: true`. */
  strict: boolean;
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
 *
 * @example
 * ```ts
 * const tools: SpoolforgeTools = { run_build: toAiSdkTool(runBuild, context) };
 * await generateText({ model, prompt, tools, prepareStep, onStepFinish });
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
    inputSchema: () =>
      jsonSchema<unknown>(schemaOf(current(), strict), {
        validate: (value) => ({ success: true, value }),
      }),
    ...(strict ? { strict: true } : {}),
    execute: async (input, { toolCallId, abortSignal }) => {
      const request = { id: toolCallId, name: declaration.name, arguments: input };
      const [output] = await steps
        .forExecution()
        .run(request, abortSignal ? { signal: abortSignal } : {});
      // run() answers one output per request.
      return output as SpoolforgeToolOutput;
    },
    toModelOutput: ({ output }) => toToolModelOutput(output),
  };
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
