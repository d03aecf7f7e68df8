import type { ToolCallRequest } from '../../executor/tool-executor.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import type { Tool } from '../../tools/tool.js';
import type { ProviderCodec } from '../core/provider-codec.js';
import type { ProviderDispatch } from '../core/provider-dispatch.js';
import type { ProviderToolSession } from '../core/provider-tool-session.js';
import type { SpoolforgeToolOutput } from './tool-output.js';

// biome-ignore lint/suspicious/noExplicitAny: a dispatch offers tools of every input type
type AnyTool = Tool<any>;

/**
 * A step's dispatch as the AI SDK drives it: its tools are those the session offers (their
 * declarations are made up front), and the SDK executes one call at a time.
 *
 * @example
 * ```ts
 * const [output] = await steps.forExecution().run({ id: toolCallId, name, arguments: input });
 * ```
 */
export type StepDispatch = ProviderDispatch<AnyTool, ToolCallRequest, SpoolforgeToolOutput>;

/**
 * One dispatch per AI SDK step. `begin` (from `prepareStep`) settles the previous step's
 * dispatch and opens the next one, snapshotting the tools it offers; `finish` (from
 * `onStepEnd`) acks it, which prunes its ephemeral tools; `fail` (from `onStepError`) nacks it.
 * The tools of a step execute against {@link StepDispatches.forExecution}.
 *
 * One instance follows one conversation: two `generateText` runs sharing it at the same time
 * would interleave their steps.
 *
 * @example
 * ```ts
 * const steps = new StepDispatches(provider, codec);
 * steps.begin(0); // prepareStep
 * steps.offered.has('artifact_grep'); // false until something was spooled
 * steps.finish(); // onStepEnd
 * ```
 */
export class StepDispatches {
  readonly #provider: ProviderToolSession;
  readonly #codec: ProviderCodec<AnyTool, ToolCallRequest, SpoolforgeToolOutput>;
  #current: StepDispatch | undefined;
  #offered = new Map<string, AnyTool>();

  constructor(
    provider: ProviderToolSession,
    codec: ProviderCodec<AnyTool, ToolCallRequest, SpoolforgeToolOutput>,
  ) {
    this.#provider = provider;
    this.#codec = codec;
  }

  /** The dispatch of the step running now (or the last one), if any step began. */
  get current(): DispatchContext | undefined {
    return this.#current?.context;
  }

  /**
   * Opens the dispatch of step `stepNumber`: it offers the session's tools and the tools forged
   * for every output spooled so far (see {@link StepDispatches.offered}).
   */
  begin(stepNumber: number): StepDispatch {
    const previous = this.#current;
    if (previous?.context.state === 'pending') {
      // The SDK prepares step N > 0 only after step N - 1 finished. A pending dispatch at step 0
      // belongs to an earlier run whose last step never reported finishing: its request failed.
      if (stepNumber > 0) previous.ack();
      else
        previous.nack(
          new SpoolforgeError(
            'E_ABORTED',
            'A new run began before the last step finished (failed or aborted request)',
          ),
        );
    }
    const dispatch = this.#provider.dispatchAs(this.#codec);
    this.#current = dispatch;
    // The codec lists the tools when the step begins, before ack prunes them: the SDK reads
    // schemas after that.
    this.#offered = new Map(dispatch.tools.map((tool) => [tool.name, tool]));
    return dispatch;
  }

  /** Acks the current step's dispatch (once; later calls do nothing). */
  finish(): void {
    if (this.#current?.context.state === 'pending') this.#current.ack();
  }

  /** Nacks the current step's dispatch with the error its request failed with (once). */
  fail(error: unknown): void {
    if (this.#current?.context.state === 'pending') this.#current.nack(error);
  }

  /** The tools the current step offers, by name. */
  get offered(): ReadonlyMap<string, AnyTool> {
    return this.#offered;
  }

  /**
   * The dispatch a tool call runs against: the current step's, or a fresh one when
   * `prepareStep` was not wired (the executor then validates against that dispatch's tools).
   */
  forExecution(): StepDispatch {
    const current = this.#current;
    return current?.context.state === 'pending' ? current : this.begin(0);
  }
}
