import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageToolCall,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { ToolCallRequest } from '../../executor/tool-executor.js';
import type { ToolCallOutcome } from '../../executor/tool-result-content.js';
import { ToolSession, type ToolSessionOptions } from '../../executor/tool-session.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import { toChatCompletionsToolMessages } from './chat-completions-tool-messages.js';
import { fromChatCompletionsToolCalls, toChatCompletionsTools } from './chat-completions-tools.js';
import {
  type ResponsesFunctionCallOutput,
  toResponsesToolOutputs,
} from './responses-tool-outputs.js';
import { fromResponsesOutput, toResponsesTools } from './responses-tools.js';

/**
 * One request of an OpenAI tool session: the `tools` to send, `ack()` once the response arrived
 * (the forged `artifact_*` tools are then pruned from `dispatch.tools`) or `nack(error)` if the
 * request failed, and `run(calls)` to execute what the model asked for and get the items that
 * answer it. Calls run against the tools this dispatch offered, even after `ack()`.
 *
 * @example
 * ```ts
 * const dispatch = agent.chatCompletionsDispatch();
 * const completion = await dispatch.track(client.chat.completions.create({ model, messages, tools: dispatch.tools }));
 * ```
 */
export interface OpenAIDispatch<ToolParam, Calls, Answer> {
  /** The provider-neutral dispatch underneath (its `tools` registry, `state`, `onAck`). */
  readonly context: DispatchContext;
  /** The request's `tools` parameter: the session's tools and the ones forged for this request. */
  readonly tools: ToolParam[];
  ack(): void;
  nack(error: unknown): void;
  /** Acks when the request to the model resolves, nacks and rethrows when it rejects. */
  track<T>(request: PromiseLike<T>): Promise<T>;
  run(calls: Calls, options?: { signal?: AbortSignal }): Promise<Answer[]>;
}

/**
 * A Chat Completions dispatch: `run(message.tool_calls)` gives the `role: "tool"` messages (and a
 * trailing `role: "user"` message when a tool returned media).
 *
 * @example
 * ```ts
 * const dispatch: ChatCompletionsDispatch = agent.chatCompletionsDispatch();
 * messages.push(...(await dispatch.run(message.tool_calls)));
 * ```
 */
export type ChatCompletionsDispatch = OpenAIDispatch<
  ChatCompletionFunctionTool,
  readonly ChatCompletionMessageToolCall[] | null | undefined,
  ChatCompletionToolMessageParam | ChatCompletionUserMessageParam
>;

/**
 * A Responses dispatch: `run(response.output)` gives the `function_call_output` items.
 *
 * @example
 * ```ts
 * const dispatch: ResponsesDispatch = agent.responsesDispatch();
 * input.push(...(await dispatch.run(response.output)));
 * ```
 */
export type ResponsesDispatch = OpenAIDispatch<
  FunctionTool,
  readonly ResponseOutputItem[],
  ResponsesFunctionCallOutput
>;

/**
 * Options for an {@link OpenAIToolSession}: those of a new {@link ToolSession}, or one you made.
 */
export type OpenAIToolSessionOptions = ToolSessionOptions | { session: ToolSession };

/**
 * A {@link ToolSession} seen through OpenAI's shapes: each dispatch forges the tools for the next
 * request, converts them for Chat Completions or Responses, and runs the calls the model sent
 * back into the messages that answer them. You keep the conversation and call the client.
 *
 * @example
 * ```ts
 * await using agent = new OpenAIToolSession({ tools: [runBuild] });
 * const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Why did the build fail?' }];
 * for (;;) {
 *   const dispatch = agent.chatCompletionsDispatch();
 *   const completion = await dispatch.track(client.chat.completions.create({ model, messages, tools: dispatch.tools }));
 *   const message = completion.choices[0]!.message;
 *   messages.push(message);
 *   if (!message.tool_calls?.length) break;
 *   messages.push(...(await dispatch.run(message.tool_calls)));
 * }
 * ```
 */
export class OpenAIToolSession {
  readonly session: ToolSession;

  constructor(options: OpenAIToolSessionOptions = {}) {
    this.session = 'session' in options ? options.session : new ToolSession(options);
  }

  /** The next Chat Completions request's tools, and how to answer its tool calls. */
  chatCompletionsDispatch(): ChatCompletionsDispatch {
    return this.#dispatch(
      toChatCompletionsTools,
      fromChatCompletionsToolCalls,
      toChatCompletionsToolMessages,
    );
  }

  /** The next Responses request's tools, and how to answer its `function_call` items. */
  responsesDispatch(): ResponsesDispatch {
    return this.#dispatch(toResponsesTools, fromResponsesOutput, toResponsesToolOutputs);
  }

  /** Closes every artifact the session spooled (a passed-in session's too). */
  close(): Promise<void> {
    return this.session.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #dispatch<ToolParam, Calls, Answer>(
    convertTools: (tools: DispatchContext['tools']) => ToolParam[],
    readCalls: (calls: Calls) => ToolCallRequest[],
    answer: (outcomes: ToolCallOutcome[]) => Answer[],
  ): OpenAIDispatch<ToolParam, Calls, Answer> {
    const context = this.session.dispatch();
    return {
      context,
      tools: convertTools(context.tools),
      ack: () => context.ack(),
      nack: (error) => context.nack(error),
      track: (request) => context.track(request),
      run: async (calls, options = {}) =>
        answer(await this.session.run(readCalls(calls), context, options)),
    };
  }
}
