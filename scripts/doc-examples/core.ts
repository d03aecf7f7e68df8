// The free names of the TSDoc examples in src/providers/core/ (see common.ts): an Anthropic
// loop, and the three conversions of an adapter for another SDK.
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolCallOutcome, ToolCallRequest, ToolRegistry } from '../../src/index.js';
import type { AnthropicToolSession } from '../../src/providers/anthropic/index.js';

export { default as Anthropic } from '@anthropic-ai/sdk';

export declare const client: Anthropic;
export declare const model: string;
export declare const agent: AnthropicToolSession;
export declare const messages: Anthropic.MessageParam[];
export declare function toGeminiTools(tools: ToolRegistry): object[];
export declare function fromGeminiCalls(calls: object[]): ToolCallRequest[];
export declare function toGeminiParts(outcomes: ToolCallOutcome[]): object[];
