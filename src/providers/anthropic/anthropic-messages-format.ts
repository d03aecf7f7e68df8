import type { MessageFormat } from '../../context/model-call.js';
import { toAnthropicMessages } from './anthropic-messages.js';

/**
 * The Messages API's `messages` (`system` is a key of the request of its own), for
 * `ConversationLog.modelCalls`.
 *
 * @example
 * ```ts
 * const request = { model, max_tokens: 4096, system, messages: toAnthropicMessages(projection.messages), tools };
 * await log.modelCalls.record({ projection, request, format: anthropicMessagesFormat, startedAt });
 * ```
 */
export const anthropicMessagesFormat: MessageFormat<undefined> = {
  name: 'anthropic.messages',
  key: 'messages',
  render: (messages) => toAnthropicMessages(messages),
};
