import { Media } from '../artifact/media.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { storeMedia } from '../executor/store-media.js';
import { contentText, type ToolCallOutcome } from '../executor/tool-result-content.js';
import { readerChunks } from '../spool/reader-chunks.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { ConversationMessage } from './conversation-message.js';

/**
 * The `tool` messages a `ToolSession` run is recorded as: the text the model was shown, and the
 * output's store id. An artifact spooled outside the store (a session without `store`), or a
 * `Media` (an image, a PDF), is put into `store` first, so the record outlives the process.
 *
 * @example
 * ```ts
 * await log.append(...(await toolOutcomeMessages(outcomes, { store })));
 * ```
 */
export async function toolOutcomeMessages(
  outcomes: readonly ToolCallOutcome[],
  options: { store?: ArtifactStore | undefined; signal?: AbortSignal | undefined },
): Promise<ConversationMessage[]> {
  const messages: ConversationMessage[] = [];
  for (const outcome of outcomes) {
    const ref = outcome.ref ?? (await storeResults(outcome, options.store, options.signal));
    messages.push({
      role: 'tool',
      toolCallId: outcome.call.id,
      toolName: outcome.call.name,
      content: contentText(outcome.content),
      ...(ref === undefined ? {} : { ref }),
      ...(outcome.isError ? { isError: true } : {}),
    });
  }
  return messages;
}

async function storeResults(
  outcome: ToolCallOutcome,
  store: ArtifactStore | undefined,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const results = outcome.call.results;
  if (!store) return undefined;
  const metadata = { toolCallId: outcome.call.id, toolName: outcome.call.name };
  if (Media.isInstance(results))
    return storeMedia(results, store, { metadata, ...(signal ? { signal } : {}) });
  if (!(results instanceof SpooledArtifact)) return undefined;
  const record = await store.put(readerChunks(results.reader, signal ? { signal } : {}), {
    ...(results.mediaType === undefined ? {} : { mediaType: results.mediaType }),
    metadata,
    ...(signal ? { signal } : {}),
  });
  return record.id;
}
