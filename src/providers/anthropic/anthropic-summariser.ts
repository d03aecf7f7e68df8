import type Anthropic from '@anthropic-ai/sdk';
import type { Summariser } from '../../context/conversation-message.js';
import { fromAnthropicMessage, toAnthropicMessages } from './anthropic-messages.js';

/**
 * Options for {@link anthropicSummariser}.
 */
export interface AnthropicSummariserOptions {
  client: Anthropic;
  /** The model that summarises; a cheaper one than the agent's will usually do. */
  model: string;
  /** `max_tokens` of the reply. Default 4096. */
  maxTokens?: number;
  /** A system prompt for the summariser. */
  system?: string;
}

/**
 * A {@link Summariser} that asks an Anthropic model through the Messages API, without tools,
 * and returns the text of its reply.
 *
 * @example
 * ```ts
 * const summarise = anthropicSummariser({ client: new Anthropic(), model: 'claude-haiku-4-5' });
 * const { history } = await compact(conversation, { summarise });
 * ```
 */
export function anthropicSummariser(options: AnthropicSummariserOptions): Summariser {
  const { client, model, maxTokens = 4096, system } = options;
  return async (messages, { signal }) => {
    const message = await client.messages.create(
      {
        model,
        max_tokens: maxTokens,
        messages: toAnthropicMessages(messages),
        ...(system === undefined ? {} : { system }),
      },
      { signal },
    );
    return fromAnthropicMessage(message).content;
  };
}
