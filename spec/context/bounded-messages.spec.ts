import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ConversationLog,
  type ConversationMessage,
  compact,
  compactLog,
  projectContext,
  type Summariser,
  ToolSession,
  toolOutputCacheTools,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store-helpers.js';

const mebibyte = 1024 * 1024;

/** A paste of `bytes` bytes: numbered lines, and a needle on its last line. */
function paste(bytes: number): string {
  const line = (index: number) => `pasted line ${index} ${'p'.repeat(60)}`;
  const count = Math.floor(bytes / (line(0).length + 4));
  const lines = Array.from({ length: count }, (_, index) => line(index + 1));
  lines.push('NEEDLE: the deploy id is d-4812');
  return lines.join('\n');
}

const bytesOf = (messages: readonly ConversationMessage[]) =>
  messages.reduce((sum, message) => sum + Buffer.byteLength(message.content), 0);

function recordingSummariser(requests: ConversationMessage[][]): Summariser {
  return async (messages) => {
    requests.push(messages);
    return '<retain>d-4812</retain><summary>The user pasted a deploy log.</summary>';
  };
}

describe('user and assistant messages are bounded like tool outputs', () => {
  it('spools a 50 MiB paste into the store, records a bounded message, and reads it back by ref', async () => {
    const store = await openStore();
    const log = await ConversationLog.open({ store, conversationId: 'paste' });
    const text = paste(50 * mebibyte);
    await log.append({ role: 'user', content: text }, { role: 'assistant', content: text });
    // The log records a bounded message with the full text's store id, never the 50 MiB.
    const path = join(store.directory, 'conversations', 'paste.jsonl');
    expect((await stat(path)).size).toBeLessThan(120 * 1024);
    const [user, assistant] = log.events.map((event) => event.message) as [
      ConversationMessage & { ref?: string },
      ConversationMessage & { ref?: string },
    ];
    expect(Buffer.byteLength(user.content)).toBeLessThanOrEqual(50 * 1024);
    expect(Buffer.byteLength(assistant.content)).toBeLessThanOrEqual(50 * 1024);
    expect(user.ref).toMatch(/^[\w-]+$/);
    expect(await (await store.get(user.ref ?? '')).byteLength()).toBe(Buffer.byteLength(text));

    const projection = await projectContext(log.history(), {
      contextBudgetTokens: 60_000,
      encoding: 'o200k_base',
    });
    // Two 50 KiB messages of a token-dense text (a token every 2.2 bytes), and the framing.
    expect(projection.tokens).toBeLessThan(50_000);
    expect(projection.overBudget).toBe(false);

    // The placeholder names the call that reads on, and the cache tools read the whole paste.
    const shown = user.content.split('\n');
    const note = /read on with tool_output_cache (\{.*\})\]$/.exec(shown.at(-1) ?? '');
    expect(JSON.parse(note?.[1] ?? '{}')).toEqual({ ref: user.ref, start: shown.length });
    await using session = new ToolSession({ tools: toolOutputCacheTools(log) });
    const dispatch = session.dispatch();
    dispatch.ack();
    const [next, needle] = await session.run(
      [
        {
          id: 'a',
          name: 'tool_output_cache',
          arguments: { ...JSON.parse(note?.[1] ?? '{}'), end: shown.length },
        },
        {
          id: 'b',
          name: 'tool_output_cache_grep',
          arguments: { ref: user.ref, pattern: 'NEEDLE' },
        },
      ],
      dispatch,
    );
    expect(next?.content[0]).toMatchObject({
      text: expect.stringContaining(`\n${shown.length}:pasted line ${shown.length} `),
    });
    expect(needle?.content[0]).toMatchObject({
      text: expect.stringContaining(':NEEDLE: the deploy id is d-4812'),
    });

    // Compaction sends the summariser the bounded messages, not 100 MiB.
    const requests: ConversationMessage[][] = [];
    await log.append({ role: 'user', content: 'What is the deploy id?' });
    await compactLog(log, {
      summarise: recordingSummariser(requests),
      contextBudgetTokens: 60_000,
    });
    expect(requests).toHaveLength(1);
    expect(bytesOf(requests[0] ?? [])).toBeLessThan(120 * 1024);
    await log.close();
  });

  it('cuts a huge message of a plain history in the projection and in the summariser request', async () => {
    const text = paste(8 * mebibyte);
    const history: ConversationMessage[] = [
      { role: 'user', content: text },
      { role: 'assistant', content: 'That is a long log.' },
      { role: 'user', content: 'Summarise it.' },
    ];
    const projection = await projectContext(history, { contextBudgetTokens: 60_000 });
    const [shown] = projection.messages;
    expect(Buffer.byteLength(shown?.content ?? '')).toBeLessThanOrEqual(50 * 1024);
    // Without a store there is nothing to read on from: the note says the rest is not stored.
    expect(shown?.content).toMatch(
      /\n\[message cut at 50\.0 KiB of [\d.]+ MiB \(\d+ lines\): lines 1–\d+ shown; the rest is not stored\]$/,
    );
    expect(projection.messages.slice(1)).toEqual(history.slice(1));

    const requests: ConversationMessage[][] = [];
    await compact(history, { summarise: recordingSummariser(requests) });
    expect(bytesOf(requests[0] ?? [])).toBeLessThan(60 * 1024);
  });
});
