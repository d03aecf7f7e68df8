import type { MessageFormat } from '../../context/model-call.js';
import { toModelMessages } from './model-messages.js';

/**
 * The AI SDK's `messages` (`ModelMessage[]`; with `instructions`, a system message first), for
 * `ConversationLog.modelCalls`: record a `generateText` call's settings with it (the tools as
 * {@link aiSdkToolDeclarations}), read the call back with it.
 *
 * @example
 * ```ts
 * const spoolforge = spoolforgeToolSet({ tools: [runBuild] });
 * const projection = await projectContext(log.history(), { contextWindow: 128_000, instructions });
 * const messages = toModelMessages(projection.messages);
 * const startedAt = Date.now();
 * await generateText({ model, instructions, messages, tools: spoolforge.tools });
 * const declared = await aiSdkToolDeclarations(spoolforge.tools);
 * const body = { model: 'gpt-4o-mini', instructions, messages, tools: declared };
 * await log.modelCalls.record({ projection, request: body, format: modelMessagesFormat, startedAt });
 * ```
 */
export const modelMessagesFormat: MessageFormat<{ instructions?: string } | undefined> = {
  name: 'ai-sdk.model-messages',
  key: 'messages',
  render: (messages, options) => toModelMessages(messages, options ?? {}),
};
