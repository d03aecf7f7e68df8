import { type ForgeOptions, forgeArtifactTools } from '../artifact/forge/forge-tools.js';
import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../artifact/kinds/built-in-kinds.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { DispatchContext } from '../tools/dispatch-context.js';
import type { Tool } from '../tools/tool.js';
import type { ToolCall } from '../tools/tool-call.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { type ExecuteOptions, executeToolCall, type ToolCallRequest } from './tool-executor.js';
import type { ToolCallOutcome, ToolCallResults } from './tool-result-content.js';

/**
 * Options for a {@link ToolSession}.
 */
export interface ToolSessionOptions extends Omit<ExecuteOptions, 'signal'>, ForgeOptions {
  /** The agent's own tools. */
  // biome-ignore lint/suspicious/noExplicitAny: tools of every input type
  tools?: Iterable<Tool<any>> | ToolRegistry;
  /**
   * Calls of an earlier session to hold from the start, as if run in this one: their spooled
   * outputs are offered as `callId`s and closed with the session (a conversation revived from
   * its log, as `ConversationPool` does).
   */
  calls?: Iterable<ToolCall<ToolCallResults>>;
}

/**
 * The provider-neutral agent loop: {@link ToolSession.dispatch} forges the tools for the next
 * request from the calls made so far, {@link ToolSession.run} executes the calls the model sent
 * back (large results are spooled into artifacts) and records them for the next dispatch.
 * Provider adapters translate its tools and outcomes; you drive the loop.
 *
 * @example
 * ```ts
 * await using session = new ToolSession({ tools: [runBuild] });
 * const dispatch = session.dispatch();
 * const reply = await callModel(messages, dispatch.tools.list());
 * dispatch.ack();
 * const outcomes = await session.run(reply.toolCalls, dispatch);
 * ```
 */
export class ToolSession {
  readonly registry: ToolRegistry;
  readonly #options: ToolSessionOptions;
  /**
   * The kinds its outputs are spooled as and whose tools each dispatch forges: `kinds`, else
   * the store's, else `defaultArtifactKinds`.
   */
  readonly kinds: ArtifactKinds;
  readonly #toolCalls: ToolCall<ToolCallResults>[] = [];
  /** What each dispatch offered: its calls run against this even after ack prunes the live registry. */
  readonly #offered = new WeakMap<DispatchContext, ToolRegistry>();

  constructor(options: ToolSessionOptions = {}) {
    this.registry =
      options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
    this.kinds = options.kinds ?? options.store?.kinds ?? defaultArtifactKinds;
    const { calls, ...rest } = options;
    this.#options = { ...rest, kinds: this.kinds };
    this.#toolCalls.push(...(calls ?? []));
    for (const tool of this.registry.list()) {
      if (tool.kind !== undefined && !this.kinds.get(tool.kind)) {
        throw new SpoolforgeError(
          'E_INVALID_ARGUMENT',
          `Tool '${tool.name}' declares kind '${tool.kind}', which the session's kinds lack`,
        );
      }
    }
  }

  /** Every call run so far in this session, in order. */
  get toolCalls(): readonly ToolCall<ToolCallResults>[] {
    return this.#toolCalls;
  }

  /**
   * A context for the next request: the session's tools plus the tools forged for the calls so
   * far (`callId` enums), merged so forged tools replace same-named ones; they are ephemeral and
   * pruned from `dispatch.tools` when it is acked.
   */
  dispatch(): DispatchContext {
    const context = new DispatchContext({ turnToolCalls: this.#toolCalls });
    const limits = this.#options.limits ? { limits: this.#options.limits } : {};
    const forged = forgeArtifactTools(this.kinds, context, limits);
    const tools = ToolRegistry.merge([this.registry, forged], { onCollision: 'replace' });
    context.tools = tools;
    tools.bindContext(context);
    this.#offered.set(context, new ToolRegistry(tools.list()));
    return context;
  }

  /** Runs the calls a response asked for (concurrently; outcomes in request order). */
  async run(
    requests: readonly ToolCallRequest[],
    context: DispatchContext,
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolCallOutcome[]> {
    const tools = this.#offered.get(context) ?? context.tools;
    const outcomes = await Promise.all(
      requests.map((request) =>
        executeToolCall(request, tools, context, { ...this.#options, ...options }),
      ),
    );
    this.#toolCalls.push(...outcomes.map((outcome) => outcome.call));
    return outcomes;
  }

  /**
   * Drops calls from the session: later dispatches no longer offer them as `callId`s, and their
   * artifacts are closed (temp files removed; stored ones stay in their store). A long
   * conversation forgets the calls its projection trimmed or compaction summarised, so the
   * session's memory, open files and `callId` enums stay bounded; `tool_output_cache` still
   * reads stored outputs by ref. Forget between requests: a dispatch made before still offers
   * the forgotten ids, and its calls on them get an error result.
   */
  async forget(callIds: Iterable<string>): Promise<void> {
    const forgotten = new Set(callIds);
    const dropped = this.#toolCalls.filter((call) => forgotten.has(call.id));
    if (dropped.length === 0) return;
    const kept = this.#toolCalls.filter((call) => !forgotten.has(call.id));
    this.#toolCalls.splice(0, this.#toolCalls.length, ...kept);
    await closeArtifacts(dropped);
  }

  /** Closes every artifact the session spooled (removing their temp files). */
  async close(): Promise<void> {
    await closeArtifacts(this.#toolCalls);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

async function closeArtifacts(calls: readonly ToolCall[]): Promise<void> {
  const artifacts = calls
    .map((call) => call.results)
    .filter((results): results is SpooledArtifact => results instanceof SpooledArtifact);
  await Promise.all(artifacts.map((artifact) => artifact.close()));
}
