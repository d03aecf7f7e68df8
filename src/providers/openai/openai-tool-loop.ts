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
 * One request of an OpenAI tool loop: the `tools` to send, `ack()` once the response arrived
 * (the forged `artifact_*` tools are then pruned from `dispatch.tools`) or `nack(error)` if the
 * request failed, and `run(calls)` to execute what the model asked for and get the items that
 * answer it. Calls run against the tools this turn offered, even after `ack()`.
 *
 * @example
 * ```ts
 * const turn = loop.chatCompletionsTurn();
 * const completion = await client.chat.completions.create({ model, messages, tools: turn.tools });
 * turn.ack();
 * ```
 */
export interface OpenAITurn<ToolParam, Calls, Answer> {
  /** The session's dispatch behind this turn (its `tools` registry, ack state). */
  readonly dispatch: DispatchContext;
  /** The request's `tools` parameter: the session's tools and the ones forged for this turn. */
  readonly tools: ToolParam[];
  ack(): void;
  nack(error: unknown): void;
  run(calls: Calls, options?: { signal?: AbortSignal }): Promise<Answer[]>;
}

/**
 * A Chat Completions turn: `run(message.tool_calls)` gives the `role: "tool"` messages (and a
 * trailing `role: "user"` message when a tool returned media).
 *
 * @example
 * ```ts
 * const turn: ChatCompletionsTurn = loop.chatCompletionsTurn();
 * messages.push(...(await turn.run(message.tool_calls)));
 * ```
 */
export type ChatCompletionsTurn = OpenAITurn<
  ChatCompletionFunctionTool,
  readonly ChatCompletionMessageToolCall[] | null | undefined,
  ChatCompletionToolMessageParam | ChatCompletionUserMessageParam
>;

/**
 * A Responses turn: `run(response.output)` gives the `function_call_output` items.
 *
 * @example
 * ```ts
 * const turn: ResponsesTurn = loop.responsesTurn();
 * input.push(...(await turn.run(response.output)));
 * ```
 */
export type ResponsesTurn = OpenAITurn<
  FunctionTool,
  readonly ResponseOutputItem[],
  ResponsesFunctionCallOutput
>;

/**
 * Options for an {@link OpenAIToolLoop}: those of a new {@link ToolSession}, or one you made.
 *
 * @example
 * ```ts
 * const options: OpenAIToolLoopOptions = { tools: [runBuild], inlineThreshold: 4096 };
 * ```
 */
export type OpenAIToolLoopOptions = ToolSessionOptions | { session: ToolSession };

/**
 * A {@link ToolSession} seen through OpenAI's shapes: each turn forges the tools for the next
 * request, converts them for Chat Completions or Responses, and runs the calls the model sent
 * back into the messages that answer them. You keep the conversation and call the client.
 *
 * @example
 * ```ts
 * await using loop = new OpenAIToolLoop({ tools: [runBuild] });
 * const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Why did the build fail?' }];
 * for (;;) {
 *   const turn = loop.chatCompletionsTurn();
 *   const completion = await client.chat.completions.create({ model, messages, tools: turn.tools });
 *   turn.ack();
 *   const message = completion.choices[0]!.message;
 *   messages.push(message);
 *   if (!message.tool_calls?.length) break;
 *   messages.push(...(await turn.run(message.tool_calls)));
 * }
 * ```
 */
export class OpenAIToolLoop {
  readonly session: ToolSession;

  constructor(options: OpenAIToolLoopOptions = {}) {
    this.session = 'session' in options ? options.session : new ToolSession(options);
  }

  /** The next Chat Completions request's tools, and how to answer its tool calls. */
  chatCompletionsTurn(): ChatCompletionsTurn {
    return this.#turn(
      toChatCompletionsTools,
      fromChatCompletionsToolCalls,
      toChatCompletionsToolMessages,
    );
  }

  /** The next Responses request's tools, and how to answer its `function_call` items. */
  responsesTurn(): ResponsesTurn {
    return this.#turn(toResponsesTools, fromResponsesOutput, toResponsesToolOutputs);
  }

  /** Closes every artifact the session spooled (a passed-in session's too). */
  close(): Promise<void> {
    return this.session.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #turn<ToolParam, Calls, Answer>(
    convertTools: (tools: NonNullable<DispatchContext['tools']>) => ToolParam[],
    readCalls: (calls: Calls) => ToolCallRequest[],
    answer: (outcomes: ToolCallOutcome[]) => Answer[],
  ): OpenAITurn<ToolParam, Calls, Answer> {
    const dispatch = this.session.dispatch();
    return {
      dispatch,
      tools: convertTools(dispatch.tools ?? this.session.registry),
      ack: () => dispatch.ack(),
      nack: (error) => dispatch.nack(error),
      run: async (calls, options = {}) =>
        answer(await this.session.run(readCalls(calls), dispatch, options)),
    };
  }
}
