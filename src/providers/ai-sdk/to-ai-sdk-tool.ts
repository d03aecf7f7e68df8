import { type Tool as AiSdkTool, type JSONSchema7, jsonSchema } from 'ai';
import type { ToolSession } from '../../executor/tool-session.js';
import { toJsonSchema, toStrictJsonSchema } from '../json-schema.js';
import type { ToolDeclaration } from './forged-tool-declarations.js';
import type { StepDispatches } from './step-dispatches.js';
import {
  type MediaResults,
  type SpoolforgeToolOutput,
  toToolModelOutput,
  toToolOutput,
} from './tool-output.js';

/**
 * What every tool of one tool set shares: the session its calls run in, the per-step
 * dispatches, and how schemas and media are rendered.
 */
export interface AiSdkToolContext {
  session: ToolSession;
  steps: StepDispatches;
  /** OpenAI strict mode: every property required (nullable if optional), `strict: true`. */
  strict: boolean;
  mediaResults: MediaResults;
}

/**
 * An AI SDK tool whose calls run through the session: `execute` hands the call to
 * `session.run` with the current step's dispatch, so large returns are spooled and the model
 * gets the handle. Its description and schema are those of the tool the current step offers
 * under that name (a forged tool's schema carries the step's `callId` enum), falling back to
 * `declaration` outside a step.
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
  const { session, steps, strict, mediaResults } = context;
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
      const [outcome] = await session.run(
        [request],
        steps.forExecution(),
        abortSignal ? { signal: abortSignal } : {},
      );
      // run() answers one outcome per request.
      return toToolOutput(outcome as NonNullable<typeof outcome>, mediaResults);
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
