import type { ConversationLogBackend } from './conversation-log-backend.js';
import type { CompactionRecord, ConversationEvent } from './conversation-message.js';
import { restoredHandle } from './restored-handle.js';

/**
 * What a conversation's log holds for the next request: the latest compaction, the message
 * events since its `keptFrom` (oldest first), and the `seq` the next event gets.
 */
export interface WorkingSet {
  compaction: CompactionRecord | undefined;
  /** The seq of the latest compaction's event. */
  compactionSeq: number | undefined;
  events: Extract<ConversationEvent, { type: 'message' }>[];
  nextSeq: number;
}

/**
 * Reads `backend` backwards from its end to the latest compaction's `keptFrom`, and no further:
 * the events a compaction left behind are not read. The handles of tool outputs recorded there
 * name `tool_output_cache` and the stored ref, since only the session that ran a call offered
 * the `artifact_*` tools that reach it.
 *
 * @example
 * ```ts
 * const { compaction, events, nextSeq } = await readWorkingSet(backend, { signal });
 * ```
 */
export async function readWorkingSet(
  backend: ConversationLogBackend,
  options: { signal?: AbortSignal } = {},
): Promise<WorkingSet> {
  const events: WorkingSet['events'] = [];
  let compaction: CompactionRecord | undefined;
  let compactionSeq: number | undefined;
  let nextSeq = 0;
  for await (const { event } of backend.readBackward(options)) {
    nextSeq = Math.max(nextSeq, event.seq + 1);
    if (compaction && event.seq < compaction.keptFrom) break;
    if (event.type === 'message') events.push(event);
    else if (!compaction) {
      compaction = event.compaction;
      compactionSeq = event.seq;
    }
  }
  return {
    compaction,
    compactionSeq,
    // Read newest first; events a compaction left behind are not in the working set.
    events: events
      .reverse()
      .filter((event) => event.seq >= (compaction?.keptFrom ?? 0))
      .map((event) => ({ ...event, message: restoredHandle(event.message) })),
    nextSeq,
  };
}
