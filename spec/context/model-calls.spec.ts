import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ArtifactStore,
  ConversationLog,
  type ConversationLogBackend,
  MemoryConversationLogBackend,
  projectContext,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { instructions, plainFormat, readBack, recordTurns } from '../helpers/model-call-turns.js';
import { tempDirectory } from '../helpers/temp-files.js';
import { errorCode } from '../store/store-helpers.js';

describe('ConversationLog.modelCalls', () => {
  it('reads every call back from a JSONL log, across a restart, with large values stored once per opening', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const first = await ConversationLog.open({ store, conversationId: 'builds' });
    const sent = await recordTurns(first, 6);
    await first.close();
    const log = await ConversationLog.open({ store, conversationId: 'builds' });
    sent.push(...(await recordTurns(log, 6)));
    // Placeholder-shaped objects of the request itself, -0 and 1e21 come back as they were.
    expect(await readBack(log, sent.length)).toEqual(sent);

    const file = await readFile(
      join(store.directory, 'conversations', 'builds.model-calls.jsonl'),
      'utf8',
    );
    expect(file.trimEnd().split('\n')).toHaveLength(12);
    expect(file.split(instructions).length - 1).toBe(2); // once per opening
    expect(file).not.toContain('log line log line');
    const record = await log.modelCalls.get(7);
    expect(record).toMatchObject({
      call: 7,
      model: 'build-model',
      format: 'spec.plain',
      usage: { inputTokens: 101, totalTokens: 108 },
    });
    expect(record?.latencyMs).toBeGreaterThanOrEqual(5);
    // Trimmed outputs and the events read back on open are part of the reference.
    expect(record?.context.trimmed?.length).toBeGreaterThan(0);
    expect(record?.context.restored).toBe(24); // the 6 turns before the restart, 4 events each
    await log.close();
  });

  it('reads back messages of every shape: empty, CRLF, a lone surrogate, a huge minified line cut by the projection', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    await using log = await ConversationLog.open({ store, conversationId: 'shapes' });
    const minified = JSON.stringify(Array.from({ length: 40_000 }, (_, index) => ({ index })));
    await log.append(
      { role: 'user', content: '' },
      { role: 'assistant', content: 'line one\r\nline two\r\n' },
      { role: 'user', content: `half a pair: \ud83d, then ${'é'.repeat(10)}` },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'dump', arguments: 'not json {' }],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'dump', content: minified, isError: true },
      { role: 'user', content: minified }, // over maxResultBytes: stored, recorded bounded
    );
    const projection = await projectContext(log.history(), { contextBudgetTokens: 60_000 });
    const request = {
      model: 'm',
      messages: plainFormat.render(projection.messages, { instructions }),
    };
    await log.modelCalls.record({
      projection,
      request,
      format: plainFormat,
      formatOptions: { instructions },
      startedAt: Date.now(),
    });
    await log.close();
    const reopened = await ConversationLog.open({ store, conversationId: 'shapes' });
    const read = await reopened.modelCalls.request(0, { formats: [plainFormat] });
    expect(JSON.stringify(read)).toBe(JSON.stringify(request));
    expect(JSON.stringify(read).length).toBeLessThan(120_000);
    await reopened.close();
  });

  it('keeps the projection limits of a call', async () => {
    await using log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
    const sent = await recordTurns(log, 3, { contextBudgetTokens: 60_000, maxLineChars: 40 });
    expect((await log.modelCalls.get(0))?.context.limits).toEqual({ maxLineChars: 40 });
    expect(await readBack(log, 3)).toEqual(sent);
    expect(sent[2]).toContain('[1 line cut to 40 characters]');
  });

  it('reads a call back after a compaction, from the summary and the events it kept', async () => {
    await using log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
    const sent = await recordTurns(log, 2);
    await log.recordCompaction({ retain: 'r0', summary: 'Two builds failed.', keptFrom: 6 });
    sent.push(...(await recordTurns(log, 2)));
    expect((await log.modelCalls.get(2))?.context).toMatchObject({ compaction: 8, from: 6 });
    expect(await readBack(log, 4)).toEqual(sent);
  });

  it('refuses what it cannot record or read', async () => {
    const events = new MemoryConversationLogBackend();
    const withoutCalls: ConversationLogBackend = {
      append: (appended) => events.append(appended),
      readBackward: (options) => events.readBackward(options),
    };
    await using plain = await ConversationLog.open({ backend: withoutCalls });
    expect(await errorCode(recordTurns(plain, 1))).toBe('E_INVALID_ARGUMENT');

    await using log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
    await recordTurns(log, 1);
    const otherFormat = { ...plainFormat, name: 'other' };
    expect(await errorCode(log.modelCalls.request(0, { formats: [otherFormat] }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    expect(await errorCode(log.modelCalls.request(1, { formats: [plainFormat] }))).toBe(
      'E_INVALID_ARGUMENT',
    );
    expect(await errorCode(log.modelCalls.get(-1))).toBe('E_INVALID_ARGUMENT');
  });
});
