import type { MessageFormat } from '../../context/model-call.js';
import { toChatCompletionsMessages } from './chat-completions-messages.js';
import { toResponsesInput } from './responses-input.js';

/**
 * Chat Completions' `messages` (with `instructions`, the system message first), for
 * `ConversationLog.modelCalls`: record a call with it, read the call back with it.
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), { contextWindow: 128_000, instructions });
 * const body = { model, messages: toChatCompletionsMessages(projection.messages, { instructions }) };
 * const startedAt = Date.now();
 * await client.chat.completions.create(body);
 * await log.modelCalls.record({ projection, request: body, format: chatCompletionsFormat, formatOptions: { instructions }, startedAt });
 * ```
 */
export const chatCompletionsFormat: MessageFormat<{ instructions?: string } | undefined> = {
  name: 'openai.chat-completions',
  key: 'messages',
  render: (messages, options) => toChatCompletionsMessages(messages, options ?? {}),
};

/**
 * The Responses API's `input`, for `ConversationLog.modelCalls` (`instructions` is a key of the
 * request of its own).
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), { contextWindow: 400_000, instructions });
 * const body = { model, instructions, input: toResponsesInput(projection.messages) };
 * const startedAt = Date.now();
 * await client.responses.create(body);
 * await log.modelCalls.record({ projection, request: body, format: responsesFormat, startedAt });
 * ```
 */
export const responsesFormat: MessageFormat<undefined> = {
  name: 'openai.responses',
  key: 'input',
  render: (messages) => toResponsesInput(messages),
};
