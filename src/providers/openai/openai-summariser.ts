import type OpenAI from 'openai';
import type { Summariser } from '../../context/conversation-message.js';
import { toChatCompletionsMessages } from './chat-completions-messages.js';
import { toResponsesInput } from './responses-input.js';

/**
 * Options for {@link openAISummariser}.
 */
export interface OpenAISummariserOptions {
  client: OpenAI;
  /** The model that summarises; a cheaper one than the agent's will usually do. */
  model: string;
  /** Which API to call. Default `'chat'` (Chat Completions). */
  api?: 'chat' | 'responses';
  /** Caps the reply (`max_completion_tokens` / `max_output_tokens`). */
  maxOutputTokens?: number;
  /** A system prompt for the summariser (a `system` message, or `instructions`). */
  instructions?: string;
}

/**
 * A {@link Summariser} that asks an OpenAI model, through Chat Completions or Responses, without
 * tools, and returns its reply text.
 *
 * @example
 * ```ts
 * const summarise = openAISummariser({ client: new OpenAI(), model: 'gpt-4o-mini' });
 * const { history } = await compact(conversation, { summarise });
 * ```
 */
export function openAISummariser(options: OpenAISummariserOptions): Summariser {
  const { client, model, maxOutputTokens, instructions } = options;
  if (options.api === 'responses') {
    return async (messages, { signal }) => {
      const response = await client.responses.create(
        {
          model,
          input: toResponsesInput(messages),
          ...(instructions === undefined ? {} : { instructions }),
          ...(maxOutputTokens === undefined ? {} : { max_output_tokens: maxOutputTokens }),
        },
        { signal },
      );
      return response.output_text;
    };
  }
  return async (messages, { signal }) => {
    const completion = await client.chat.completions.create(
      {
        model,
        messages: toChatCompletionsMessages(
          messages,
          instructions === undefined ? {} : { instructions },
        ),
        ...(maxOutputTokens === undefined ? {} : { max_completion_tokens: maxOutputTokens }),
      },
      { signal },
    );
    return completion.choices[0]?.message.content ?? '';
  };
}
