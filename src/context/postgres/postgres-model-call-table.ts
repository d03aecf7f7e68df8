import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import type { StoredModelCall } from '../model-call.js';
import { conflictCodes, type PostgresConversationRows } from './postgres-conversation-rows.js';
import { ensureTable, tableColumns } from './postgres-tables.js';

/**
 * A conversation's model calls in PostgreSQL (`ConversationLog.modelCalls`), one row per call
 * keyed by (conversation, call), as the JSONL backend keeps them in a file beside its log. The
 * table is created on the first use, when `create`: a conversation that records no model call
 * needs none.
 *
 * @example
 * ```ts
 * const table = '"spoolforge_conversation_events"';
 * const rows = new PostgresConversationRows({ pool, conversationId: 'ticket-4812', table, pageSize: 256 });
 * const calls = new PostgresModelCallTable(rows, { table: '"spoolforge_model_calls"', create: true });
 * for await (const stored of calls.read({ before: 10 })) console.log(stored.call, stored.model);
 * ```
 */
export class PostgresModelCallTable {
  /** The table, quoted for SQL. */
  readonly table: string;
  readonly #rows: PostgresConversationRows;
  readonly #create: boolean;
  #ready: Promise<void> | undefined;

  constructor(rows: PostgresConversationRows, options: { table: string; create: boolean }) {
    this.#rows = rows;
    this.table = options.table;
    this.#create = options.create;
  }

  /**
   * Appends a model call's record.
   *
   * @throws SpoolforgeError `E_CONFLICT` when another writer recorded that call number; `E_IO`.
   */
  async append(record: StoredModelCall, options: { signal?: AbortSignal } = {}): Promise<void> {
    const rows = this.#rows;
    rows.throwIfClosed();
    await this.#created();
    throwIfAborted(options.signal);
    try {
      await rows.pool.query(
        `INSERT INTO ${this.table} (conversation_id, call, record) VALUES ($1, $2, $3)`,
        [rows.conversationId, record.call, JSON.stringify(record)],
      );
    } catch (error) {
      if (!conflictCodes.has((error as { code?: unknown }).code)) {
        throw rows.ioError('record a model call of', error);
      }
      throw new SpoolforgeError(
        'E_CONFLICT',
        `Conversation ${rows.conversationId}: another writer recorded model call ${record.call}; nothing was recorded`,
      );
    }
  }

  /** The calls before `before` (default all), newest first. */
  async *read(
    options: { before?: number; signal?: AbortSignal } = {},
  ): AsyncIterable<StoredModelCall> {
    await this.#created();
    const { before, signal } = options;
    const what = 'read the model calls of';
    const read = { table: this.table, key: 'call', column: 'record', before, what, signal };
    for await (const row of this.#rows.backward(read)) {
      yield this.#rows.parse<StoredModelCall>(row.json, `call ${row.key}`);
    }
  }

  #created(): Promise<void> {
    if (!this.#create) return Promise.resolve();
    this.#ready ??= ensureTable(this.#rows.pool, this.table, tableColumns.modelCalls);
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    return this.#ready;
  }
}
