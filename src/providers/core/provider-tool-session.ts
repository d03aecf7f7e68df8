import { ToolSession, type ToolSessionOptions } from '../../executor/tool-session.js';
import type { ProviderCodec } from './provider-codec.js';
import type { ProviderDispatch } from './provider-dispatch.js';

/**
 * How every adapter gets its {@link ToolSession}: the options of a new one, which the adapter
 * then owns and closes, or a `session` of yours (with none of those options), which stays
 * yours to close. Adapters add their own options beside these.
 */
export type ProviderToolSessionOptions =
  | (ToolSessionOptions & { session?: undefined })
  | ({ session: ToolSession } & { [Option in keyof ToolSessionOptions]?: undefined });

/**
 * The core every provider adapter is built on: a {@link ToolSession} and
 * {@link ProviderToolSession.dispatchAs}, which turns one dispatch into a
 * {@link ProviderDispatch} through a {@link ProviderCodec}. Closing it closes the session only
 * if it made the session: a session passed in is closed by whoever made it (so several
 * adapters, or your own code, can share one).
 *
 * @example
 * ```ts
 * class MessagesToolSession extends ProviderToolSession {
 *   dispatch() {
 *     return this.dispatchAs({
 *       toTools: toAnthropicTools,
 *       fromCalls: fromAnthropicContent,
 *       toResults: (outcomes) => toAnthropicToolResults(outcomes),
 *     });
 *   }
 * }
 * ```
 */
export class ProviderToolSession implements AsyncDisposable {
  /** The session the calls run in: its `toolCalls` hold every call and spooled output. */
  readonly session: ToolSession;
  readonly #ownsSession: boolean;

  constructor(options: ProviderToolSessionOptions = {}) {
    this.#ownsSession = options.session === undefined;
    this.session = options.session === undefined ? new ToolSession(options) : options.session;
  }

  /** Forges the tools for the next request and speaks of them, and of its calls, as `codec` does. */
  dispatchAs<ToolParam, Calls, Result>(
    codec: ProviderCodec<ToolParam, Calls, Result>,
  ): ProviderDispatch<ToolParam, Calls, Result> {
    const { session } = this;
    const context = session.dispatch();
    return {
      context,
      tools: codec.toTools(context.tools),
      ack: () => context.ack(),
      nack: (error) => context.nack(error),
      track: (request) => context.track(request),
      run: async (calls, options = {}) =>
        codec.toResults(await session.run(codec.fromCalls(calls), context, options)),
    };
  }

  /** Closes the session's artifacts (temp files) if this adapter made the session. */
  close(): Promise<void> {
    return this.#ownsSession ? this.session.close() : Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
