// The free names of the TSDoc examples under the spoolforge/ai-sdk entry (see common.ts).
import type { LanguageModel } from 'ai';
import type { ProviderCodec, ProviderToolSession, Tool, ToolCallRequest } from '../../src/index.js';
import type { SpoolforgeToolOutput, SpoolforgeToolSet } from '../../src/providers/ai-sdk/index.js';
import type { StepDispatches } from '../../src/providers/ai-sdk/step-dispatches.js';
import type { AiSdkToolContext } from '../../src/providers/ai-sdk/to-ai-sdk-tool.js';

export { generateText, stepCountIs } from 'ai';

export declare const model: LanguageModel;
export declare const prompt: string;
export declare const instructions: string;
export declare const tools: SpoolforgeToolSet['tools'];
export declare const toolSetOptions: Pick<
  SpoolforgeToolSet,
  'tools' | 'prepareStep' | 'onStepEnd' | 'onStepError'
>;
export declare const context: AiSdkToolContext;
export declare const prepareStep: SpoolforgeToolSet['prepareStep'];
export declare const onStepEnd: SpoolforgeToolSet['onStepEnd'];
export declare const produceLog: Tool<{ service: string }>;
export declare const runTests: Tool<{ pattern: string }>;
/** An AI SDK tool's `execute` that answers with a spoolforge tool output. */
export declare function execute(input: unknown): Promise<SpoolforgeToolOutput>;
export declare const steps: StepDispatches;
export declare const toolCallId: string;
export declare const name: string;
export declare const input: unknown;
export declare const provider: ProviderToolSession;
// biome-ignore lint/suspicious/noExplicitAny: the tool set's codec takes tools of every input type
export declare const codec: ProviderCodec<Tool<any>, ToolCallRequest, SpoolforgeToolOutput>;
