import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * How a projection's token budget is chosen.
 */
export interface ContextBudgetOptions {
  /** The budget itself, in tokens. */
  contextBudgetTokens?: number;
  /** The model's context window; without a budget, a quarter of it, clamped to 20k–60k. */
  contextWindow?: number;
}

const minimumBudget = 20_000;
const maximumBudget = 60_000;
const windowShare = 0.25;

/**
 * The tokens a projection may fill: `contextBudgetTokens`, else
 * `clamp(contextWindow × 0.25, 20_000, 60_000)`: room for the model's own reasoning and reply,
 * and for tool outputs queried this turn. Neither given is an error, not a guess.
 *
 * @example
 * ```ts
 * contextBudget({ contextWindow: 128_000 }); // 32000
 * contextBudget({ contextWindow: 1_000_000 }); // 60000
 * ```
 */
export function contextBudget(options: ContextBudgetOptions): number {
  const { contextBudgetTokens, contextWindow } = options;
  if (contextBudgetTokens !== undefined)
    return positive(contextBudgetTokens, 'contextBudgetTokens');
  if (contextWindow !== undefined) {
    const share = positive(contextWindow, 'contextWindow') * windowShare;
    return Math.round(Math.min(maximumBudget, Math.max(minimumBudget, share)));
  }
  throw new SpoolforgeError(
    'E_INVALID_ARGUMENT',
    'The context budget is unknown: pass contextBudgetTokens, or the model’s contextWindow',
  );
}

function positive(value: number, name: string): number {
  if (Number.isFinite(value) && value > 0) return value;
  throw new SpoolforgeError('E_INVALID_ARGUMENT', `${name} must be a positive number: ${value}`);
}
