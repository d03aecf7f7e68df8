import type { Agent, RunContext } from '@openai/agents';
import type { ToolCallRequest } from '../../executor/tool-executor.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import type { Tool } from '../../tools/tool.js';
import type { ProviderCodec } from '../core/provider-codec.js';
import type { ProviderDispatch } from '../core/provider-dispatch.js';
import type { ProviderToolSession } from '../core/provider-tool-session.js';
import type { SpoolforgeFunctionOutput } from './spoolforge-function-output.js';

// biome-ignore lint/suspicious/noExplicitAny: a dispatch offers tools of every input type
type AnyTool = Tool<any>;
// biome-ignore lint/suspicious/noExplicitAny: the tools serve agents of any context and output
type AnyAgent = Agent<any, any>;

/**
 * A turn's dispatch as the Agents SDK drives it: the tools it offers stay spoolforge tools (the
 * function tools are declared up front), and the SDK invokes one call at a time.
 *
 * @example
 * ```ts
 * const [result] = await turns.forCall(runContext).run({ id: callId, name, arguments: input });
 * ```
 */
export type TurnDispatch = ProviderDispatch<AnyTool, ToolCallRequest, SpoolforgeFunctionOutput>;

/** A dispatch and the model call it belongs to: which run, and how many requests it had made. */
interface Turn {
  dispatch: TurnDispatch;
  runContext: RunContext<unknown>;
  requests: number;
  offered: ReadonlyMap<string, AnyTool>;
}

/**
 * One dispatch per model call of an Agents SDK run. The SDK asks each function tool's
 * `isEnabled` before every model call and has no hook around the call itself, so a turn is told
 * apart by its run (`RunContext`) and the run's request count (`runContext.usage.requests`,
 * which grows when a response arrives): the first `isEnabled` of a new turn opens its dispatch,
 * the others of the same turn get the same one.
 *
 * A dispatch is acked as soon as its response is known to have arrived: the first call it runs,
 * the run's end (`agent_end`) or handoff, or the next turn. It is nacked when the next run (or
 * `close()`) finds that no response ever came: the request failed or the run was aborted.
 *
 * One instance follows one run at a time: the SDK reads a tool's schema without saying which
 * run it is for.
 *
 * @example
 * ```ts
 * const turns = new TurnDispatches(provider, codec);
 * turns.forTurn(runContext); // from isEnabled: opens the turn's dispatch
 * turns.offered.has('artifact_grep'); // false until something was spooled
 * ```
 */
export class TurnDispatches {
  readonly #provider: ProviderToolSession;
  readonly #codec: ProviderCodec<AnyTool, ToolCallRequest, SpoolforgeFunctionOutput>;
  #latest: Turn | undefined;
  readonly #byRun = new WeakMap<RunContext<unknown>, Turn>();
  /** The agents whose end and handoff settle a turn, and how to stop listening to them. */
  readonly #watched = new Map<AnyAgent, () => void>();

  constructor(
    provider: ProviderToolSession,
    codec: ProviderCodec<AnyTool, ToolCallRequest, SpoolforgeFunctionOutput>,
  ) {
    this.#provider = provider;
    this.#codec = codec;
  }

  /** The dispatch of the latest turn, if any turn began. */
  get current(): DispatchContext | undefined {
    return this.#latest?.dispatch.context;
  }

  /** The tools the latest turn offers, by name (the schemas its request carries). */
  get offered(): ReadonlyMap<string, AnyTool> {
    return this.#latest?.offered ?? new Map();
  }

  /**
   * The dispatch of the model call `runContext`'s run is about to make: the one already open
   * for it, or a new one that offers the session's tools and the tools forged for every output
   * spooled so far. Opening one settles the previous turn's.
   */
  forTurn(runContext: RunContext<unknown>, agent?: AnyAgent): TurnDispatch {
    if (agent) this.#watch(agent);
    const latest = this.#latest;
    const requests = runContext.usage.requests;
    if (latest?.runContext === runContext && latest.requests === requests) return latest.dispatch;
    if (latest) this.#settle(latest);
    const dispatch = this.#provider.dispatchAs(this.#codec);
    // Listed now, before ack prunes them: the SDK reads a tool's schema again when it runs it.
    const offered = new Map(dispatch.tools.map((tool) => [tool.name, tool]));
    const turn = { dispatch, runContext, requests, offered };
    this.#latest = turn;
    this.#byRun.set(runContext, turn);
    return dispatch;
  }

  /**
   * The dispatch a call of `runContext`'s run executes against: its turn's, acked now since the
   * response that asked for the call has arrived.
   */
  forCall(runContext: RunContext<unknown>): TurnDispatch {
    const dispatch = this.#byRun.get(runContext)?.dispatch ?? this.forTurn(runContext);
    if (dispatch.context.state === 'pending') dispatch.ack();
    return dispatch;
  }

  /** Settles the latest turn and stops listening to the agents' hooks. */
  close(): void {
    if (this.#latest) this.#settle(this.#latest);
    for (const unsubscribe of this.#watched.values()) unsubscribe();
    this.#watched.clear();
  }

  /**
   * A run's last response (a final output or a handoff) calls no tool of ours: the agent's
   * `agent_end` / `agent_handoff` hooks settle its turn.
   */
  #watch(agent: AnyAgent): void {
    if (this.#watched.has(agent)) return;
    const settle = (runContext: RunContext<unknown>) => {
      const turn = this.#byRun.get(runContext);
      if (turn) this.#settle(turn);
    };
    agent.on('agent_end', settle);
    agent.on('agent_handoff', settle);
    this.#watched.set(agent, () => {
      agent.off('agent_end', settle);
      agent.off('agent_handoff', settle);
    });
  }

  /** Acks a pending turn whose response arrived; nacks one whose request never got one. */
  #settle(turn: Turn): void {
    if (turn.dispatch.context.state !== 'pending') return;
    if (turn.runContext.usage.requests > turn.requests) turn.dispatch.ack();
    else {
      turn.dispatch.nack(
        new SpoolforgeError(
          'E_ABORTED',
          'The model call got no response: its request failed or the run was aborted',
        ),
      );
    }
  }
}
