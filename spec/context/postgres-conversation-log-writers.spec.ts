import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { ConversationLog, type ConversationMessage } from 'spoolforge';
import { PostgresConversationLogBackend } from 'spoolforge/postgres';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../helpers/postgres-server.js';
import { errorCode } from '../store/store-helpers.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const user = (content: string): ConversationMessage => ({ role: 'user', content });

const postgres = usePostgres('postgres-conversation-log-writers');

/**
 * Another machine: a Node process with its own pool that opens the conversation, appends
 * `turns` user messages (and a compaction keeping the last two, when asked), and prints the
 * history it then holds.
 */
async function otherMachine(conversationId: string, turns: string[], compact = false) {
  const script = `
    import { ConversationLog } from ${JSON.stringify(`${dist}index.js`)};
    import { PostgresConversationLogBackend } from ${JSON.stringify(`${dist}context/postgres/index.js`)};
    const [config, conversationId, turns, compact] = JSON.parse(process.argv[1]);
    const backend = await PostgresConversationLogBackend.open({ connection: config, conversationId });
    const log = await ConversationLog.open({ backend, conversationId });
    for (const content of turns) await log.append({ role: 'user', content });
    if (compact) {
      await log.recordCompaction({ retain: '', summary: 'Earlier turns.', keptFrom: log.nextSeq - 2 });
    }
    console.log(JSON.stringify(log.history()));
    await log.close();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    script,
    JSON.stringify([postgres.server.config, conversationId, turns, compact]),
  ]);
  return JSON.parse(stdout) as ConversationMessage[];
}

async function openLog(conversationId: string, connection = postgres.server.config) {
  const backend = await PostgresConversationLogBackend.open({ connection, conversationId });
  return ConversationLog.open({ backend, conversationId });
}

describe.skipIf(!postgres.available)('PostgresConversationLogBackend across writers', () => {
  it('resumes on one machine the conversation another machine wrote, and back', async () => {
    const written = await otherMachine('handover', ['one', 'two', 'three', 'four'], true);
    const here = await openLog('handover');
    expect(here.history()).toEqual(written);
    expect(here.history().map((message) => message.content)).toEqual([
      expect.stringContaining('Earlier turns.'),
      'three',
      'four',
    ]);
    await here.append(user('five'));
    const expected = here.history();
    await here.close();
    const there = await otherMachine('handover', []);
    expect(there).toEqual(expected);
  });

  it('lets one of two concurrent writers win; the other gets E_CONFLICT and records nothing', async () => {
    for (let round = 0; round < 10; round++) {
      const conversationId = `race-${round}`;
      const [a, b] = await Promise.all([openLog(conversationId), openLog(conversationId)]);
      if (!a || !b) throw new Error('unreachable');
      const batch = (who: string) =>
        Array.from({ length: 3 }, (_, index) => user(`${who}${index}`));
      const results = await Promise.allSettled([a.append(...batch('a')), b.append(...batch('b'))]);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const loserIndex = results.findIndex((result) => result.status === 'rejected');
      const loser = loserIndex === 0 ? a : b;
      const winner = loserIndex === 0 ? b : a;
      const rejected = results[loserIndex] as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: 'E_CONFLICT' });
      // The loser's log is as it was; its retry still conflicts (it has not read the winner's).
      expect(loser.events).toEqual([]);
      expect(loser.nextSeq).toBe(0);
      expect(await errorCode(loser.append(user('retry')))).toBe('E_CONFLICT');
      expect(
        await errorCode(loser.recordCompaction({ retain: '', summary: 's', keptFrom: 0 })),
      ).toBe('E_CONFLICT');

      const stored = await openLog(conversationId);
      expect(stored.history()).toEqual(winner.history());
      expect(stored.events.map((event) => event.seq)).toEqual([0, 1, 2]);
      // Reopened, the loser appends after the winner's events.
      await stored.append(user('after'));
      const reopened = await openLog(conversationId);
      expect(reopened.events.map((event) => event.seq)).toEqual([0, 1, 2, 3]);
      await Promise.all([a.close(), b.close(), stored.close(), reopened.close()]);
    }
  });

  it('reports a lost race as E_CONFLICT under serializable isolation too', async () => {
    // Such a server reports the loser's duplicate key as a serialization failure.
    const serializable = {
      ...postgres.server.config,
      options: '-c default_transaction_isolation=serializable',
    };
    for (let round = 0; round < 10; round++) {
      const conversationId = `serializable-${round}`;
      const [a, b] = await Promise.all([
        openLog(conversationId, serializable),
        openLog(conversationId, serializable),
      ]);
      if (!a || !b) throw new Error('unreachable');
      const results = await Promise.allSettled([a.append(user('a')), b.append(user('b'))]);
      const [rejected] = results.filter((result) => result.status === 'rejected');
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect((rejected as PromiseRejectedResult).reason).toMatchObject({ code: 'E_CONFLICT' });
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("keeps a log's concurrent appends from landing after another writer's events", async () => {
    const [a, b] = await Promise.all([openLog('interleave'), openLog('interleave')]);
    if (!a || !b) throw new Error('unreachable');
    await b.append(user('b0'));
    // Both of a's appends were numbered from its stale end: the first conflicts, and the second
    // must not then fit right after b's event.
    const results = await Promise.allSettled([a.append(user('a0')), a.append(user('a1'))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'E_CONFLICT' });
    }
    expect(a.events).toEqual([]);
    expect(a.nextSeq).toBe(0);
    const stored = await openLog('interleave');
    expect(stored.history()).toEqual([user('b0')]);
    // Reopened, a appends after b's event.
    await stored.append(user('a0'));
    expect(stored.events.map((event) => event.seq)).toEqual([0, 1]);
    await Promise.all([a.close(), b.close(), stored.close()]);
  });

  it('refuses an append that would leave a gap or skip the stored end', async () => {
    const backend = await PostgresConversationLogBackend.open({
      pool: postgres.pool,
      conversationId: 'gaps',
    });
    const event = (seq: number) => ({
      type: 'message' as const,
      seq,
      time: 0,
      message: user(`${seq}`),
    });
    expect(await errorCode(backend.append([event(1)]))).toBe('E_CONFLICT');
    await backend.append([event(0), event(1)]);
    expect(await errorCode(backend.append([event(3)]))).toBe('E_CONFLICT');
    expect(await errorCode(backend.append([event(1)]))).toBe('E_CONFLICT');
    expect(await errorCode(backend.append([event(2), event(4)]))).toBe('E_INVALID_ARGUMENT');
    await backend.append([event(2)]);
    const seqs: number[] = [];
    for await (const { event } of backend.readBackward()) seqs.push(event.seq);
    expect(seqs).toEqual([2, 1, 0]);
  });

  it('creates the table once when many openers use it first at the same time', async () => {
    const pools = Array.from({ length: 8 }, () => new pg.Pool(postgres.server.config));
    try {
      const backends = await Promise.all(
        pools.map((each, index) =>
          PostgresConversationLogBackend.open({
            pool: each,
            conversationId: `first-${index}`,
            // One table, named two ways: both must take the same turn to create it.
            table: index % 2 === 0 ? 'raced_events' : 'public.raced_events',
          }),
        ),
      );
      const logs = await Promise.all(
        backends.map((backend) =>
          ConversationLog.open({ backend, conversationId: backend.conversationId }),
        ),
      );
      await Promise.all(logs.map((log) => log.append(user(log.conversationId))));
      const { rows } = await postgres.pool.query('SELECT count(*)::int AS n FROM raced_events');
      expect(rows).toEqual([{ n: 8 }]);
    } finally {
      await Promise.all(pools.map((each) => each.end()));
    }
  });
});
