import type { MessageFormat } from '../../context/model-call.js';
import { toAnthropicMessages } from './anthropic-messages.js';

/**
 * The Messages API's `messages` (`system` is a key of the request of its own), for
 * `ConversationLog.modelCalls`.
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), { contextWindow: 200_000, instructions });
 * const body = { model, max_tokens: 4096, system: instructions, messages: toAnthropicMessages(projection.messages) };
 * const startedAt = Date.now();
 * await client.messages.create(body);
 * await log.modelCalls.record({ projection, request: body, format: anthropicMessagesFormat, startedAt });
 * ```
 */
export const anthropicMessagesFormat: MessageFormat<undefined> = {
  name: 'anthropic.messages',
  key: 'messages',
  render: (messages) => toAnthropicMessages(messages),
};
