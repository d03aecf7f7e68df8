import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ConversationLogBackend, LoggedEvent } from './conversation-log-backend.js';
import type { ConversationEvent } from './conversation-message.js';
import type { StoredModelCall } from './model-call.js';

/**
 * A {@link ConversationLogBackend} in memory: for tests, and for conversations that need not
 * outlive the process.
 *
 * @example
 * ```ts
 * const log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
 * ```
 */
export class MemoryConversationLogBackend implements ConversationLogBackend {
  readonly #events: ConversationEvent[] = [];
  readonly #modelCalls: StoredModelCall[] = [];

  // Copies in and out, as a stored event would be: later changes to either side do not leak.
  async append(events: readonly ConversationEvent[]): Promise<void> {
    this.#events.push(...events.map((event) => structuredClone(event)));
  }

  async *readBackward(options: { cursor?: string } = {}): AsyncIterable<LoggedEvent> {
    const end = options.cursor === undefined ? this.#events.length : Number(options.cursor);
    if (!Number.isSafeInteger(end) || end < 0 || end > this.#events.length) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Not a cursor of this log: ${options.cursor}`,
      );
    }
    for (let index = end - 1; index >= 0; index--) {
      yield {
        event: structuredClone(this.#events[index] as ConversationEvent),
        cursor: String(index),
      };
    }
  }

  async appendModelCall(record: StoredModelCall): Promise<void> {
    this.#modelCalls.push(structuredClone(record));
  }

  async *readModelCalls(options: { before?: number } = {}): AsyncIterable<StoredModelCall> {
    for (let index = this.#modelCalls.length - 1; index >= 0; index--) {
      const record = this.#modelCalls[index] as StoredModelCall;
      if (options.before === undefined || record.call < options.before)
        yield structuredClone(record);
    }
  }
}
