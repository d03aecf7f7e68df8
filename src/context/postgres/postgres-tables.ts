import type pg from 'pg';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * `name` or `schema.name` quoted for SQL, after checking each part is a lowercase identifier
 * (what PostgreSQL folds an unquoted name to, so psql finds the table by the same name).
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for anything else.
 * @example
 * ```ts
 * quotedTableName('agents.events'); // '"agents"."events"'
 * ```
 */
export function quotedTableName(name: string): string {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((part) => identifier.test(part))) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `table must be name or schema.name, each a lowercase letter or _ then up to 62 lowercase letters, digits or _: ${JSON.stringify(name)}`,
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/** The columns of the event table and of the model-call table. */
export const tableColumns = {
  events: `conversation_id text NOT NULL,
         seq bigint NOT NULL,
         event json NOT NULL,
         PRIMARY KEY (conversation_id, seq)`,
  modelCalls: `conversation_id text NOT NULL,
         call bigint NOT NULL,
         record json NOT NULL,
         PRIMARY KEY (conversation_id, call)`,
};

/**
 * Creates a table (the events', the model calls') and its key unless it exists. `CREATE TABLE IF NOT EXISTS` alone is
 * not safe when two openers race (one fails on the catalog's unique index): a transaction-scoped
 * advisory lock, one for all tables since a table may be named with or without its schema,
 * makes them take turns.
 *
 * @throws SpoolforgeError `E_IO` with the database's error as `cause`.
 * @example
 * ```ts
 * await ensureTable(pool, '"spoolforge_conversation_events"', tableColumns.events);
 * ```
 */
export async function ensureTable(pool: pg.Pool, table: string, columns: string): Promise<void> {
  let client: pg.PoolClient | undefined;
  try {
    const { rows } = await pool.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
      table,
    ]);
    if (rows[0]?.found) return;
    client = await pool.connect();
    await client.query('BEGIN');
    // One key for every table: `events` and `public.events` may be one table under two names.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('spoolforge event table'))");
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (${columns})`);
    await client.query('COMMIT');
  } catch (error) {
    await client?.query('ROLLBACK').catch(() => undefined);
    throw new SpoolforgeError('E_IO', `Cannot create the conversation log table ${table}`, {
      cause: error,
    });
  } finally {
    client?.release();
  }
}
