import type pg from 'pg';
import { ConversationLog, type ConversationMessage, projectContext } from 'spoolforge';
import { PostgresConversationLogBackend } from 'spoolforge/postgres';
import { describe, expect, it } from 'vitest';
import { countingPool, usePostgres } from '../helpers/postgres-server.js';
import { errorCode } from '../store/store-helpers.js';

const user = (content: string): ConversationMessage => ({ role: 'user', content });
const assistant = (content: string): ConversationMessage => ({ role: 'assistant', content });

const postgres = usePostgres('postgres-conversation-log');

async function openLog(
  conversationId: string,
  options: { pool?: pg.Pool; pageSize?: number } = {},
) {
  const backend = await PostgresConversationLogBackend.open({
    pool: options.pool ?? postgres.pool,
    conversationId,
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
  });
  return ConversationLog.open({ backend, conversationId });
}

describe.skipIf(!postgres.available)('PostgresConversationLogBackend', () => {
  it('round-trips turns and a compaction through ConversationLog, and a reopened log resumes', async () => {
    const writer = await openLog('round-trip');
    await writer.append(user('Why did the build fail?'));
    await writer.append(
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'grep', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'grep', content: 'ERROR disk full', ref: 'r1' },
    );
    await writer.append(assistant('The disk was full.'));
    await writer.recordCompaction({ retain: 'disk', summary: 'The disk filled up.', keptFrom: 3 });
    await writer.append(user('And now?'), assistant('Fixed: 40 GiB free.'));

    const reader = await openLog('round-trip');
    expect(reader.history()).toEqual(writer.history());
    expect(reader.history()[0]?.content).toContain('The disk filled up.');
    expect(reader.events.map((event) => event.seq)).toEqual([3, 5, 6]);
    expect(reader.nextSeq).toBe(7);
    expect(await projectContext(reader.history(), { contextWindow: 10_000 })).toEqual(
      await projectContext(writer.history(), { contextWindow: 10_000 }),
    );
    // Scrollback reaches the events before the compaction too.
    const page = await reader.page({ limit: 10 });
    expect(page.events.map((event) => event.seq)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    await reader.append(user('Thanks'));
    expect((await openLog('round-trip')).events.map((event) => event.seq)).toEqual([3, 5, 6, 7]);
  });

  it('closes after the appends already asked for, all of them stored', async () => {
    const backend = await PostgresConversationLogBackend.open({
      connection: postgres.server.config,
      conversationId: 'close-after',
    });
    const log = await ConversationLog.open({ backend });
    const appends = ['one', 'two', 'three'].map((content) => log.append(user(content)));
    await log.close();
    expect((await Promise.all(appends)).flat().map((event) => event.seq)).toEqual([0, 1, 2]);
    const reopened = await openLog('close-after');
    expect(reopened.history()).toEqual([user('one'), user('two'), user('three')]);
  });

  it("opens the backend's conversation, and refuses another id", async () => {
    const backend = await PostgresConversationLogBackend.open({
      pool: postgres.pool,
      conversationId: 'named',
    });
    const log = await ConversationLog.open({ backend });
    expect(log.conversationId).toBe('named');
    await log.append(user('hi'));
    expect((await openLog('named')).history()).toEqual([user('hi')]);
    expect(await errorCode(ConversationLog.open({ backend, conversationId: 'other' }))).toBe(
      'E_INVALID_ARGUMENT',
    );
  });

  it('stores each event as the JSON text the JSONL log would hold: NUL, emoji, key order', async () => {
    const log = await openLog('fidelity');
    const content = 'a\u0000b 😀 "quoted" \\ \u2028';
    await log.append({ role: 'tool', toolCallId: 'c', toolName: 't', content, isError: true });
    const { rows } = await postgres.pool.query(
      `SELECT event::text AS text FROM spoolforge_conversation_events WHERE conversation_id = 'fidelity'`,
    );
    expect(rows.map((row) => row.text)).toEqual([JSON.stringify(log.events[0])]);
    expect((await openLog('fidelity')).events[0]?.message.content).toBe(content);
  });

  it('resumes a long conversation reading only the working set: two pages of 16 events', async () => {
    const writer = await openLog('long', { pageSize: 16 });
    for (let batch = 0; batch < 10; batch++) {
      await writer.append(
        ...Array.from({ length: 100 }, (_, index) => user(`turn ${batch * 100 + index}`)),
      );
    }
    await writer.recordCompaction({ retain: '', summary: 'A thousand turns.', keptFrom: 990 });
    await writer.append(...Array.from({ length: 5 }, (_, index) => assistant(`late ${index}`)));

    const { pool: counted, reads } = countingPool(postgres.server.config);
    try {
      const reader = await openLog('long', { pool: counted, pageSize: 16 });
      expect(reader.history()).toEqual(writer.history());
      expect(reader.events).toHaveLength(15);
      // Seq 1005 down to 990 fill the first page; the second's first row (989) ends the read.
      expect(reads).toEqual({ pages: 2, rows: 32 });
    } finally {
      await counted.end();
    }
  });

  it('stops a read between pages when the signal fires', async () => {
    const writer = await openLog('abort');
    await writer.append(...Array.from({ length: 10 }, (_, index) => user(`m${index}`)));
    const { pool: counted, reads } = countingPool(postgres.server.config);
    try {
      const backend = await PostgresConversationLogBackend.open({
        pool: counted,
        conversationId: 'abort',
        pageSize: 2,
      });
      const controller = new AbortController();
      const seen: number[] = [];
      const read = (async () => {
        for await (const { event } of backend.readBackward({ signal: controller.signal })) {
          seen.push(event.seq);
          if (seen.length === 3) controller.abort();
        }
      })();
      expect(await errorCode(read)).toBe('E_ABORTED');
      // The page in hand (7, 6) is finished; the next page is never fetched.
      expect(seen).toEqual([9, 8, 7, 6]);
      expect(reads.pages).toBe(2);
      const aborted = AbortSignal.abort();
      expect(await errorCode(ConversationLog.open({ backend, signal: aborted }))).toBe('E_ABORTED');
      expect(
        await errorCode(
          PostgresConversationLogBackend.open({
            pool: postgres.pool,
            conversationId: 'abort',
            signal: aborted,
          }),
        ),
      ).toBe('E_ABORTED');
    } finally {
      await counted.end();
    }
  });

  it('rejects a table name that is not a plain identifier, and other bad options', async () => {
    for (const table of ['Events', 'events; DROP TABLE x', 'a.b.c', '1events', '"events"', '']) {
      expect(
        await errorCode(
          PostgresConversationLogBackend.open({ pool: postgres.pool, conversationId: 'c', table }),
        ),
      ).toBe('E_INVALID_ARGUMENT');
    }
    for (const bad of [
      { pool: postgres.pool, conversationId: 'has space' },
      { pool: postgres.pool, conversationId: 'c', pageSize: 0 },
      { conversationId: 'c' },
      { pool: postgres.pool, connection: postgres.server.config, conversationId: 'c' },
    ]) {
      expect(await errorCode(PostgresConversationLogBackend.open(bad))).toBe('E_INVALID_ARGUMENT');
    }
    const backend = await PostgresConversationLogBackend.open({
      pool: postgres.pool,
      conversationId: 'c',
    });
    // Only a cursor as readBackward gives it: an empty one (a UI's "no cursor") read nothing.
    for (const cursor of [
      'x',
      '',
      ' 1',
      '1e0',
      '0x1',
      '01',
      '-0',
      '-1',
      '1.0',
      '9007199254740993',
    ]) {
      expect(await errorCode(backend.readBackward({ cursor })[Symbol.asyncIterator]().next())).toBe(
        'E_INVALID_ARGUMENT',
      );
    }
  });

  it('uses a table in a schema, and ends only the pool it made on close', async () => {
    await postgres.pool.query('CREATE SCHEMA IF NOT EXISTS agents');
    const connection = { ...postgres.server.config, application_name: 'spoolforge-owned' };
    const owned = await PostgresConversationLogBackend.open({
      connection,
      conversationId: 'owned',
      table: 'agents.events',
    });
    const log = await ConversationLog.open({ backend: owned, conversationId: 'owned' });
    await log.append(user('hello'));
    const connections = async () =>
      Number(
        (
          await postgres.pool.query(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'spoolforge-owned'`,
          )
        ).rows[0].n,
      );
    expect(await connections()).toBeGreaterThan(0);
    await log.close();
    // The server notices a closed connection a moment after the client closed it.
    for (let tries = 0; tries < 50 && (await connections()) > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await connections()).toBe(0);
    expect(await errorCode(owned.append([]))).toBe('E_IO');

    const borrowed = await PostgresConversationLogBackend.open({
      pool: postgres.pool,
      conversationId: 'owned',
    });
    await borrowed.close();
    expect((await postgres.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    const { rows } = await postgres.pool.query('SELECT count(*)::int AS n FROM agents.events');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('survives the server dropping the idle connections of the pool it made', async () => {
    const connection = { ...postgres.server.config, application_name: 'spoolforge-dropped' };
    const backend = await PostgresConversationLogBackend.open({
      connection,
      conversationId: 'dropped',
    });
    const log = await ConversationLog.open({ backend, conversationId: 'dropped' });
    await log.append(user('before'));
    const { rows } = await postgres.pool.query(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE application_name = 'spoolforge-dropped'`,
    );
    expect(rows[0].n).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await log.append(user('after'));
    expect((await openLog('dropped')).events.map((event) => event.message.content)).toEqual([
      'before',
      'after',
    ]);
    await log.close();
  });

  it('fails an unreachable database with E_IO', async () => {
    const connection = { ...postgres.server.config, host: `${postgres.server.host}/missing` };
    const error = await PostgresConversationLogBackend.open({
      connection,
      conversationId: 'c',
    }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'E_IO' });
  });
});
