import type { z } from 'zod';
import type { DispatchContext } from './dispatch-context.js';

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
  dispatch: DispatchContext;
}

/**
 * A class (or anything constructible) the executor wraps large results in. Kept generic here:
 * the tools layer knows nothing of artifacts.
 *
 * @example
 * ```ts
 * const artifactConstructor = () => SpooledJsonArtifact;
 * ```
 */
export type ArtifactConstructorLike = abstract new (...args: never[]) => unknown;

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
  /** The artifact class large results are wrapped in (default `SpooledArtifact`). */
  artifactConstructor?: () => ArtifactConstructorLike;
  /** A media type for the results (`application/json`, `text/markdown`, …), used to pick a class. */
  mediaType?: string;
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
