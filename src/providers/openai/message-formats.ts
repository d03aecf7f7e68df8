import type { MessageFormat } from '../../context/model-call.js';
import { toChatCompletionsMessages } from './chat-completions-messages.js';
import { toResponsesInput } from './responses-input.js';

/**
 * Chat Completions' `messages` (with `instructions`, the system message first), for
 * `ConversationLog.modelCalls`: record a call with it, read the call back with it.
 *
 * @example
 * ```ts
 * const request = { model, messages: toChatCompletionsMessages(projection.messages, { instructions }), tools };
 * await log.modelCalls.record({ projection, request, format: chatCompletionsFormat, formatOptions: { instructions }, startedAt });
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
 * const request = { model, instructions, input: toResponsesInput(projection.messages), tools };
 * await log.modelCalls.record({ projection, request, format: responsesFormat, startedAt });
 * ```
 */
export const responsesFormat: MessageFormat<undefined> = {
  name: 'openai.responses',
  key: 'input',
  render: (messages) => toResponsesInput(messages),
};
