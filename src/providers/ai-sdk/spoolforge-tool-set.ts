import type { Tool as AiSdkTool, ToolSet } from 'ai';
import type { ToolSession } from '../../executor/tool-session.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import { forgedToolDeclarations } from '../core/forged-tool-declarations.js';
import {
  ProviderToolSession,
  type ProviderToolSessionOptions,
} from '../core/provider-tool-session.js';
import { StepDispatches } from './step-dispatches.js';
import { type AiSdkToolContext, toAiSdkTool } from './to-ai-sdk-tool.js';
import { type MediaResults, type SpoolforgeToolOutput, toToolOutput } from './tool-output.js';

/**
 * How the tool set talks to the AI SDK, whichever way its session is made.
 */
export interface AiSdkToolSetOptions<AiSdkTools extends ToolSet = NoTools> {
  /**
   * OpenAI strict mode: schemas list every property as required (optional ones become
   * nullable; the executor reads `null` as left out) and tools carry `strict: true`.
   * Default false.
   */
  strict?: boolean;
  /** Default `'native'`; use `'note'` with Chat Completions models. See {@link MediaResults}. */
  mediaResults?: MediaResults;
  /**
   * AI SDK tools offered as they are, next to the session's, in every step. They do not run
   * through the session: their outputs are not spooled.
   */
  aiSdkTools?: AiSdkTools;
}

/** No AI SDK tools of the caller's: the default of the tool set's type parameter. */
export type NoTools = Record<never, never>;

/**
 * The tools a {@link SpoolforgeToolSet} declares for its session: each takes the input the
 * session's executor validates and returns a {@link SpoolforgeToolOutput}, so the SDK's
 * `toolCalls` and `toolResults` are typed (not `any`).
 *
 * @example
 * ```ts
 * const tools: SpoolforgeTools = spoolforgeToolSet({ tools: [runTests] }).tools;
 * ```
 */
export type SpoolforgeTools = Record<string, AiSdkTool<unknown, SpoolforgeToolOutput>>;

/**
 * Options for {@link spoolforgeToolSet}: either the options of a new {@link ToolSession}
 * (`tools`, `inlineThreshold`, `limits`, …), which the tool set closes, or a `session` of
 * yours, which you close.
 */
export type SpoolforgeToolSetOptions<AiSdkTools extends ToolSet = NoTools> =
  AiSdkToolSetOptions<AiSdkTools> & ProviderToolSessionOptions;

/**
 * Tools for `generateText` / `streamText` (or a `ToolLoopAgent`) whose forged artifact tools
 * appear per step. Pass `tools`, `prepareStep`, `onStepEnd` and `onStepError` together (AI
 * SDK 6: `tools`, `prepareStep` and `onStepFinish`).
 *
 * @example
 * ```ts
 * await using spoolforge = spoolforgeToolSet({ tools: [produceLog] });
 * const { tools, prepareStep, onStepEnd, onStepError } = spoolforge;
 * const result = await generateText({ model, prompt, tools, prepareStep, onStepEnd, onStepError, stopWhen: stepCountIs(8) });
 * ```
 */
export interface SpoolforgeToolSet<AiSdkTools extends ToolSet = NoTools> extends AsyncDisposable {
  /**
   * The session's tools and every tool its `kinds` forge, plus `aiSdkTools`. The SDK
   * cannot add tools after the start, so all are declared and each step narrows them.
   */
  readonly tools: SpoolforgeTools & AiSdkTools;
  /**
   * Begins a step: acks the previous step's dispatch if it is still pending, dispatches anew,
   * and returns `activeTools` — the session's tools, and the forged tools only once there is a
   * spooled output to query (their schemas then carry the `callId` enum of this dispatch). It
   * overrides a top-level `activeTools`; to combine it with a `prepareStep` of yours, call it
   * from yours and keep (or narrow) its `activeTools`.
   */
  readonly prepareStep: (step: { stepNumber: number }) => { activeTools: string[] };
  /** Acks the step's dispatch once the step ended: its ephemeral tools are pruned. */
  readonly onStepEnd: () => void;
  /** {@link SpoolforgeToolSet.onStepEnd} under AI SDK 6's name for it. */
  readonly onStepFinish: () => void;
  /**
   * Nacks the step's dispatch when its request failed (AI SDK 7 calls it instead of
   * `onStepEnd`). Without it, the next run's first step nacks it.
   */
  readonly onStepError: (event: { error: unknown }) => void;
  /** The session the tools run in: its `toolCalls` hold every call and spooled artifact. */
  readonly session: ToolSession;
  /** The current (or last) step's dispatch, until the first step begins `undefined`. */
  readonly dispatch: DispatchContext | undefined;
  /** Closes the session's artifacts (temp files) if the tool set made the session. */
  close(): Promise<void>;
}

/**
 * Makes the AI SDK tool set of a {@link ToolSession}: the session's own tools execute through
 * the session (large returns are spooled; the model gets the short handle as the tool output),
 * each step is one dispatch, acked when the step ends (nacked when its request fails), and the
 * forged tools (`artifact_read`, `artifact_grep`, …) are offered in a step only when there are
 * spooled outputs, with that dispatch's `callId` enum. A call with a `callId` the step does not offer
 * (an artifact tool's own call, say) comes back to the model as a tool error it can read.
 *
 * @example
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { generateText, stepCountIs } from 'ai';
 * import { defineTool } from 'spoolforge';
 * import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
 *
 * const runTests = defineTool({
 *   name: 'run_tests',
 *   description: 'Runs the test suite and returns its full output.',
 *   inputSchema: z.object({}),
 *   handler: (_input, { signal }) => spawnOutput('npm', ['test'], { signal }),
 * });
 * await using spoolforge = spoolforgeToolSet({ tools: [runTests] });
 * const { text } = await generateText({
 *   model: openai('gpt-4.1'),
 *   prompt: 'Why do the tests fail?',
 *   tools: spoolforge.tools,
 *   prepareStep: spoolforge.prepareStep,
 *   onStepEnd: spoolforge.onStepEnd,
 *   onStepError: spoolforge.onStepError,
 *   stopWhen: stepCountIs(10),
 * });
 * ```
 */
export function spoolforgeToolSet<AiSdkTools extends ToolSet = NoTools>(
  options: SpoolforgeToolSetOptions<AiSdkTools> = {},
): SpoolforgeToolSet<AiSdkTools> {
  const provider = new ProviderToolSession(options);
  const { session } = provider;
  const mediaResults = options.mediaResults ?? 'native';
  const steps = new StepDispatches(provider, {
    toTools: (registry) => registry.list(),
    fromCalls: (request) => [request],
    toResults: (outcomes) => outcomes.map((outcome) => toToolOutput(outcome, mediaResults)),
  });
  const context: AiSdkToolContext = { steps, strict: options.strict ?? false, major: 7 };
  const tools: SpoolforgeTools = {};
  const declarations = [...session.registry.list(), ...forgedToolDeclarations(session.kinds)];
  for (const declaration of declarations) {
    tools[declaration.name] = toAiSdkTool(declaration, context);
  }
  const alwaysActive = Object.keys(options.aiSdkTools ?? {});
  const close = () => provider.close();
  const onStepEnd = () => steps.finish();
  return {
    tools: Object.assign(tools, options.aiSdkTools),
    prepareStep: ({ stepNumber }) => {
      steps.begin(stepNumber);
      // A tool the dispatch offers but nobody declared cannot be sent: the SDK has no such tool.
      const offered = [...steps.offered.keys()].filter((name) => name in tools);
      return { activeTools: [...new Set([...offered, ...alwaysActive])] };
    },
    onStepEnd,
    onStepFinish: onStepEnd,
    onStepError: ({ error }) => steps.fail(error),
    session,
    get dispatch() {
      return steps.current;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
