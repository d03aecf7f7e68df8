import type Anthropic from '@anthropic-ai/sdk';
import { type TokenUsage, withTotalTokens } from '../../context/should-compact.js';

/**
 * The tokens a Messages API request used, for `shouldCompact`: `input_tokens` (which exclude
 * cached ones), `output_tokens`, and the cache creation and cache read counts.
 *
 * @example
 * ```ts
 * const message = await client.messages.create({ model, max_tokens: 4096, messages });
 * if (shouldCompact(usageOfAnthropicMessage(message), { contextLimit: 200_000 })) await compactNow();
 * ```
 */
export function usageOfAnthropicMessage(message: Pick<Anthropic.Message, 'usage'>): TokenUsage {
  const { usage } = message;
  return withTotalTokens({
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
  });
}
