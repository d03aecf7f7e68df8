import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ConversationLog } from './conversation-log.js';

/**
 * Deletes from the log's store the outputs (tool outputs, long pastes) that a compaction
 * removed from the working set and that nothing the model can still see names: not a message
 * kept in the working set (its `ref`, a call's arguments, a quoted `ref=…`), not the
 * compaction's summary or retained text. Their events stay in the log for scrollback; a query
 * by their ref answers `E_ARTIFACT_NOT_FOUND`. It reads the log's events before the latest
 * compaction (an output named by the working set of one compaction may be released after a
 * later one), deleting as it goes. Resolves the ids it deleted. Call
 * `session.forget()` for the calls compacted away first: a session's `artifact_*` tools read
 * an output it still holds.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a log without a store; what the backend and
 *   the store throw; `E_ABORTED`.
 * @example
 * ```ts
 * await compactLog(log, { summarise, contextWindow: 128_000 });
 * const released = await releaseCompactedOutputs(log);
 * ```
 */
export async function releaseCompactedOutputs(
  log: ConversationLog,
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const { store, compaction } = log;
  if (!store) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', 'The log has no store to release outputs from');
  }
  if (!compaction) return [];
  const { signal } = options;
  const visible = [
    compaction.retain,
    compaction.summary,
    ...log.events.map((event) => JSON.stringify(event.message)),
  ];
  const released: string[] = [];
  for await (const { event } of log.backend.readBackward(signal ? { signal } : {})) {
    if (event.type !== 'message' || event.seq >= compaction.keptFrom) continue;
    const { ref } = event.message;
    if (ref === undefined || visible.some((text) => text.includes(ref))) continue;
    if (await store.delete(ref)) released.push(ref);
  }
  return released;
}
