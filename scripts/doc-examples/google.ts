// The free names of the TSDoc examples under the spoolforge/google entry (see common.ts).
import type {
  Content,
  Tool as GeminiTool,
  GenerateContentResponse,
  GoogleGenAI,
} from '@google/genai';
import type { GoogleToolSession } from '../../src/providers/google/index.js';

export declare const ai: GoogleGenAI;
export declare const model: string;
export declare const agent: GoogleToolSession;
export declare const contents: Content[];
export declare const response: GenerateContentResponse;
export declare const turn: number;
export type { Content } from '@google/genai';
export declare const tools: GeminiTool[];
