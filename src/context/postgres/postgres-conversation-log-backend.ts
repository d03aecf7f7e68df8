import pg from 'pg';
import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import { checkConversationId } from '../conversation-id.js';
import type { ConversationLogBackend, LoggedEvent } from '../conversation-log-backend.js';
import type { ConversationEvent } from '../conversation-message.js';
import type { StoredModelCall } from '../model-call.js';
import { conflictCodes, PostgresConversationRows } from './postgres-conversation-rows.js';
import { PostgresModelCallTable } from './postgres-model-call-table.js';
import { ensureTable, quotedTableName, tableColumns } from './postgres-tables.js';

/**
 * Options for {@link PostgresConversationLogBackend.open}.
 */
export interface PostgresConversationLogOptions {
  /** Your pool: the backend uses it and leaves it open on `close()`. */
  pool?: pg.Pool;
  /** Or a connection string or pool config: the backend makes a pool and ends it on `close()`. */
  connection?: string | pg.PoolConfig;
  /** The conversation: 1–128 letters, digits, `_` or `-` (the same id as `ConversationLog`'s). */
  conversationId: string;
  /**
   * The table, `name` or `schema.name`, each part a lowercase letter or `_` then up to 62
   * lowercase letters, digits or `_`. Default `spoolforge_conversation_events`.
   */
  table?: string;
  /**
   * The table of model calls (`ConversationLog.modelCalls`), named the same way. Default
   * `spoolforge_model_calls`; created on the first call recorded.
   */
  modelCallsTable?: string;
  /** Create the tables when they do not exist. Default true. */
  createTable?: boolean;
  /** Events per `readBackward` query. Default 256. */
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * A conversation log in PostgreSQL, one row per event keyed by (conversation, seq), for agents
 * on many machines sharing one database. Each append is one statement (all its events or none)
 * that lands only right after the last stored event: a second writer of the conversation, or
 * one that has not read the events appended since it opened, gets `E_CONFLICT` and records
 * nothing. `readBackward` reads pages of `pageSize` events newest first, so
 * `ConversationLog.open` on a fresh machine reads the working set, not the conversation.
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const backend = await PostgresConversationLogBackend.open({ pool, conversationId: 'ticket-4812' });
 * await using log = await ConversationLog.open({ backend, store }); // conversation ticket-4812
 * await log.append({ role: 'user', content: 'Why did the build fail?' });
 * ```
 */
export class PostgresConversationLogBackend implements ConversationLogBackend {
  readonly conversationId: string;
  /** The table, quoted for SQL. */
  readonly table: string;
  /** The model calls' table, quoted for SQL. */
  readonly modelCallsTable: string;
  readonly #rows: PostgresConversationRows;
  readonly #modelCalls: PostgresModelCallTable;
  readonly #ownsPool: boolean;
  #closed = false;
  /** Appends run one at a time, in call order: two in flight would conflict with each other. */
  #appending: Promise<void> = Promise.resolve();

  private constructor(init: {
    rows: PostgresConversationRows;
    modelCallsTable: string;
    ownsPool: boolean;
    createTable: boolean;
  }) {
    this.#rows = init.rows;
    this.conversationId = init.rows.conversationId;
    this.table = init.rows.table;
    this.#modelCalls = new PostgresModelCallTable(init.rows, {
      table: init.modelCallsTable,
      create: init.createTable,
    });
    this.modelCallsTable = init.modelCallsTable;
    this.#ownsPool = init.ownsPool;
  }

  /**
   * Connects to the conversation's log, creating the table (and its key) on first use, which
   * concurrent openers may race for.
   *
   * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a bad table name, conversation id, page
   *   size, or neither or both of `pool` and `connection`; `E_IO` when the database cannot be
   *   reached or the table cannot be created; `E_ABORTED`. A pool it made is ended again.
   */
  static async open(
    options: PostgresConversationLogOptions,
  ): Promise<PostgresConversationLogBackend> {
    checkConversationId(options.conversationId);
    const table = quotedTableName(options.table ?? 'spoolforge_conversation_events');
    const modelCallsTable = quotedTableName(options.modelCallsTable ?? 'spoolforge_model_calls');
    const pageSize = options.pageSize ?? 256;
    if (!(Number.isSafeInteger(pageSize) && pageSize >= 1)) {
      throw new SpoolforgeError('E_INVALID_ARGUMENT', `pageSize must be 1 or more: ${pageSize}`);
    }
    if ((options.pool === undefined) === (options.connection === undefined)) {
      throw new SpoolforgeError('E_INVALID_ARGUMENT', 'Pass either a pool or a connection');
    }
    throwIfAborted(options.signal);
    const { connection } = options;
    let pool = options.pool;
    if (!pool) {
      pool = new pg.Pool(
        typeof connection === 'string' ? { connectionString: connection } : connection,
      );
      // An idle client whose server went away (a restart, a failover) makes the pool emit
      // 'error', which would end the process; the next query connects again, or fails as E_IO.
      pool.on('error', () => undefined);
    }
    const { conversationId } = options;
    const backend = new PostgresConversationLogBackend({
      rows: new PostgresConversationRows({ pool, conversationId, table, pageSize }),
      modelCallsTable,
      ownsPool: options.pool === undefined,
      createTable: options.createTable ?? true,
    });
    try {
      if (options.createTable ?? true) await ensureTable(pool, table, tableColumns.events);
      throwIfAborted(options.signal);
    } catch (error) {
      await backend.close().catch(() => undefined);
      throw error;
    }
    return backend;
  }

  /**
   * Appends events whose `seq` numbers follow one another and the last stored event's.
   *
   * @throws SpoolforgeError `E_CONFLICT` when the conversation's last stored event is not the
   *   one before `events[0]` (another writer appended, or holds those numbers); `E_IO`.
   */
  append(events: readonly ConversationEvent[], options: { signal?: AbortSignal } = {}) {
    const appended = this.#appending.then(() => this.#insert(events, options.signal));
    this.#appending = appended.catch(() => undefined);
    return appended;
  }

  async *readBackward(
    options: { cursor?: string; signal?: AbortSignal } = {},
  ): AsyncIterable<LoggedEvent> {
    const before = options.cursor === undefined ? undefined : Number(options.cursor);
    // Only the decimal text of a seq, as this gives it: Number('') is 0, Number('1e0') is 1.
    if (
      before !== undefined &&
      !(Number.isSafeInteger(before) && before >= 0 && String(before) === options.cursor)
    ) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Not a cursor of this log: ${options.cursor}`,
      );
    }
    await this.#appending;
    const { signal } = options;
    const read = { table: this.table, key: 'seq', column: 'event', before, what: 'read', signal };
    for await (const row of this.#rows.backward(read)) {
      const event = this.#rows.parse<ConversationEvent>(row.json, `seq ${row.key}`);
      yield { event, cursor: row.key };
    }
  }

  /**
   * Appends a model call's record: one row keyed by (conversation, call).
   *
   * @throws SpoolforgeError `E_CONFLICT` when another writer recorded that call number; `E_IO`.
   */
  appendModelCall(record: StoredModelCall, options: { signal?: AbortSignal } = {}) {
    const appended = this.#appending.then(() => this.#modelCalls.append(record, options));
    this.#appending = appended.catch(() => undefined);
    return appended;
  }

  async *readModelCalls(
    options: { before?: number; signal?: AbortSignal } = {},
  ): AsyncIterable<StoredModelCall> {
    await this.#appending;
    yield* this.#modelCalls.read(options);
  }

  /** Waits for appends in flight, then ends the pool if the backend made it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#rows.close();
    await this.#appending;
    if (this.#ownsPool) await this.#rows.pool.end();
  }

  async #insert(events: readonly ConversationEvent[], signal: AbortSignal | undefined) {
    this.#rows.throwIfClosed();
    throwIfAborted(signal);
    const first = events[0]?.seq;
    if (first === undefined) return;
    events.forEach((event, index) => {
      if (event.seq !== first + index) {
        throw new SpoolforgeError(
          'E_INVALID_ARGUMENT',
          `Events must be numbered one after another: seq ${event.seq} follows ${first + index - 1}`,
        );
      }
    });
    // One statement, so one transaction. It inserts only when the stored events end right before
    // `first`; two writers that both see the same end race for the key of `first`, and the one
    // that loses waits for the other to commit, then fails with a unique violation.
    let inserted: number | null;
    try {
      ({ rowCount: inserted } = await this.#rows.pool.query(
        `INSERT INTO ${this.table} (conversation_id, seq, event)
           SELECT $1, $2::bigint + ordinality - 1, event
             FROM unnest($3::json[]) WITH ORDINALITY AS appended (event, ordinality)
            WHERE (SELECT coalesce(max(seq), -1) FROM ${this.table} WHERE conversation_id = $1)
                  = $2::bigint - 1`,
        [this.conversationId, first, events.map((event) => JSON.stringify(event))],
      ));
    } catch (error) {
      if (!conflictCodes.has((error as { code?: unknown }).code)) {
        throw this.#rows.ioError('append to', error);
      }
      inserted = 0;
    }
    if (inserted !== events.length) {
      throw new SpoolforgeError(
        'E_CONFLICT',
        `Conversation ${this.conversationId}: another writer holds seq ${first} or its events ` +
          'end elsewhere; nothing was appended. Open the conversation again to read on from its end',
      );
    }
  }
}
