import type { ConversationEvent } from './conversation-message.js';
import type { StoredModelCall } from './model-call.js';

/**
 * An event read backwards, and the cursor that continues reading before it.
 *
 * @example
 * ```ts
 * for await (const { event, cursor } of backend.readBackward()) if (event.type === 'compaction') return cursor;
 * ```
 */
export interface LoggedEvent {
  event: ConversationEvent;
  /** Opaque: pass it as `readBackward({ cursor })` to go on with the events before this one. */
  cursor: string;
}

/**
 * Where a {@link ConversationLog} keeps its events: append-only, read newest first. Implement it
 * to keep conversations in your own database; the default is a JSONL file in the
 * `ArtifactStore`'s directory ({@link JsonlConversationLogBackend}).
 *
 * @example
 * ```ts
 * const backend: ConversationLogBackend = new MemoryConversationLogBackend();
 * await backend.append([{ type: 'message', seq: 0, time: Date.now(), message: { role: 'user', content: 'hi' } }]);
 * ```
 */
export interface ConversationLogBackend {
  /** The conversation, when the backend is bound to one: `ConversationLog.open` defaults to it. */
  readonly conversationId?: string;
  /**
   * Appends events, in order, after every event appended before: all or none (when it throws,
   * none of them was recorded, and the log reuses their sequence numbers).
   */
  append(events: readonly ConversationEvent[], options?: { signal?: AbortSignal }): Promise<void>;
  /** The events newest first, starting before `cursor` (default: after the last one). */
  readBackward(options?: { cursor?: string; signal?: AbortSignal }): AsyncIterable<LoggedEvent>;
  /**
   * Appends a model call's record beside the events (`ConversationLog.modelCalls`). Records come
   * numbered one after another; store each whole. A backend without it keeps no model calls.
   */
  appendModelCall?(record: StoredModelCall, options?: { signal?: AbortSignal }): Promise<void>;
  /** The model calls' records newest first, those numbered below `before` (default: all). */
  readModelCalls?(options?: {
    before?: number;
    signal?: AbortSignal;
  }): AsyncIterable<StoredModelCall>;
  close?(): Promise<void>;
}
