import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConversationLog, MemoryConversationLogBackend } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { errorCode, openStore } from '../store/store-helpers.js';

describe('ConversationLog.open with a signal that already fired', () => {
  it('rejects a new log with E_ABORTED and creates nothing', async () => {
    const store = await openStore();
    const signal = AbortSignal.abort();
    expect(await errorCode(ConversationLog.open({ store, conversationId: 'new', signal }))).toBe(
      'E_ABORTED',
    );
    const conversations = join(store.directory, 'conversations');
    const created = await readdir(conversations).catch(() => []);
    expect(created).toEqual([]);
  });

  it('rejects an empty log with E_ABORTED and leaves it as it was', async () => {
    const store = await openStore();
    const first = await ConversationLog.open({ store, conversationId: 'empty' });
    await first.close();
    const path = join(store.directory, 'conversations', 'empty.jsonl');
    expect((await stat(path)).size).toBe(0);
    const signal = AbortSignal.abort();
    expect(await errorCode(ConversationLog.open({ store, conversationId: 'empty', signal }))).toBe(
      'E_ABORTED',
    );
    expect((await stat(path)).size).toBe(0);
    const reopened = await ConversationLog.open({ store, conversationId: 'empty' });
    expect([reopened.history(), reopened.nextSeq]).toEqual([[], 0]);
    await reopened.close();
  });

  it('rejects an empty backend of the caller’s with E_ABORTED, and it stays usable', async () => {
    const backend = new MemoryConversationLogBackend();
    const signal = AbortSignal.abort();
    expect(await errorCode(ConversationLog.open({ backend, signal }))).toBe('E_ABORTED');
    const log = await ConversationLog.open({ backend });
    await log.append({ role: 'user', content: 'hi' });
    expect(log.nextSeq).toBe(1);
  });

  it('rejects a log with events too (as it did)', async () => {
    const store = await openStore();
    const path = join(store.directory, 'conversations', 'full.jsonl');
    const seeded = await ConversationLog.open({ store, conversationId: 'full' });
    await seeded.append({ role: 'user', content: 'hi' });
    await seeded.close();
    const signal = AbortSignal.abort();
    expect(await errorCode(ConversationLog.open({ store, conversationId: 'full', signal }))).toBe(
      'E_ABORTED',
    );
    expect((await stat(path)).size).toBeGreaterThan(0);
    const reopened = await ConversationLog.open({ store, conversationId: 'full' });
    expect(reopened.nextSeq).toBe(1);
    await reopened.close();
  });
});
