import { appendFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ConversationEvent,
  ConversationLog,
  type ConversationLogBackend,
  type ConversationMessage,
  JsonlConversationLogBackend,
  MemoryConversationLogBackend,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';
import { errorCode, openStore } from '../store/store-helpers.js';

const user = (content: string): ConversationMessage => ({ role: 'user', content });

/** Messages of sizes that put event lines across 64 KiB block boundaries, some longer than one. */
function variedMessages(count: number): ConversationMessage[] {
  return Array.from({ length: count }, (_, index) =>
    user(`${index} ${'é'.repeat((index * 7_919) % (index % 13 === 0 ? 150_000 : 3_000))}`),
  );
}

async function readAll(backend: ConversationLogBackend, cursor?: string) {
  const events: ConversationEvent[] = [];
  for await (const { event } of backend.readBackward(cursor === undefined ? {} : { cursor })) {
    events.push(event);
  }
  return events;
}

/** A backend that counts the events a reader pulled. */
class CountingBackend extends MemoryConversationLogBackend {
  read = 0;
  override async *readBackward(options: { cursor?: string } = {}) {
    for await (const logged of super.readBackward(options)) {
      this.read++;
      yield logged;
    }
  }
}

describe('JsonlConversationLogBackend', () => {
  it('reads back every event newest first, across block boundaries and lines longer than a block', async () => {
    const path = join(await tempDirectory(), 'log.jsonl');
    const backend = await JsonlConversationLogBackend.open(path);
    const messages = variedMessages(120);
    const events = messages.map((message, seq) => ({
      type: 'message' as const,
      seq,
      time: seq,
      message,
    }));
    for (let start = 0; start < events.length; start += 17) {
      await backend.append(events.slice(start, start + 17));
    }
    expect((await stat(path)).size).toBeGreaterThan(1_000_000);
    expect(await readAll(backend)).toEqual([...events].reverse());
    await backend.close();
    const reopened = await JsonlConversationLogBackend.open(path);
    expect(await readAll(reopened)).toEqual([...events].reverse());
    // A cursor continues right before the event it came with.
    const iterator = reopened.readBackward()[Symbol.asyncIterator]();
    let cursor = '';
    for (let step = 0; step < 30; step++) cursor = (await iterator.next()).value.cursor;
    await iterator.return?.();
    expect(await readAll(reopened, cursor)).toEqual(events.slice(0, 90).reverse());
    await reopened.close();
  });

  it('drops a line torn by a crash mid-append, and reports a damaged line', async () => {
    const path = join(await tempDirectory(), 'log.jsonl');
    const backend = await JsonlConversationLogBackend.open(path);
    const first = { type: 'message' as const, seq: 0, time: 1, message: user('kept') };
    await backend.append([first]);
    await backend.close();
    await appendFile(path, '{"type":"message","seq":1,"ti');
    const reopened = await JsonlConversationLogBackend.open(path);
    expect(await readAll(reopened)).toEqual([first]);
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(first)}\n`);
    await reopened.close();

    await writeFile(path, `not json\n${JSON.stringify(first)}\n`);
    const damaged = await JsonlConversationLogBackend.open(path);
    expect(await errorCode(readAll(damaged))).toBe('E_LOG_DAMAGED');
    expect(await errorCode(readAll(damaged, 'x'))).toBe('E_INVALID_ARGUMENT');
    await damaged.close();
  });
});

describe('ConversationLog', () => {
  it('keeps the log in the store directory and rebuilds the working set after a restart', async () => {
    const store = await openStore();
    const log = await ConversationLog.open({ store, conversationId: 'ticket-4812' });
    await log.append(...variedMessages(40));
    expect(log.events.map((event) => event.seq)).toEqual([...Array(40).keys()]);
    await log.recordCompaction({ retain: 'build 4812', summary: 'forty messages', keptFrom: 35 });
    await log.append(user('after'));
    expect(log.history().length).toBe(1 + 5 + 1);
    await log.close();

    const path = join(store.directory, 'conversations', 'ticket-4812.jsonl');
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(42);
    const reopened = await ConversationLog.open({ store, conversationId: 'ticket-4812' });
    expect(reopened.compaction).toEqual({
      retain: 'build 4812',
      summary: 'forty messages',
      keptFrom: 35,
    });
    expect(reopened.history()).toEqual(log.history());
    expect(reopened.history()[0]?.content).toContain('<summary>\nforty messages\n</summary>');
    expect(reopened.nextSeq).toBe(42);
    await reopened.close();
  });

  it('reads back only to the latest compaction’s kept events, not the whole log', async () => {
    const backend = new CountingBackend();
    const log = await ConversationLog.open({ backend });
    await log.append(...Array.from({ length: 1_000 }, (_, index) => user(`m${index}`)));
    await log.recordCompaction({ retain: '', summary: 's1', keptFrom: 900 });
    await log.append(...Array.from({ length: 500 }, (_, index) => user(`n${index}`)));
    await log.recordCompaction({ retain: '', summary: 's2', keptFrom: 1_400 });
    await log.append(user('last'));
    const reopened = await ConversationLog.open({ backend });
    // The newest event, the compaction, the 101 kept messages, and the one that proves the end.
    expect(backend.read).toBeLessThanOrEqual(105);
    expect(reopened.history()).toEqual(log.history());
    expect(reopened.events[0]?.seq).toBe(1_400);
  });

  it.each([
    ['memory', async () => new MemoryConversationLogBackend()],
    [
      'JSONL',
      async () => JsonlConversationLogBackend.open(join(await tempDirectory(), 'log.jsonl')),
    ],
  ])('pages back through everything, compacted or not (%s)', async (_, backend) => {
    const log = await ConversationLog.open({ backend: await backend() });
    await log.append(...Array.from({ length: 23 }, (_, index) => user(`m${index}`)));
    await log.recordCompaction({ retain: '', summary: 's', keptFrom: 20 });
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await log.page({ limit: 5, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.events.length).toBeLessThanOrEqual(5);
      seen.push(...page.events.map((event) => event.seq));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(seen).toEqual([...Array(24).keys()].reverse());
    // A page that ends exactly at the start has no page before it.
    expect((await log.page({ limit: 24 })).cursor).toBeUndefined();
    expect((await log.page({ limit: 23 })).cursor).toBeDefined();
    expect(await errorCode(log.page({ cursor: 'nope' }))).toBe('E_INVALID_ARGUMENT');
    expect(await errorCode(log.page({ limit: 0 }))).toBe('E_INVALID_ARGUMENT');
    await log.close();
    if (log.backend instanceof JsonlConversationLogBackend) {
      expect(await errorCode(log.append(user('late')))).toBe('E_IO');
    }
  });

  it('refuses a conversation id that is not a plain name, and a log with nowhere to go', async () => {
    const store = await openStore();
    expect(await errorCode(ConversationLog.open({ store, conversationId: '../x' }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    expect(await errorCode(ConversationLog.open({}))).toBe('E_INVALID_ARGUMENT');
  });

  it('closes its file on every failed open: a damaged log, an aborted read', async () => {
    const store = await openStore();
    const path = join(store.directory, 'conversations', 'damaged.jsonl');
    const seeded = await ConversationLog.open({ store, conversationId: 'damaged' });
    await seeded.append(user('fine'));
    await seeded.close();
    await writeFile(path, `not json\n${await readFile(path, 'utf8')}`);
    const aborted = await ConversationLog.open({ store, conversationId: 'aborted' });
    await aborted.append(user('fine'));
    await aborted.close();
    const openFiles = async () => (await readdir('/proc/self/fd')).length;
    const before = await openFiles();
    for (let attempt = 0; attempt < 50; attempt++) {
      expect(await errorCode(ConversationLog.open({ store, conversationId: 'damaged' }))).toBe(
        'E_LOG_DAMAGED',
      );
      const signal = AbortSignal.abort();
      expect(
        await errorCode(ConversationLog.open({ store, conversationId: 'aborted', signal })),
      ).toBe('E_ABORTED');
    }
    expect(await openFiles()).toBe(before);
  });

  it('reports a log it cannot create as a SpoolforgeError E_IO, keeping the cause', async () => {
    const store = await openStore();
    // The conversations directory is a file: mkdir fails with EEXIST.
    await writeFile(join(store.directory, 'conversations'), 'not a directory');
    const error = await ConversationLog.open({ store, conversationId: 'c1' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'E_IO', cause: { code: 'EEXIST' } });
    const readOnly = await openStore();
    await mkdir(join(readOnly.directory, 'conversations'), { mode: 0o500 });
    if (process.getuid?.() !== 0) {
      const denied = await ConversationLog.open({ store: readOnly, conversationId: 'c1' }).catch(
        (caught: unknown) => caught,
      );
      expect(denied).toMatchObject({ code: 'E_IO', cause: { code: 'EACCES' } });
    }
  });
});
