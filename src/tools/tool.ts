import type { z } from 'zod';
import type { ToolCall } from './tool-call.js';

/**
 * What happens when a registry meets a second tool of the same name: fail, take the newcomer,
 * or keep the one it has.
 *
 * @example
 * ```ts
 * ToolRegistry.merge([userTools, forgedTools], { onCollision: 'replace' });
 * ```
 */
export type CollisionPolicy = 'throw' | 'replace' | 'keep';

/**
 * The dispatch a call was made in, as a handler sees it (a `DispatchContext` is one): the calls
 * of the turn so far, and its settlement.
 *
 * @example
 * ```ts
 * const countCalls = defineTool({
 *   name: 'count_calls',
 *   description: 'How many tools the model has called this turn.',
 *   inputSchema: z.object({}),
 *   handler: async (_input, { dispatch }) => `${dispatch.turnToolCalls.length} calls so far`,
 * });
 * ```
 */
export interface HandlerDispatch {
  readonly turnToolCalls: readonly ToolCall[];
  readonly state: 'pending' | 'acked' | 'nacked';
  /** Runs `handler` on ack; returns an unsubscribe function. */
  onAck(handler: () => void): () => void;
  /** Runs `handler` on nack; returns an unsubscribe function. */
  onNack(handler: (error: unknown) => void): () => void;
}

/**
 * What a handler gets besides its arguments.
 *
 * @example
 * ```ts
 * const fetchPage = defineTool({
 *   name: 'fetch_page',
 *   description: 'Fetches a web page.',
 *   inputSchema: z.object({ url: z.string() }),
 *   handler: async (input, { signal }) => (await fetch(input.url, { signal })).body,
 * });
 * ```
 */
export interface ToolHandlerContext {
  /** Aborted when the caller gives up; pass it on to anything long. */
  signal: AbortSignal;
  /** The id the model gave this call. */
  toolCallId: string;
  /** The dispatch whose response asked for this call. */
  dispatch: HandlerDispatch;
  /**
   * Reports progress to the session's tool events (a UI), never to the model. The executor
   * always gives it; it is optional for code that calls a handler itself.
   */
  progress?: (update: ToolProgress) => void;
}

/**
 * A handler's progress report: a line for people, and bytes done so far.
 *
 * @example
 * ```ts
 * const update: ToolProgress = { message: 'linking', bytes: 12_000_000 };
 * ```
 */
export interface ToolProgress {
  message?: string;
  bytes?: number;
}

/**
 * A tool a model can call: a name, a description, a zod input schema and a handler. A handler
 * may return text, bytes, a stream (`AsyncIterable`, `ReadableStream`) that is spooled as it
 * arrives, a `Media` (image, PDF), or any JSON-serialisable value.
 *
 * @example
 * ```ts
 * const runTests: Tool<{ pattern: string }> = {
 *   name: 'run_tests',
 *   description: 'Runs the test suite and returns its full output.',
 *   inputSchema: z.object({ pattern: z.string() }),
 *   handler: ({ pattern }, { signal }) => spawnOutput('npm', ['test', '--', pattern], { signal }),
 * };
 * ```
 */
export interface Tool<Input = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  handler(input: Input, context: ToolHandlerContext): unknown;
  /**
   * The artifact kind of large results (`'json'`, or a kind you registered), looked up in the
   * session's `kinds`. Default: the kind `mediaType` means, else the one the first bytes show.
   */
  kind?: string;
  /** A media type for the results (`application/json`, `text/markdown`, …), used to pick a kind. */
  mediaType?: string;
  /**
   * A name for a spooled result, from the call's arguments (`report-2024-q4`): the handle and
   * `artifact_list` show it, and a model may pass it as a `callId` or a reference instead of
   * the call id (the newest output so named wins). Asked before the handler runs: a name
   * that is empty, only spaces, over 100 characters or not one line fails the call with
   * `E_INVALID_TOOL_ARGS` (return `undefined` for no name).
   */
  outputName?(input: Input): string | undefined;
  /** Offered for one dispatch only; pruned from a bound registry when the dispatch is acked. */
  ephemeral?: boolean;
  /** Wins over the merge's own policy when this tool collides. */
  onCollision?: CollisionPolicy;
}

/**
 * Declares a tool with its input type inferred from the schema.
 *
 * @example
 * ```ts
 * const fetchLog = defineTool({
 *   name: 'fetch_log',
 *   description: 'Fetches a service log.',
 *   inputSchema: z.object({ service: z.string() }),
 *   handler: async ({ service }) => createReadStream(`/var/log/${service}.log`),
 * });
 * ```
 */
export function defineTool<Schema extends z.ZodType>(
  tool: Omit<Tool<z.output<Schema>>, 'inputSchema'> & { inputSchema: Schema },
): Tool<z.output<Schema>> {
  return tool as Tool<z.output<Schema>>;
}
