// The free names of the TSDoc examples that scripts/check-doc-examples.mjs type-checks: what an
// example takes as already there (an artifact, a reader, a session…), declared with its type.
// A provider's own names (`client`, `message`…) are in the preamble named after its entry.
import type { Worker } from 'node:worker_threads';
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { GrepScanOptions, GrepSink, LineIndex, LineMatcher } from '../../src/engine.js';
import type {
  ArtifactStore,
  ConversationEvent,
  ConversationLog,
  ConversationLogBackend,
  ConversationMessage,
  DispatchContext,
  GrepLine,
  JsonDocument,
  Media,
  ProjectContextOptions,
  ResultLimits,
  ShapeField,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpooledMarkdownArtifact,
  SpoolReader,
  StoredArtifactRecord,
  Summariser,
  TokenUsage,
  Tool,
  ToolCall,
  ToolCallOutcome,
  ToolCallRequest,
  ToolEvent,
  ToolHandlerContext,
  ToolRegistry,
  ToolSession,
  UiToolEventsOptions,
} from '../../src/index.js';

export * as fs from 'node:fs';
export { createReadStream } from 'node:fs';
export { readFile } from 'node:fs/promises';
export * as http from 'node:http';
export * as os from 'node:os';
export { countTokens } from 'gpt-tokenizer';
export { z } from 'zod';

// Artifacts and what they read from.
export declare const artifact: SpooledArtifact;
export declare const readme: SpooledMarkdownArtifact;
export declare const orders: SpooledJsonArtifact;
export declare const document: JsonDocument;
export declare const reader: SpoolReader;
export declare const index: LineIndex;
export declare const media: Media;
export declare const path: string;
export declare const size: number;
export declare const firstBytes: Uint8Array;
export declare const head: Uint8Array;
export declare const block: Uint8Array;
export declare const bytes: Uint8Array;
export declare const chunk: Uint8Array;
export declare const offset: number;
export declare let tokens: number;
export declare const chunks: AsyncIterable<Uint8Array>;
export declare const hash: import('node:crypto').Hash;
export declare const rows: unknown[];
export declare const value: unknown;
export declare const field: ShapeField;
export declare const lines: GrepLine[];
export declare const line: GrepLine;
export declare const shown: GrepLine[];
export declare const next: number;
export declare const limits: ResultLimits;
export declare const matcher: LineMatcher;
export declare const sink: GrepSink;
export declare const grepOptions: GrepScanOptions;
export declare const text: string;
export declare const handle: string;
export declare const previewLines: number;
export declare const response: Response;
export declare const signal: AbortSignal;
export declare const error: unknown;

// Tools, sessions and their calls.
export declare const runBuild: Tool<{ target: string }>;
export declare const fetchLog: Tool<{ service: string }>;
export declare const tool: Tool;
// A tool's parts, as `artifactTool` takes them.
export declare const description: string;
export declare const inputSchema: Tool<{ callId: string }>['inputSchema'];
export declare const handler: Tool<{ callId: string }>['handler'];
export declare const tools: ToolRegistry;
export declare const userTools: ToolRegistry;
export declare const forgedTools: ToolRegistry;
export declare const forged: ToolRegistry;
export declare const registry: ToolRegistry;
export declare const session: ToolSession;
export declare const dispatch: DispatchContext;
export declare const context: ToolHandlerContext;
export declare const input: unknown;
export declare const request: ToolCallRequest;
export declare const call: ToolCall;
export declare const outcome: ToolCallOutcome;
export declare const outcomes: ToolCallOutcome[];
export declare const store: ArtifactStore;
export declare const record: StoredArtifactRecord;
export declare const id: string;
export declare const worker: Worker;
/** A command's output as a stream, as a tool handler returns it. */
export declare function spawnOutput(
  command: string,
  args: string[],
  options: { signal?: AbortSignal },
): AsyncIterable<string>;
/** Whatever the application calls its model with. */
export declare function callModel(...args: unknown[]): Promise<{ toolCalls: ToolCallRequest[] }>;

// Conversations.
export declare const log: ConversationLog;
export declare const backend: ConversationLogBackend;
export declare const history: ConversationMessage[];
export declare const conversation: ConversationMessage[];
export declare const recent: ConversationMessage[];
export declare const message: ConversationMessage;
export declare const options: ProjectContextOptions;
export declare const usage: TokenUsage;
export declare const summarise: Summariser;
export declare const systemPrompt: string;
export declare const instructions: string;
export declare const events: AsyncIterable<ToolEvent>;
export declare const event: ConversationEvent & { type: 'message' };
export declare const agentEvents: AsyncIterable<ToolEvent>;
export declare const uiOptions: UiToolEventsOptions;
export declare const socket: { send(data: string): void };
/** An application's own content blocks for a media result. */
export declare function imageBlock(media: Media): unknown;
export declare function documentBlock(media: Media): unknown;
export declare function sendToBrowser(event: unknown): void;
export declare function retryWithFixedString(): void;
export declare function compactNow(): Promise<void>;
export declare const reject: (reason: unknown) => void;

// The OpenAI client the provider-neutral examples call (context compaction).
export declare const client: OpenAI;
export declare const model: string;
export declare const messages: ChatCompletionMessageParam[];
export declare const completion: ChatCompletion;
