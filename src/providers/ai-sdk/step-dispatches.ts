import type { ToolSession } from '../../executor/tool-session.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import type { Tool } from '../../tools/tool.js';

// biome-ignore lint/suspicious/noExplicitAny: a dispatch offers tools of every input type
type AnyTool = Tool<any>;

/**
 * One {@link DispatchContext} per AI SDK step. `begin` (from `prepareStep`) settles the previous
 * step's dispatch and opens the next one, snapshotting the tools it offers; `finish` (from
 * `onStepFinish`) acks it, which prunes its ephemeral tools. The tools of a step execute
 * against {@link StepDispatches.current}.
 *
 * One instance follows one conversation: two `generateText` runs sharing it at the same time
 * would interleave their steps.
 *
 * @example
 * ```ts
 * const steps = new StepDispatches(session);
 * steps.begin(0); // prepareStep
 * steps.offered.has('artifact_grep'); // false until something was spooled
 * steps.finish(); // onStepFinish
 * ```
 */
export class StepDispatches {
  readonly #session: ToolSession;
  #current: DispatchContext | undefined;
  #offered = new Map<string, AnyTool>();

  constructor(session: ToolSession) {
    this.#session = session;
  }

  /** The dispatch of the step running now (or the last one), if any step began. */
  get current(): DispatchContext | undefined {
    return this.#current;
  }

  /**
   * Opens the dispatch of step `stepNumber`: it offers the session's tools and the tools forged
   * for every output spooled so far (see {@link StepDispatches.offered}).
   */
  begin(stepNumber: number): DispatchContext {
    const previous = this.#current;
    if (previous?.state === 'pending') {
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
    const dispatch = this.#session.dispatch();
    this.#current = dispatch;
    // Snapshot before ack prunes `dispatch.tools`: the SDK reads schemas after the step began.
    this.#offered = new Map((dispatch.tools?.list() ?? []).map((tool) => [tool.name, tool]));
    return dispatch;
  }

  /** Acks the current step's dispatch (once; later calls do nothing). */
  finish(): void {
    if (this.#current?.state === 'pending') this.#current.ack();
  }

  /** The tools the current step offers, by name. */
  get offered(): ReadonlyMap<string, AnyTool> {
    return this.#offered;
  }

  /**
   * The dispatch a tool call runs against: the current step's, or a fresh one when
   * `prepareStep` was not wired (the executor then validates against that dispatch's tools).
   */
  forExecution(): DispatchContext {
    const current = this.#current;
    return current?.state === 'pending' ? current : this.begin(0);
  }
}
