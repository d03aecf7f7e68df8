import type { ConversationLogBackend } from './conversation-log-backend.js';
import type {
  CompactionRecord,
  ConversationEvent,
  ConversationMessage,
} from './conversation-message.js';
import { namesArtifactTools, restoredHandle } from './restored-handle.js';

/**
 * Whether a tool message recorded by an earlier open keeps its handle, which names the
 * `artifact_*` tools and its call id: true when a session offers that call again.
 */
export type KeepHandle = (
  message: Extract<ConversationMessage, { role: 'tool' }>,
  options: { signal?: AbortSignal },
) => Promise<boolean>;

/**
 * What a conversation's log holds for the next request: the latest compaction, the message
 * events since its `keptFrom` (oldest first), and the `seq` the next event gets.
 */
export interface WorkingSet {
  compaction: CompactionRecord | undefined;
  /** The seq of the latest compaction's event. */
  compactionSeq: number | undefined;
  /** The seqs of the tool messages whose handles `keepHandle` kept as recorded, ascending. */
  keptHandles: number[];
  events: Extract<ConversationEvent, { type: 'message' }>[];
  nextSeq: number;
}

/**
 * Reads `backend` backwards from its end to the latest compaction's `keptFrom`, and no further:
 * the events a compaction left behind are not read. The handles of tool outputs recorded there
 * name `tool_output_cache` and the stored ref, since only the session that ran a call offered
 * the `artifact_*` tools that reach it, unless `keepHandle` says a session offers the call again
 * (asked in log order).
 *
 * @example
 * ```ts
 * const { compaction, events, nextSeq } = await readWorkingSet(backend, { signal });
 * ```
 */
export async function readWorkingSet(
  backend: ConversationLogBackend,
  options: { signal?: AbortSignal; keepHandle?: KeepHandle } = {},
): Promise<WorkingSet> {
  const { keepHandle, ...read } = options;
  const events: WorkingSet['events'] = [];
  let compaction: CompactionRecord | undefined;
  let compactionSeq: number | undefined;
  let nextSeq = 0;
  for await (const { event } of backend.readBackward(read)) {
    nextSeq = Math.max(nextSeq, event.seq + 1);
    if (compaction && event.seq < compaction.keptFrom) break;
    if (event.type === 'message') events.push(event);
    else if (!compaction) {
      compaction = event.compaction;
      compactionSeq = event.seq;
    }
  }
  // Read newest first; events a compaction left behind are not in the working set.
  const working = events.reverse().filter((event) => event.seq >= (compaction?.keptFrom ?? 0));
  const keptHandles: number[] = [];
  for (const [index, event] of working.entries()) {
    const { message } = event;
    const kept =
      keepHandle !== undefined &&
      message.role === 'tool' &&
      namesArtifactTools(message) &&
      (await keepHandle(message, read));
    if (kept) keptHandles.push(event.seq);
    else working[index] = { ...event, message: restoredHandle(message) };
  }
  return { compaction, compactionSeq, events: working, keptHandles, nextSeq };
}
