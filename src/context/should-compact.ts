import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * The tokens one model request used, provider-neutral; missing counts are 0. Read it from a
 * response with `usageOfChatCompletion` / `usageOfResponse` (`spoolforge/openai`) or
 * `usageOfAnthropicMessage` (`spoolforge/anthropic`).
 */
export interface TokenUsage {
  /** Input tokens not counted in the two cache fields. */
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
  /**
   * Input + cache creation + cache read + output: what the next request starts from. The
   * adapters' `usageOf…` functions fill it in; {@link totalTokens} computes it.
   */
  totalTokens?: number;
}

/**
 * A usage's total: input + cache creation + cache read + output tokens, missing counts 0.
 *
 * @example
 * ```ts
 * totalTokens({ inputTokens: 1_000, cacheReadInputTokens: 4_000, outputTokens: 200 }); // 5_200
 * ```
 */
export function totalTokens(usage: TokenUsage): number {
  return (
    (usage.inputTokens ?? 0) +
    (usage.cacheCreationInputTokens ?? 0) +
    (usage.cacheReadInputTokens ?? 0) +
    (usage.outputTokens ?? 0)
  );
}

/** `usage` with its {@link TokenUsage.totalTokens} filled in. */
export function withTotalTokens(usage: TokenUsage): TokenUsage {
  return { ...usage, totalTokens: totalTokens(usage) };
}

/**
 * When to compact: at `thresholdRatio` (default 0.8) of the model's `contextLimit`. `enabled:
 * false` or `auto: false` turns the automatic check off.
 */
export interface CompactionLimits {
  /** The model's context window in tokens. Required unless compaction is off. */
  contextLimit?: number;
  /** Fraction of `contextLimit` at which to compact, in (0, 1]. Default 0.8. */
  thresholdRatio?: number;
  enabled?: boolean;
  /** `false` leaves compaction to explicit calls of `compact()`. */
  auto?: boolean;
}

/**
 * True when the last request's total tokens (input + cache creation + cache read + output, so
 * the reply that will be sent back next time counts too) reached `contextLimit ×
 * thresholdRatio`; always false when `enabled` or `auto` is `false`.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` when compaction is on and `contextLimit` is not
 *   a positive number (a wrong guess would compact too late, or far too often), or
 *   `thresholdRatio` is outside (0, 1].
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model, messages });
 * if (shouldCompact(usageOfChatCompletion(completion), { contextLimit: 128_000 })) {
 *   ({ history } = await compact(history, { summarise }));
 * }
 * ```
 */
export function shouldCompact(usage: TokenUsage, limits: CompactionLimits): boolean {
  if (limits.enabled === false || limits.auto === false) return false;
  const { contextLimit, thresholdRatio = 0.8 } = limits;
  if (contextLimit === undefined || !(Number.isFinite(contextLimit) && contextLimit > 0)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `Compaction needs the model's context window: set contextLimit to its size in tokens ` +
        `(got ${String(contextLimit)}), or turn automatic compaction off with auto: false`,
    );
  }
  if (!(thresholdRatio > 0 && thresholdRatio <= 1)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `thresholdRatio must be more than 0 and at most 1; got ${thresholdRatio}`,
    );
  }
  return totalTokens(usage) >= contextLimit * thresholdRatio;
}
