// The free names of the TSDoc examples under the spoolforge/openai entry (see common.ts).
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  Response,
  ResponseInput,
  Tool as ResponsesTool,
} from 'openai/resources/responses/responses';
import type { Media } from '../../src/index.js';
import type { OpenAIToolSession } from '../../src/providers/openai/index.js';

export { default as OpenAI } from 'openai';
export type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

export declare const client: OpenAI;
export declare const model: string;
export declare const agent: OpenAIToolSession;
export declare const chart: Media;
export declare const report: Media;
// Chat Completions.
export declare const messages: ChatCompletionMessageParam[];
export declare const completion: ChatCompletion;
export declare const message: ChatCompletionMessage;
// Responses.
export declare const input: ResponseInput;
export declare const response: Response;
export declare const tools: ResponsesTool[];
