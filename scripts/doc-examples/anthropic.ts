// The free names of the TSDoc examples under the spoolforge/anthropic entry (see common.ts).
import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicToolSession } from '../../src/providers/anthropic/index.js';

export { default as Anthropic } from '@anthropic-ai/sdk';

export declare const client: Anthropic;
export declare const model: string;
export declare const agent: AnthropicToolSession;
export declare const messages: Anthropic.MessageParam[];
export declare const message: Anthropic.Message;
export declare const tools: Anthropic.Tool[];
