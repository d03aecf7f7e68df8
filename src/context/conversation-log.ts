import { randomUUID } from 'node:crypto';
import type { ToolCallOutcome } from '../executor/tool-result-content.js';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import { ConversationEventWriter } from './conversation-event-writer.js';
import { checkConversationId } from './conversation-id.js';
import type { ConversationLogBackend } from './conversation-log-backend.js';
import type {
  CompactionRecord,
  ConversationEvent,
  ConversationMessage,
} from './conversation-message.js';
import { JsonlConversationLogBackend } from './jsonl-conversation-log-backend.js';
import { messageView, resolveLimits } from './message-view.js';
import { ModelCalls } from './model-calls.js';
import {
  type ConversationPage,
  type ConversationPageOptions,
  readConversationPage,
} from './read-conversation-page.js';
import { summaryMessage } from './summary-reply.js';
import { toolOutcomeMessages } from './tool-outcome-messages.js';
import { type KeepHandle, readWorkingSet, type WorkingSet } from './working-set.js';

/**
 * Options for {@link ConversationLog.open}: where the log lives, and which conversation.
 */
export interface ConversationLogOptions {
  /**
   * Keeps tool outputs (by id), and by default the log too: a JSONL file in
   * `<store.directory>/conversations/<conversationId>.jsonl`.
   */
  store?: ArtifactStore;
  /** Where the events go instead of the store's directory (your own database). */
  backend?: ConversationLogBackend;
  /**
   * Letters, digits, `_` and `-`; default the backend's (PostgreSQL's names its conversation),
   * else a random UUID. Reopen with the same id to resume.
   */
  conversationId?: string;
  /** `fdatasync` every append to the default JSONL file. Default false. */
  sync?: boolean;
  /**
   * A message whose text is longer (UTF-8 bytes) is put into `store` and recorded as its first
   * part with a note naming the `tool_output_cache` call that reads on, and its `ref`: a 50 MiB
   * paste costs the log, the working set and every request 50 KiB. Default 50 KiB.
   */
  maxResultBytes?: number;
  /** Epoch milliseconds for event times. Default `Date.now`. */
  now?: () => number;
  /**
   * Asked, in log order, of each tool message of the working set whose handle names the
   * `artifact_*` tools and its call id: resolve true when the session that goes on offers that
   * call again (a `ConversationPool` reviving a conversation), and the handle stays as recorded.
   * Without it, or false, the handle names `tool_output_cache` and the stored ref.
   */
  keepHandle?: KeepHandle;
  signal?: AbortSignal;
}

type MessageEvent = Extract<ConversationEvent, { type: 'message' }>;

/**
 * An append-only record of a conversation: every message, every tool result (the full output
 * by its `ArtifactStore` id, never a copy), and every compaction. In memory it keeps only the
 * working set, the latest compaction and the events since: opening an existing log reads
 * backwards from its end to there, and {@link ConversationLog.page} scrolls back through the
 * rest. {@link ConversationLog.history} is what a projection renders for the next request.
 * One process writes a conversation at a time: sequence numbers are assigned in memory, from
 * the last one read on open, as each write's turn comes (writes run one at a time, in call
 * order). A backend that keys events by number (PostgreSQL's) turns a second
 * writer into `E_CONFLICT` on its append: nothing of it was recorded and this log is unchanged;
 * open the conversation again to see the other writer's events.
 *
 * @example
 * ```ts
 * const store = await ArtifactStore.open('.agent/artifacts');
 * await using log = await ConversationLog.open({ store, conversationId: 'ticket-4812' });
 * await log.append({ role: 'user', content: 'Why did the build fail?' });
 * const projection = await projectContext(log.history(), { contextWindow: 200_000 });
 * ```
 */
export class ConversationLog {
  readonly conversationId: string;
  readonly store: ArtifactStore | undefined;
  readonly backend: ConversationLogBackend;
  /** The model calls recorded beside the log: what each request carried, its usage and latency. */
  readonly modelCalls: ModelCalls;
  readonly #maxResultBytes: number;
  #compaction: CompactionRecord | undefined;
  #compactionSeq: number | undefined;
  #events: MessageEvent[];
  readonly #writer: ConversationEventWriter;

  private constructor(
    init: Pick<ConversationLog, 'conversationId' | 'store' | 'backend'> & {
      now: () => number;
      maxResultBytes: number;
      compaction: CompactionRecord | undefined;
      compactionSeq: number | undefined;
      events: MessageEvent[];
      keptHandles: number[];
      nextSeq: number;
    },
  ) {
    this.conversationId = init.conversationId;
    this.store = init.store;
    this.backend = init.backend;
    this.#maxResultBytes = init.maxResultBytes;
    this.#compaction = init.compaction;
    this.#compactionSeq = init.compactionSeq;
    this.#events = init.events;
    this.#writer = new ConversationEventWriter(init.backend, init);
    const restored = init.nextSeq;
    this.modelCalls = new ModelCalls(
      init.backend,
      () => ({
        compaction: this.#compaction && {
          record: this.#compaction,
          seq: this.#compactionSeq as number,
        },
        events: this.#events,
        nextSeq: this.#writer.nextSeq,
        restored,
        keptHandles: init.keptHandles,
      }),
      init.now,
    );
  }

  /**
   * Opens a conversation, new or existing, and rebuilds its working set from the latest
   * compaction and the events since it, without reading what came before. The handles of tool
   * outputs recorded there name `tool_output_cache` and the stored ref instead of the
   * `artifact_*` tools and call id, which only the session that ran the call offered.
   *
   * @throws SpoolforgeError `E_IO` when the default JSONL log cannot be created or opened,
   *   `E_LOG_DAMAGED` for a line that is not an event, `E_ABORTED`; the file is closed again.
   *   `E_INVALID_ARGUMENT` for a `conversationId` other than the backend's.
   */
  static async open(options: ConversationLogOptions): Promise<ConversationLog> {
    throwIfAborted(options.signal); // before a new log's file is created
    const named = options.backend?.conversationId;
    const conversationId = options.conversationId ?? named ?? randomUUID();
    checkConversationId(conversationId);
    if (named !== undefined && named !== conversationId) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `conversationId ${conversationId} is not the backend's conversation, ${named}`,
      );
    }
    const { maxResultBytes } = resolveLimits(
      options.maxResultBytes === undefined ? {} : { maxResultBytes: options.maxResultBytes },
    );
    const backend =
      options.backend ??
      (await JsonlConversationLogBackend.inStore(options.store, conversationId, options.sync));
    let workingSet: WorkingSet;
    try {
      workingSet = await readWorkingSet(backend, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.keepHandle ? { keepHandle: options.keepHandle } : {}),
      });
    } catch (error) {
      // A backend this call opened is this call's to close; a caller's stays theirs.
      if (!options.backend) await backend.close?.().catch(() => undefined);
      throw error;
    }
    return new ConversationLog({
      conversationId,
      store: options.store,
      backend,
      now: options.now ?? Date.now,
      maxResultBytes,
      ...workingSet,
    });
  }

  /** The latest compaction, if any. */
  get compaction(): CompactionRecord | undefined {
    return this.#compaction;
  }

  /** The message events since the latest compaction's `keptFrom`, oldest first. */
  get events(): readonly MessageEvent[] {
    return this.#events;
  }

  /** The sequence number the next event gets. */
  get nextSeq(): number {
    return this.#writer.nextSeq;
  }

  /** The conversation as the model should know it: the latest summary, then the messages since. */
  history(): ConversationMessage[] {
    const messages = this.#events.map((event) => event.message);
    return this.#compaction ? [summaryMessage(this.#compaction), ...messages] : messages;
  }

  /**
   * Records messages (assistant replies, user turns, tool results you rendered yourself). A
   * message over `maxResultBytes` without a `ref` is put into the store and recorded bounded,
   * with its `ref` (see {@link ConversationLogOptions.maxResultBytes}).
   *
   * @throws SpoolforgeError what the backend throws; then none of the messages is recorded and
   *   the log is unchanged: `E_CONFLICT` when another writer appended to the conversation first.
   */
  append(...messages: ConversationMessage[]): Promise<MessageEvent[]> {
    return this.#writer.tracked(async () => {
      const recorded: ConversationMessage[] = [];
      for (const message of messages) recorded.push(await this.#bounded(message));
      return this.#writer.write(
        recorded.map((message) => ({ type: 'message' as const, message })),
        (events) => this.#events.push(...events),
      );
    });
  }

  /**
   * Records what a `ToolSession` run produced, as `tool` messages: the text the model was shown,
   * and the output's store id. An artifact spooled outside the store (a session without
   * `store`) is put into this log's store first, so the record outlives the process.
   */
  appendToolOutcomes(
    outcomes: readonly ToolCallOutcome[],
    options: { signal?: AbortSignal } = {},
  ): Promise<MessageEvent[]> {
    return this.#writer.tracked(async () =>
      this.append(
        ...(await toolOutcomeMessages(outcomes, { store: this.store, signal: options.signal })),
      ),
    );
  }

  /**
   * Records a compaction: from now on the history is its summary and the events from
   * `record.keptFrom` on. Earlier events stay in the log for {@link ConversationLog.page}.
   */
  async recordCompaction(record: CompactionRecord): Promise<void> {
    await this.#writer.tracked(() =>
      this.#writer.write([{ type: 'compaction' as const, compaction: record }], ([event]) => {
        this.#compaction = record;
        this.#compactionSeq = event?.seq;
        this.#events = this.#events.filter((kept) => kept.seq >= record.keptFrom);
      }),
    );
  }

  /**
   * Scrollback for a UI: up to `limit` events (default 50) before `cursor`, newest first, and
   * the cursor of the page before them (`undefined` at the start of the conversation).
   */
  page(options: ConversationPageOptions = {}): Promise<ConversationPage> {
    return readConversationPage(this.backend, options);
  }

  /** The tool message in the working set answering call `toolCallId`, or with that `ref`. */
  toolMessage(toolCallIdOrRef: string): Extract<ConversationMessage, { role: 'tool' }> | undefined {
    for (let index = this.#events.length - 1; index >= 0; index--) {
      const message = this.#events[index]?.message;
      if (message?.role !== 'tool') continue;
      if (message.toolCallId === toolCallIdOrRef || message.ref === toolCallIdOrRef) return message;
    }
    return undefined;
  }

  /** Closes the backend once the writes asked for have settled (the store is yours to keep open). */
  async close(): Promise<void> {
    await this.#writer.settled();
    await this.backend.close?.();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #bounded(message: ConversationMessage): Promise<ConversationMessage> {
    const tooLong = Buffer.byteLength(message.content) > this.#maxResultBytes;
    if (!tooLong || message.ref !== undefined || !this.store) return message;
    const metadata = message.role === 'tool' ? { toolCallId: message.toolCallId } : {};
    const { id } = await this.store.put(message.content, {
      metadata: { role: message.role, ...metadata },
    });
    return messageView({ ...message, ref: id }, { maxResultBytes: this.#maxResultBytes });
  }
}
