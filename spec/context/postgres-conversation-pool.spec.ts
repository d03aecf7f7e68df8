import { join } from 'node:path';
import { ArtifactStore, ConversationPool, SpoolforgeError } from 'spoolforge';
import { PostgresConversationLogBackend } from 'spoolforge/postgres';
import { describe, expect, it } from 'vitest';
import { fetchLogs, nextRequest, scriptedTurn } from '../helpers/pooled-turns.js';
import { usePostgres } from '../helpers/postgres-server.js';
import { tempDirectory } from '../helpers/temp-files.js';

const postgres = usePostgres('postgres-conversation-pool');

async function openPool(options: { maxLive?: number } = {}) {
  const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
  return new ConversationPool({
    store,
    tools: [fetchLogs],
    ...options,
    backend: (conversationId, { signal }) =>
      PostgresConversationLogBackend.open({
        pool: postgres.pool,
        conversationId,
        ...(signal ? { signal } : {}),
      }),
  });
}

describe.skipIf(!postgres.available)('ConversationPool on PostgreSQL', () => {
  it('hibernates a conversation to its rows and revives it with the same next request', async () => {
    await using pool = await openPool();
    for (let turn = 0; turn < 24; turn++) {
      await pool.use('pg-ticket', (conversation) => scriptedTurn(conversation, turn));
      const before = await pool.use('pg-ticket', nextRequest);
      await pool.hibernate('pg-ticket');
      expect(await pool.use('pg-ticket', nextRequest)).toBe(before);
    }
    const { rows } = await postgres.pool.query(
      'SELECT count(*)::int AS events FROM spoolforge_conversation_events WHERE conversation_id = $1',
      ['pg-ticket'],
    );
    expect(await pool.use('pg-ticket', async ({ log }) => log.nextSeq)).toBe(rows[0].events);
  });

  it('revives a conversation another machine went on with, and refuses one whose rows were deleted', async () => {
    await using here = await openPool({ maxLive: 1 });
    await using there = await openPool();
    await here.use('pg-moved', (conversation) => scriptedTurn(conversation, 0));
    await here.use('pg-deleted', (conversation) => scriptedTurn(conversation, 0));
    expect(here.stats).toMatchObject({ live: 1, hibernated: 1 });
    // Another process (its own pool, same database) answers the next message.
    await there.use('pg-moved', (conversation) => scriptedTurn(conversation, 1));
    await there.close();
    expect(await here.use('pg-moved', async ({ log }) => log.history().at(-1)?.content)).toBe(
      'Turn 1: the payment gateway timed out.',
    );
    await postgres.pool.query(
      'DELETE FROM spoolforge_conversation_events WHERE conversation_id = $1',
      ['pg-deleted'],
    );
    await here.hibernate('pg-moved');
    const error = await here.use('pg-deleted', async () => 'revived').catch((reason) => reason);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_LOG_DAMAGED');
    expect(String(error.message)).toContain('Cannot revive conversation pg-deleted');
    expect(await here.use('pg-moved', async ({ log }) => log.nextSeq)).toBe(6);
  });
});
