import {
  type CompactOptions,
  type CompactResult,
  compact,
  startOfLastTurns,
} from './compaction.js';
import type { ConversationLog } from './conversation-log.js';
import type { ConversationEvent } from './conversation-message.js';
import { type ProjectContextOptions, projectContext } from './project-context.js';

/**
 * Options for {@link compactLog}: the summariser and what to keep, and the projection the
 * summariser reads (its budget bounds the summarisation request too).
 */
export interface CompactLogOptions extends CompactOptions, ProjectContextOptions {}

type MessageEvent = Extract<ConversationEvent, { type: 'message' }>;

/**
 * Where the kept events start: at the `turns`-th last user message, or, when that would keep
 * every event (one long turn), at the last assistant message, so a compaction always frees
 * something. `undefined` when nothing can be freed.
 */
function keptStart(events: readonly MessageEvent[], turns: number): number | undefined {
  const start = startOfLastTurns(
    events.map((event) => event.message),
    turns,
  );
  if (start > 0) return start;
  const lastAssistant = events.findLastIndex((event) => event.message.role === 'assistant');
  return lastAssistant > 0 ? lastAssistant : undefined;
}

/**
 * Compacts a conversation log: the summariser reads the projected history (tool outputs cut
 * and trimmed, so the request stays bounded), and the log records the compaction, so its
 * history becomes the summary and the last `retainLastTurns` turns (default 1), now and after a
 * restart; when one turn is all there is, the kept part starts at its last assistant message.
 * Messages appended while the summariser runs are kept. Earlier events stay in the log for
 * scrollback; their stored tool outputs stay readable by ref. Resolves `undefined`, without
 * calling the summariser, when there is nothing to compact.
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), options);
 * if (projection.overBudget || shouldCompact(usage, { contextLimit: 200_000 })) {
 *   await compactLog(log, { ...options, summarise: openAISummariser({ client, model: 'gpt-4o-mini' }) });
 * }
 * ```
 */
export async function compactLog(
  log: ConversationLog,
  options: CompactLogOptions,
): Promise<CompactResult | undefined> {
  // Snapshots: appends may land while the summariser runs.
  const events = [...log.events];
  const nextSeq = log.nextSeq;
  const history = log.history();
  const start = keptStart(events, options.retainLastTurns ?? 1);
  if (start === undefined) return undefined;
  const { messages } = await projectContext(history, options);
  // The whole history is summarised; what is kept is chosen here, on the log's events.
  const result = await compact(messages, { ...options, retainLastTurns: 0 });
  const keptFrom = events[start]?.seq ?? nextSeq;
  await log.recordCompaction({ retain: result.retain, summary: result.summary, keptFrom });
  return { ...result, keptFrom: history.length - events.length + start, history: log.history() };
}
