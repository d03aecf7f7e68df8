import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageToolCall,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { ProviderCodec } from '../core/provider-codec.js';
import type { ProviderDispatch } from '../core/provider-dispatch.js';
import {
  ProviderToolSession,
  type ProviderToolSessionOptions,
} from '../core/provider-tool-session.js';
import { toChatCompletionsToolMessages } from './chat-completions-tool-messages.js';
import { fromChatCompletionsToolCalls, toChatCompletionsTools } from './chat-completions-tools.js';
import {
  type ResponsesFunctionCallOutput,
  toResponsesToolOutputs,
} from './responses-tool-outputs.js';
import { fromResponsesOutput, toResponsesTools } from './responses-tools.js';

/**
 * One request of an OpenAI tool session: the `tools` to send, `ack()` once the response arrived
 * (the forged `artifact_*` tools are then pruned from `dispatch.context.tools`) or `nack(error)`
 * if the request failed, and `run(calls)` to execute what the model asked for and get the items
 * that answer it. Calls run against the tools this dispatch offered, even after `ack()`.
 *
 * @example
 * ```ts
 * const dispatch = agent.chatCompletionsDispatch();
 * const completion = await dispatch.track(client.chat.completions.create({ model, messages, tools: dispatch.tools }));
 * ```
 */
export type OpenAIDispatch<ToolParam, Calls, Answer> = ProviderDispatch<ToolParam, Calls, Answer>;

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
 * Options for an {@link OpenAIToolSession}: those of a new {@link ToolSession} (the adapter
 * closes it), or a `session` of yours (you close it).
 */
export type OpenAIToolSessionOptions = ProviderToolSessionOptions;

type CodecOf<Dispatch> =
  Dispatch extends ProviderDispatch<infer ToolParam, infer Calls, infer Answer>
    ? ProviderCodec<ToolParam, Calls, Answer>
    : never;

const chatCompletions: CodecOf<ChatCompletionsDispatch> = {
  toTools: toChatCompletionsTools,
  fromCalls: fromChatCompletionsToolCalls,
  toResults: toChatCompletionsToolMessages,
};

const responses: CodecOf<ResponsesDispatch> = {
  toTools: toResponsesTools,
  fromCalls: fromResponsesOutput,
  toResults: toResponsesToolOutputs,
};

/**
 * A {@link ToolSession} seen through OpenAI's shapes: each dispatch forges the tools for the next
 * request, converts them for Chat Completions or Responses, and runs the calls the model sent
 * back into the messages that answer them. You keep the conversation and call the client.
 * `close()` closes the session if the adapter made it; a `session` you passed in is yours to
 * close.
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
export class OpenAIToolSession extends ProviderToolSession {
  /** The next Chat Completions request's tools, and how to answer its tool calls. */
  chatCompletionsDispatch(): ChatCompletionsDispatch {
    return this.dispatchAs(chatCompletions);
  }

  /** The next Responses request's tools, and how to answer its `function_call` items. */
  responsesDispatch(): ResponsesDispatch {
    return this.dispatchAs(responses);
  }
}
