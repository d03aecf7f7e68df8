import { randomUUID } from 'node:crypto';
import type { FunctionTool } from '@openai/agents';
import type { Tool } from '../../tools/tool.js';
import type { ToolDeclaration } from '../core/forged-tool-declarations.js';
import {
  type OpenAIFunctionDefinition,
  toFunctionDefinitions,
} from '../openai/function-definition.js';
import type { SpoolforgeFunctionOutput } from './spoolforge-function-output.js';
import type { TurnDispatches } from './turn-dispatches.js';

/**
 * An Agents SDK function tool whose calls run through a spoolforge session.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'Investigator', tools: spoolforge.tools });
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: the tools serve agents of any context
export type SpoolforgeFunctionTool = FunctionTool<any, undefined, SpoolforgeFunctionOutput>;

/**
 * A function tool for `declaration` whose life follows the run's turns: `isEnabled`, which the
 * SDK asks before every model call, opens the turn's dispatch and enables the tool only if the
 * dispatch offers it (a forged tool, once something is spooled); its description and strict
 * schema are then the dispatch's (a forged tool's with the turn's `callId` enum). `invoke` runs
 * the call in its turn's dispatch, with the arguments as the model sent them: the session's
 * executor validates them and answers a mistake with an error the model reads.
 *
 * @example
 * ```ts
 * const tools = [...session.registry.list(), ...forgedToolDeclarations(session.kinds)]
 *   .map((declaration) => toFunctionTool(declaration, turns));
 * ```
 */
export function toFunctionTool(
  declaration: ToolDeclaration,
  turns: TurnDispatches,
): SpoolforgeFunctionTool {
  const { name } = declaration;
  const current = () => definitionOf(turns.offered.get(name) ?? declaration);
  current(); // a name or a schema OpenAI would reject fails here, not at the first request
  return {
    type: 'function',
    name,
    get description() {
      return current().description;
    },
    get parameters() {
      return current().parameters as SpoolforgeFunctionTool['parameters'];
    },
    strict: true,
    needsApproval: async () => false,
    isEnabled: async (runContext, agent) => {
      turns.forTurn(runContext, agent);
      return turns.offered.has(name);
    },
    invoke: async (runContext, input, details) => {
      const id = details?.toolCall?.callId ?? `call_${randomUUID()}`;
      const signal = details?.signal;
      const [output] = await turns
        .forCall(runContext)
        .run({ id, name, arguments: input }, signal ? { signal } : {});
      // run() answers one output per request.
      return output as SpoolforgeFunctionOutput;
    },
  };
}

const definitions = new WeakMap<ToolDeclaration, OpenAIFunctionDefinition>();

/** Each dispatch forges new tools; caching by tool converts each one once, not per read. */
function definitionOf(tool: ToolDeclaration): OpenAIFunctionDefinition {
  let definition = definitions.get(tool);
  if (!definition) {
    // One tool in, one definition out.
    definition = toFunctionDefinitions([tool as Tool])[0] as OpenAIFunctionDefinition;
    definitions.set(tool, definition);
  }
  return definition;
}
