// The free names of the TSDoc examples under the spoolforge/openai-agents entry (see common.ts).
import type { FunctionTool, RunContext } from '@openai/agents';
import type { ProviderCodec, ProviderToolSession, Tool, ToolCallRequest } from '../../src/index.js';
import type {
  SpoolforgeAgentTools,
  SpoolforgeFunctionOutput,
} from '../../src/providers/openai-agents/index.js';
import type { TurnDispatches } from '../../src/providers/openai-agents/turn-dispatches.js';

export { Agent, run } from '@openai/agents';

export declare const spoolforge: SpoolforgeAgentTools;
export declare const runTests: Tool<{ pattern: string }>;
export declare const myOtherTool: FunctionTool;
export declare const turns: TurnDispatches;
export declare const runContext: RunContext<unknown>;
export declare const callId: string;
export declare const name: string;
export declare const input: string;
export declare const provider: ProviderToolSession;
// biome-ignore lint/suspicious/noExplicitAny: the tools' codec takes tools of every input type
export declare const codec: ProviderCodec<Tool<any>, ToolCallRequest, SpoolforgeFunctionOutput>;
