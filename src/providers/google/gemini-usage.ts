import type { GenerateContentResponse } from '@google/genai';
import { type TokenUsage, withTotalTokens } from '../../context/should-compact.js';

/**
 * The tokens a `generateContent` request used, for `shouldCompact`: `promptTokenCount` (which
 * already includes cached content) as input, the candidates' and the thoughts' tokens as output;
 * `{}` without `usageMetadata`.
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({ model, contents });
 * if (shouldCompact(usageOfGeminiResponse(response), { contextLimit: 1_000_000 })) await compactNow();
 * ```
 */
export function usageOfGeminiResponse(
  response: Pick<GenerateContentResponse, 'usageMetadata'>,
): TokenUsage {
  const usage = response.usageMetadata;
  if (!usage) return {};
  return withTotalTokens({
    inputTokens: usage.promptTokenCount ?? 0,
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  });
}
