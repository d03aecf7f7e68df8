import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { checkConversationId } from './conversation-id.js';
import {
  type ConversationOpenOptions,
  openPooledConversation,
  type PooledConversation,
} from './revive-conversation.js';

/** Options for a {@link ConversationPool}. */
export interface ConversationPoolOptions extends ConversationOpenOptions {
  /**
   * Conversations kept live at once: past it the least recently used idle one hibernates.
   * Conversations in use are never hibernated, so a burst may pass it until they go idle.
   * Default 256 (a live conversation of a few hundred turns holds 200–300 KB of heap).
   */
  maxLive?: number;
  /** Milliseconds a live conversation stays idle before it hibernates. Default 300,000 (5 minutes). */
  idleTimeout?: number;
  /** Uses of one conversation running or waiting their turn: past it `use` is `E_BUSY`. Default 16. */
  maxPending?: number;
  /**
   * Hibernated conversations whose length the pool remembers, to refuse reviving one whose log
   * lost events (deleted, truncated): past it the oldest is forgotten (its next use opens the
   * log as it finds it). Default 100,000 (a few MB).
   */
  maxHibernated?: number;
}

/** What a pool holds now. */
export interface ConversationPoolStats {
  /** Conversations live in memory (reviving included). */
  live: number;
  /** Live conversations with a use running or waiting. */
  busy: number;
  /** Conversations hibernated to their logs that the pool remembers. */
  hibernated: number;
}

interface Entry {
  readonly conversationId: string;
  conversation: PooledConversation | undefined;
  /** Uses run one at a time: the last one's settling. */
  tail: Promise<unknown>;
  pending: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Many conversations in one process, with bounded memory and descriptors: each conversation's
 * log and `ToolSession` live in memory while in use; an idle one hibernates (its session and log
 * are closed; only its length is remembered) after `idleTimeout`, or as soon as more than
 * `maxLive` are live, and is revived from its log on its next use, its session offering again
 * the stored outputs of its working set, so the next projection is the one it would have had
 * without hibernating. Uses of one conversation run one at a time, in call order.
 *
 * @example
 * ```ts
 * await using pool = new ConversationPool({ store, tools: [fetchLog], maxLive: 500 });
 * const reply = await pool.use('ticket-4812', async ({ log, session }) => {
 *   await log.append({ role: 'user', content: 'Why did the build fail?' });
 *   const dispatch = session.dispatch();
 *   return projectContext(log.history(), { contextWindow: 128_000, tools: dispatch.tools.list() });
 * });
 * ```
 */
export class ConversationPool implements AsyncDisposable {
  readonly #opener: ConversationOpenOptions;
  readonly #maxLive: number;
  readonly #idleTimeout: number;
  readonly #maxPending: number;
  readonly #maxHibernated: number;
  /** Live (or reviving) conversations, least recently used first. */
  readonly #entries = new Map<string, Entry>();
  /** Hibernated conversations' `nextSeq`, oldest first. */
  readonly #hibernated = new Map<string, number>();
  /** Conversations hibernating: a revival waits for its log to be closed. */
  readonly #closing = new Map<string, Promise<void>>();
  #closed = false;

  constructor(options: ConversationPoolOptions) {
    const { maxLive, idleTimeout, maxPending, maxHibernated, ...opener } = options;
    this.#opener = opener;
    this.#maxLive = positive('maxLive', maxLive ?? 256);
    this.#idleTimeout = positive('idleTimeout', idleTimeout ?? 300_000);
    this.#maxPending = positive('maxPending', maxPending ?? 16);
    this.#maxHibernated = positive('maxHibernated', maxHibernated ?? 100_000);
  }

  /**
   * Runs `work` on conversation `conversationId` once the uses before it have settled: revived
   * from its log if it hibernated, opened (created) if the pool never held it. It cannot
   * hibernate while `work` runs.
   *
   * @throws SpoolforgeError `E_BUSY` past `maxPending` uses of the conversation; a revival that
   *   failed, with the code of its cause and a message naming the conversation (`E_LOG_DAMAGED`
   *   for a log that is not events or lost events since it hibernated, `E_IO`, `E_ABORTED`):
   *   the pool goes on, and the next use tries again; `E_IO` once the pool is closed; whatever
   *   `work` throws.
   */
  async use<Result>(
    conversationId: string,
    work: (conversation: PooledConversation) => Promise<Result>,
    options: { signal?: AbortSignal } = {},
  ): Promise<Result> {
    checkConversationId(conversationId);
    if (this.#closed) throw new SpoolforgeError('E_IO', 'The conversation pool is closed');
    const entry = this.#entries.get(conversationId) ?? this.#newEntry(conversationId);
    if (entry.pending >= this.#maxPending) {
      throw new SpoolforgeError(
        'E_BUSY',
        `Conversation ${conversationId} has ${entry.pending} uses running or waiting (maxPending)`,
      );
    }
    entry.pending += 1;
    clearTimeout(entry.timer);
    this.#entries.delete(conversationId);
    this.#entries.set(conversationId, entry);
    const run = entry.tail.then(async () => {
      throwIfAborted(options.signal);
      entry.conversation ??= await this.#revive(conversationId, options.signal);
      this.#trim();
      return work(entry.conversation);
    });
    entry.tail = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      entry.pending -= 1;
      if (entry.pending === 0) this.#idle(entry);
    }
  }

  /** Hibernates conversation `conversationId` now if it is live and idle; true if it did. */
  async hibernate(conversationId: string): Promise<boolean> {
    const entry = this.#entries.get(conversationId);
    if (!entry?.conversation || entry.pending > 0) return false;
    await this.#hibernate(entry);
    return true;
  }

  get stats(): ConversationPoolStats {
    let busy = 0;
    for (const entry of this.#entries.values()) if (entry.pending > 0) busy += 1;
    return { live: this.#entries.size, busy, hibernated: this.#hibernated.size };
  }

  /** Refuses new uses, waits for those running or waiting, then closes every live conversation. */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    await Promise.all(entries.map((entry) => entry.tail));
    await Promise.all([...this.#entries.values()].map((entry) => this.#hibernate(entry)));
    await Promise.all(this.#closing.values());
    this.#hibernated.clear();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #newEntry(conversationId: string): Entry {
    return {
      conversationId,
      conversation: undefined,
      tail: Promise.resolve(),
      pending: 0,
      timer: undefined,
    };
  }

  async #revive(conversationId: string, signal: AbortSignal | undefined) {
    await this.#closing.get(conversationId);
    const signalOption = signal ? { signal } : {};
    const length = this.#hibernated.get(conversationId);
    let conversation: PooledConversation | undefined;
    try {
      conversation = await openPooledConversation(conversationId, this.#opener, signalOption);
      if (length !== undefined && conversation.log.nextSeq < length) {
        throw new SpoolforgeError(
          'E_LOG_DAMAGED',
          `its log holds ${conversation.log.nextSeq} events, ${length} when it hibernated: deleted or truncated since`,
        );
      }
    } catch (error) {
      if (conversation) await closeConversation(conversation);
      const cause = SpoolforgeError.isInstance(error)
        ? error
        : new SpoolforgeError('E_IO', String(error), { cause: error });
      throw new SpoolforgeError(
        cause.code,
        `Cannot revive conversation ${conversationId}: ${cause.message}`,
        { cause },
      );
    }
    this.#hibernated.delete(conversationId);
    return conversation;
  }

  /** An entry whose last use settled: dropped if it never came alive, else timed to hibernate. */
  #idle(entry: Entry): void {
    if (!entry.conversation) {
      this.#entries.delete(entry.conversationId);
      return;
    }
    entry.timer = setTimeout(() => {
      if (entry.pending === 0) void this.#hibernate(entry);
    }, this.#idleTimeout);
    entry.timer.unref();
    this.#trim();
  }

  /** Hibernates least recently used idle conversations while more than `maxLive` are live. */
  #trim(): void {
    for (const entry of this.#entries.values()) {
      if (this.#entries.size <= this.#maxLive) return;
      if (entry.pending === 0 && entry.conversation) void this.#hibernate(entry);
    }
  }

  #hibernate(entry: Entry): Promise<void> {
    clearTimeout(entry.timer);
    const { conversationId, conversation } = entry;
    this.#entries.delete(conversationId);
    entry.conversation = undefined;
    if (!conversation) return Promise.resolve();
    this.#hibernated.delete(conversationId);
    this.#hibernated.set(conversationId, conversation.log.nextSeq);
    for (const [oldest] of this.#hibernated) {
      if (this.#hibernated.size <= this.#maxHibernated) break;
      this.#hibernated.delete(oldest);
    }
    const closing = closeConversation(conversation).finally(() => {
      if (this.#closing.get(conversationId) === closing) this.#closing.delete(conversationId);
    });
    this.#closing.set(conversationId, closing);
    return closing;
  }
}

/** Closes a conversation's session (its outputs' files) and log; errors are not the caller's. */
async function closeConversation({ log, session }: PooledConversation): Promise<void> {
  await Promise.allSettled([session.close(), log.close()]);
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `${name} must be a whole number ≥ 1: ${value}`);
  }
  return value;
}
