import { type CompactOptions, type CompactResult, compact } from './compaction.js';
import type { ConversationLog } from './conversation-log.js';
import { type ProjectContextOptions, projectContext } from './project-context.js';

/**
 * Options for {@link compactLog}: the summariser and what to keep, and the projection the
 * summariser reads (its budget bounds the summarisation request too).
 *
 * @example
 * ```ts
 * const options: CompactLogOptions = { summarise, contextWindow: 200_000, retainLastTurns: 2 };
 * ```
 */
export interface CompactLogOptions extends CompactOptions, ProjectContextOptions {}

/**
 * Compacts a conversation log: the summariser reads the projected history (tool outputs cut
 * and trimmed, so the request stays bounded), and the log records the compaction, so its
 * history becomes the summary and the last turns, now and after a restart. Earlier events stay
 * in the log for scrollback; their stored tool outputs stay readable by ref.
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), options);
 * if (projection.overBudget || shouldCompact(usage, { contextLimit: 200_000 })) {
 *   await compactLog(log, { ...options, summarise: anthropicSummariser({ client, model: 'claude-haiku-4-5' }) });
 * }
 * ```
 */
export async function compactLog(
  log: ConversationLog,
  options: CompactLogOptions,
): Promise<CompactResult> {
  const history = log.history();
  const { messages } = await projectContext(history, options);
  const result = await compact(messages, options);
  // `history` is the summary of the last compaction (if any), then the working set's events.
  const summaries = history.length - log.events.length;
  const kept = log.events[result.keptFrom - summaries] ?? log.events[0];
  const keptFrom = result.keptFrom >= history.length ? log.nextSeq : (kept?.seq ?? log.nextSeq);
  await log.recordCompaction({ retain: result.retain, summary: result.summary, keptFrom });
  return result;
}
