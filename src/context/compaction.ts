import { raceAbort } from '../shared/abortable.js';
import { abortError, SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import type { ConversationMessage, Summariser } from './conversation-message.js';
import { type ConversationSummary, parseSummaryReply, summaryMessage } from './summary-reply.js';
import { type SummaryRequestOptions, summaryRequest } from './summary-request.js';

/**
 * Options for {@link compact}.
 */
export interface CompactOptions extends SummaryRequestOptions {
  /** Called once, without tools, with the formatted history; returns the reply text. */
  summarise: Summariser;
  /**
   * How many of the latest turns (a turn starts at a user message) stay as they are. Default 1;
   * 0 keeps none, so compact between turns then: a tool call still waiting for its result
   * would be summarised away and its result would answer nothing.
   */
  retainLastTurns?: number;
  signal?: AbortSignal;
}

/**
 * What {@link compact} made: the summary, where the kept messages start in the history it was
 * given, and the new history.
 *
 * @example
 * ```ts
 * const { retain, summary, keptFrom, history: compacted } = await compact(history, { summarise });
 * // history[keptFrom] is now compacted[1]; compacted[0] is the summary message.
 * ```
 */
export interface CompactResult extends ConversationSummary {
  /** Index into the given history of the first message kept as is (its length if none). */
  keptFrom: number;
  /** The summary message followed by `history.slice(keptFrom)`. */
  history: ConversationMessage[];
}

/**
 * Replaces all but the last turns of a history with a summary: asks `summarise` (without tools)
 * for `<retain>` and `<summary>` of the whole history (see {@link summaryRequest}), and returns
 * the summary message followed by the kept turns. The instruction and the summariser's reply
 * are not part of the new history. Rebuild provider-specific message arrays from it with the
 * adapters' converters.
 *
 * @throws SpoolforgeError `E_COMPACTION_FAILED` when the reply has no summary,
 *   `E_INVALID_ARGUMENT` for a bad `retainLastTurns`, `E_ABORTED` when `signal` fires.
 * @example
 * ```ts
 * if (shouldCompact(usageOfChatCompletion(completion), { contextLimit: 128_000 })) {
 *   const { history } = await compact(conversation, { summarise: openAISummariser({ client, model: 'gpt-4o-mini' }) });
 *   conversation = history;
 *   messages = toChatCompletionsMessages(conversation, { instructions: systemPrompt });
 * }
 * ```
 */
export async function compact(
  history: readonly ConversationMessage[],
  options: CompactOptions,
): Promise<CompactResult> {
  const keptFrom = startOfLastTurns(history, options.retainLastTurns ?? 1);
  const { signal } = options;
  throwIfAborted(signal);
  let reply: string;
  try {
    // A summariser may ignore the signal; the race still ends the wait at once.
    reply = await raceAbort(
      options.summarise(summaryRequest(history, options), signal ? { signal } : {}),
      signal,
    );
  } catch (error) {
    if (signal?.aborted && !SpoolforgeError.isInstance(error)) throw abortError(signal);
    throw error;
  }
  const { retain, summary } = parseSummaryReply(reply);
  return {
    retain,
    summary,
    keptFrom,
    history: [summaryMessage({ retain, summary }), ...history.slice(keptFrom)],
  };
}

/**
 * The index of the `turns`-th last user message (a turn starts at one); 0 when there are
 * fewer, the history's length for 0 turns.
 *
 * @example
 * ```ts
 * startOfLastTurns(history, 1); // where the last turn starts
 * ```
 */
export function startOfLastTurns(history: readonly ConversationMessage[], turns: number): number {
  if (!Number.isInteger(turns) || turns < 0) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `retainLastTurns must be a whole number of turns, 0 or more; got ${turns}`,
    );
  }
  if (turns === 0) return history.length;
  let seen = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    if (history[index]?.role === 'user' && ++seen === turns) return index;
  }
  return 0;
}
