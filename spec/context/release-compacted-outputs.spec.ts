import { join } from 'node:path';
import {
  ArtifactStore,
  ConversationLog,
  type ConversationMessage,
  MemoryConversationLogBackend,
  releaseCompactedOutputs,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';
import { errorCode } from '../store/store-helpers.js';

/** A turn: a question, a call, its stored output's handle, an answer. */
function turn(
  question: string,
  callId: string,
  ref: string,
  toolName = 'fetch_log',
): ConversationMessage[] {
  return [
    { role: 'user', content: question },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: callId, name: toolName, arguments: '{}' }],
    },
    { role: 'tool', toolCallId: callId, toolName, content: `Output stored (${ref})`, ref },
    { role: 'assistant', content: 'Found it.' },
  ];
}

describe('releaseCompactedOutputs', () => {
  it('deletes the stored outputs a compaction removed that nothing visible names, and those a later compaction stops naming', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const put = async (text: string) => (await store.put(`${text}\n`.repeat(5_000))).id;
    const [old, retained, queried, recent] = await Promise.all(
      ['old', 'retained', 'queried', 'recent'].map(put),
    );
    await using log = await ConversationLog.open({ store });
    await log.append(...turn('First?', 'c1', old as string));
    await log.append(...turn('Second?', 'c2', retained as string));
    await log.append(...turn('Third?', 'c3', queried as string));
    // The latest turn queries the third output by ref: it stays visible.
    await log.append(
      { role: 'user', content: 'Compare with the third.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'c4',
            name: 'tool_output_cache_grep',
            arguments: JSON.stringify({ ref: queried, pattern: 'x' }),
          },
        ],
      },
      {
        role: 'tool',
        toolCallId: 'c4',
        toolName: 'tool_output_cache_grep',
        content: 'no match',
        ref: recent as string,
      },
    );
    await log.recordCompaction({
      retain: `ref=${retained}`,
      summary: 'Three logs read.',
      keptFrom: 12,
    });

    expect(await releaseCompactedOutputs(log)).toEqual([old]);
    expect(await errorCode(store.get(old as string))).toBe('E_ARTIFACT_NOT_FOUND');
    for (const id of [retained, queried, recent])
      expect(await store.info(id as string)).toBeDefined();
    // The events stay for scrollback.
    const { events } = await log.page({ limit: 100 });
    expect(events.some((event) => event.type === 'message' && event.message.ref === old)).toBe(
      true,
    );

    // A later compaction removes the query and no longer retains the second: both go, and
    // the output of the query itself.
    await log.append({ role: 'assistant', content: 'Both failed the same way.' });
    await log.recordCompaction({ retain: '', summary: 'Four logs read.', keptFrom: 16 });
    expect((await releaseCompactedOutputs(log)).sort()).toEqual([queried, recent, retained].sort());
    expect(await releaseCompactedOutputs(log)).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it('releases nothing before a compaction, and needs a store', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const { id } = await store.put('kept\n');
    await using log = await ConversationLog.open({ store });
    await log.append(...turn('First?', 'c1', id));
    expect(await releaseCompactedOutputs(log)).toEqual([]);
    expect(await store.info(id)).toBeDefined();

    await using storeless = await ConversationLog.open({
      backend: new MemoryConversationLogBackend(),
    });
    expect(await errorCode(releaseCompactedOutputs(storeless))).toBe('E_INVALID_ARGUMENT');
  });
});
