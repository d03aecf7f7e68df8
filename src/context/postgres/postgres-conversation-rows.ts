import type pg from 'pg';
import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';

/**
 * What a lost race for a key fails with: a duplicate key, or under serializable isolation a
 * serialization failure (the winner's row is not in the loser's snapshot). Both roll back.
 */
export const conflictCodes = new Set<unknown>(['23505', '40001']);

/** Which rows {@link PostgresConversationRows.backward} reads. */
export interface BackwardRows {
  /** The table, quoted for SQL. */
  table: string;
  /** The bigint key after the conversation: `seq`, `call`. */
  key: string;
  /** The json column. */
  column: string;
  /** Only keys below this. Default: from the last. */
  before?: number | undefined;
  /** What the read does, for its `E_IO` message: "read the model calls of". */
  what: string;
  signal?: AbortSignal | undefined;
}

/**
 * One conversation's rows in a PostgreSQL pool, as its log's tables share them: queries that
 * fail as `E_IO` naming the conversation, rows that are not JSON as `E_LOG_DAMAGED`, pages read
 * newest first, and nothing once closed.
 *
 * @example
 * ```ts
 * const rows = new PostgresConversationRows({ pool, conversationId: 'ticket-4812', table: '"events"', pageSize: 256 });
 * for await (const row of rows.backward({ table: '"events"', key: 'seq', column: 'event', what: 'read' }))
 *   console.log(row.key, rows.parse(row.json, `seq ${row.key}`));
 * ```
 */
export class PostgresConversationRows {
  readonly pool: pg.Pool;
  readonly conversationId: string;
  /** The events' table, quoted: the log every error names. */
  readonly table: string;
  readonly pageSize: number;
  #closed = false;

  constructor(init: { pool: pg.Pool; conversationId: string; table: string; pageSize: number }) {
    this.pool = init.pool;
    this.conversationId = init.conversationId;
    this.table = init.table;
    this.pageSize = init.pageSize;
  }

  /** From now on every read and write fails with `E_IO`. */
  close(): void {
    this.#closed = true;
  }

  /** Rows of this conversation, newest first, `pageSize` per query: the key as text, the JSON. */
  async *backward(rows: BackwardRows): AsyncIterable<{ key: string; json: string }> {
    let before = rows.before;
    for (;;) {
      throwIfAborted(rows.signal);
      this.throwIfClosed();
      const { rows: page } = await this.query<{ key: string; json: string }>(
        `SELECT ${rows.key} AS key, ${rows.column}::text AS json FROM ${rows.table}
          WHERE conversation_id = $1 AND ($2::bigint IS NULL OR ${rows.key} < $2)
          ORDER BY ${rows.key} DESC LIMIT $3`,
        [this.conversationId, before ?? null, this.pageSize],
        rows.what,
      );
      yield* page;
      const last = page.at(-1);
      if (page.length < this.pageSize || last === undefined) return;
      before = Number(last.key);
    }
  }

  async query<Row extends pg.QueryResultRow>(text: string, values: unknown[], what: string) {
    try {
      return await this.pool.query<Row>(text, values);
    } catch (error) {
      throw this.ioError(what, error);
    }
  }

  ioError(what: string, error: unknown): SpoolforgeError {
    return new SpoolforgeError(
      'E_IO',
      `Cannot ${what} the conversation log ${this.conversationId} in ${this.table}`,
      { cause: error },
    );
  }

  throwIfClosed(): void {
    if (this.#closed) {
      throw new SpoolforgeError('E_IO', `Conversation ${this.conversationId}: the log is closed`);
    }
  }

  parse<Row>(text: string, where: string): Row {
    try {
      return JSON.parse(text) as Row;
    } catch (error) {
      throw new SpoolforgeError(
        'E_LOG_DAMAGED',
        `Conversation ${this.conversationId}: the row at ${where} is not JSON`,
        { cause: error },
      );
    }
  }
}
