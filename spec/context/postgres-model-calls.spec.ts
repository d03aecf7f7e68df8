import { ConversationLog } from 'spoolforge';
import { PostgresConversationLogBackend } from 'spoolforge/postgres';
import { describe, expect, it } from 'vitest';
import { readBack, recordTurns } from '../helpers/model-call-turns.js';
import { usePostgres } from '../helpers/postgres-server.js';
import { errorCode } from '../store/store-helpers.js';

const postgres = usePostgres('postgres-model-calls');

async function openLog(conversationId: string, pageSize = 4) {
  const backend = await PostgresConversationLogBackend.open({
    pool: postgres.pool,
    conversationId,
    pageSize,
  });
  return ConversationLog.open({ backend });
}

describe.skipIf(!postgres.available)('model calls in PostgreSQL', () => {
  it('reads every call back on another connection, past several pages, with values stored once per opening', async () => {
    const writer = await openLog('calls');
    const sent = await recordTurns(writer, 7);
    await writer.close();
    const reader = await openLog('calls');
    sent.push(...(await recordTurns(reader, 3)));
    expect(await readBack(reader, sent.length)).toEqual(sent);
    expect((await reader.modelCalls.get(9))?.usage).toEqual({
      inputTokens: 102,
      outputTokens: 7,
      totalTokens: 109,
    });
    const { rows } = await postgres.pool.query<{ calls: string; stored: string }>(
      `SELECT count(*) AS calls, count(*) FILTER (WHERE record::text LIKE '%"values"%') AS stored
         FROM spoolforge_model_calls WHERE conversation_id = 'calls'`,
    );
    expect(rows[0]).toEqual({ calls: '10', stored: '2' });
    await reader.close();
  });

  it('gives a second writer of a call number E_CONFLICT and records nothing of it', async () => {
    const first = await openLog('two-writers');
    const second = await openLog('two-writers');
    await recordTurns(first, 1);
    const backend = second.backend as PostgresConversationLogBackend;
    const reading = backend.readModelCalls()[Symbol.asyncIterator]();
    const stored = (await reading.next()).value;
    await reading.return?.();
    if (!stored) throw new Error('no call recorded');
    expect(await errorCode(backend.appendModelCall({ ...stored, model: 'other' }))).toBe(
      'E_CONFLICT',
    );
    expect((await second.modelCalls.get(0))?.model).toBe('build-model');
    await Promise.all([first.close(), second.close()]);
  });
});
