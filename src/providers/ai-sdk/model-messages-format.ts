import type { MessageFormat } from '../../context/model-call.js';
import { toModelMessages } from './model-messages.js';

/**
 * The AI SDK's `messages` (`ModelMessage[]`; with `instructions`, a system message first), for
 * `ConversationLog.modelCalls`: record a `generateText` call's settings with it (the tools as
 * {@link aiSdkToolDeclarations}), read the call back with it.
 *
 * @example
 * ```ts
 * const request = { model: 'gpt-4o-mini', instructions, messages: toModelMessages(projection.messages), tools: aiSdkToolDeclarations(tools) };
 * await log.modelCalls.record({ projection, request, format: modelMessagesFormat, startedAt });
 * ```
 */
export const modelMessagesFormat: MessageFormat<{ instructions?: string } | undefined> = {
  name: 'ai-sdk.model-messages',
  key: 'messages',
  render: (messages, options) => toModelMessages(messages, options ?? {}),
};
