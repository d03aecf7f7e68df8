import type { ToolSession } from '../../executor/tool-session.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import { forgedToolDeclarations } from '../core/forged-tool-declarations.js';
import {
  ProviderToolSession,
  type ProviderToolSessionOptions,
} from '../core/provider-tool-session.js';
import { toSpoolforgeFunctionOutput } from './spoolforge-function-output.js';
import { type SpoolforgeFunctionTool, toFunctionTool } from './to-function-tool.js';
import { TurnDispatches } from './turn-dispatches.js';

/**
 * Options for {@link spoolforgeAgentTools}: either the options of a new {@link ToolSession}
 * (`tools`, `inlineThreshold`, `limits`, …), which the tools' `close()` closes, or a `session`
 * of yours, which you close.
 */
export type SpoolforgeAgentToolsOptions = ProviderToolSessionOptions;

/**
 * The function tools of a session for an OpenAI Agents SDK `Agent`, and what to close.
 *
 * @example
 * ```ts
 * await using spoolforge = spoolforgeAgentTools({ tools: [runTests] });
 * const agent = new Agent({ name: 'Investigator', tools: [...spoolforge.tools, myOtherTool] });
 * ```
 */
export interface SpoolforgeAgentTools extends AsyncDisposable {
  /**
   * The session's tools and every tool its `kinds` forge, as function tools: give them to the
   * `Agent` (beside tools of your own, which are not spooled). Each model call enables the
   * forged ones only once something is spooled, with that call's `callId` enum.
   */
  readonly tools: SpoolforgeFunctionTool[];
  /** The session the tools run in: its `toolCalls` hold every call and spooled artifact. */
  readonly session: ToolSession;
  /** The dispatch of the latest model call; `undefined` until the first one. */
  readonly dispatch: DispatchContext | undefined;
  /**
   * Settles the last model call's dispatch, stops listening to the agents' hooks, and closes
   * the session's artifacts (temp files) if the tools made the session.
   */
  close(): Promise<void>;
}

/**
 * Makes the Agents SDK function tools of a {@link ToolSession}: the session's own tools run
 * through the session (large returns are spooled; the model gets the short handle as the
 * output), each model call of a run is one dispatch, and the forged tools (`artifact_read`,
 * `artifact_grep`, …) are enabled in a call only when there are spooled outputs, with that
 * dispatch's `callId` enum. A model mistake (bad arguments, an unknown `callId`, a tool that
 * throws) is the call's output, `Error (CODE): …`, and the run goes on. Images and PDFs a tool
 * returns go as the SDK's image and file outputs.
 *
 * The SDK has no hook around a model call; the tools' `isEnabled`, which it asks before each
 * one, opens its dispatch (see `TurnDispatches`). One tool set serves one run at a time.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a tool name or input schema OpenAI rejects.
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { spoolforgeAgentTools } from 'spoolforge/openai-agents';
 *
 * await using spoolforge = spoolforgeAgentTools({ tools: [runTests] });
 * const agent = new Agent({
 *   name: 'Investigator',
 *   instructions: 'Find why the tests fail.',
 *   tools: spoolforge.tools,
 * });
 * const result = await run(agent, 'Why do the tests fail?', {
 *   toolNotFoundBehavior: 'return_error_to_model',
 * });
 * console.log(result.finalOutput);
 * ```
 */
export function spoolforgeAgentTools(
  options: SpoolforgeAgentToolsOptions = {},
): SpoolforgeAgentTools {
  const provider = new ProviderToolSession(options);
  const { session } = provider;
  const turns = new TurnDispatches(provider, {
    toTools: (registry) => registry.list(),
    fromCalls: (request) => [request],
    toResults: (outcomes) => outcomes.map(toSpoolforgeFunctionOutput),
  });
  // By name, forged ones last: a dispatch's forged tools replace session tools of their name.
  const declarations = new Map(
    [...session.registry.list(), ...forgedToolDeclarations(session.kinds)].map((declaration) => [
      declaration.name,
      declaration,
    ]),
  );
  const tools = [...declarations.values()].map((declaration) => toFunctionTool(declaration, turns));
  const close = async () => {
    turns.close();
    await provider.close();
  };
  return {
    tools,
    session,
    get dispatch() {
      return turns.current;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
