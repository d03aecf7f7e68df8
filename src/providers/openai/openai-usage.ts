import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import { type TokenUsage, withTotalTokens } from '../../context/should-compact.js';

/**
 * The tokens a Chat Completions request used, for `shouldCompact`: `prompt_tokens` (which
 * already include cached ones) as input, `completion_tokens` as output; `{}` without `usage`.
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model, messages });
 * if (shouldCompact(usageOfChatCompletion(completion), { contextLimit: 128_000 })) await compactNow();
 * ```
 */
export function usageOfChatCompletion(completion: Pick<ChatCompletion, 'usage'>): TokenUsage {
  const { usage } = completion;
  if (!usage) return {};
  return withTotalTokens({
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
  });
}

/**
 * The tokens a Responses request used, for `shouldCompact`: `input_tokens` (cached ones
 * included) and `output_tokens`; `{}` without `usage`.
 *
 * @example
 * ```ts
 * const response = await client.responses.create({ model, input });
 * if (shouldCompact(usageOfResponse(response), { contextLimit: 400_000 })) await compactNow();
 * ```
 */
export function usageOfResponse(response: Pick<Response, 'usage'>): TokenUsage {
  const { usage } = response;
  if (!usage) return {};
  return withTotalTokens({ inputTokens: usage.input_tokens, outputTokens: usage.output_tokens });
}
