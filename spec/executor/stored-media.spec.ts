import {
  ConversationLog,
  defineTool,
  Media,
  type ToolCallOutcome,
  ToolSession,
  toolOutputCacheTools,
} from 'spoolforge';
import { OpenAIToolSession } from 'spoolforge/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { solidPng } from '../helpers/solid-png.js';
import { tempFile } from '../helpers/temp-files.js';
import { openStore } from '../store/store-helpers.js';

const pngBytes = solidPng(8, 8, [10, 200, 90]);
const chart = defineTool({
  name: 'chart',
  description: 'Draws a chart.',
  inputSchema: z.object({}),
  handler: () => new Media(pngBytes, { mediaType: 'image/png', name: 'chart.png' }),
});

const mediaOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content.find((part) => part.type === 'media')?.media;

async function conversation(withSessionStore: boolean) {
  const store = await openStore();
  const log = await ConversationLog.open({ store, conversationId: 'charts' });
  await log.append(
    { role: 'user', content: 'Draw it.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'chart', arguments: '{}' }],
    },
  );
  {
    await using session = new ToolSession({
      tools: [chart],
      ...(withSessionStore ? { store } : {}),
    });
    const outcomes = await session.run(
      [{ id: 'call_1', name: 'chart', arguments: {} }],
      session.dispatch(),
    );
    // Sent to the model as media, as before.
    expect(mediaOf(outcomes[0])?.bytes).toEqual(pngBytes);
    if (withSessionStore) expect(outcomes[0]?.ref).toBeDefined();
    await log.appendToolOutcomes(outcomes);
  }
  await log.close();
  return { store, log: await ConversationLog.open({ store, conversationId: 'charts' }) };
}

describe('images returned by tools are stored like text outputs', () => {
  it.each([
    ['a session with a store', true],
    ['a log with a store', false],
  ])('%s keeps the image past the session, under its media type', async (_name, sessionStore) => {
    const { store, log } = await conversation(sessionStore);
    const ref = log.toolMessage('call_1')?.ref ?? '';
    expect(ref).not.toBe('');
    const record = await store.info(ref);
    expect(record).toMatchObject({
      mediaType: 'image/png',
      byteLength: pngBytes.length,
      name: 'chart.png',
    });
    await log.close();
  });

  it('tool_output_cache shows a stored image to the model again, natively; grep refuses it', async () => {
    const { log } = await conversation(true);
    await using agent = new OpenAIToolSession({ tools: toolOutputCacheTools(log) });
    const dispatch = agent.chatCompletionsDispatch();
    const messages = await dispatch.run([
      {
        id: 'q1',
        type: 'function',
        function: { name: 'tool_output_cache', arguments: '{"ref":"call_1"}' },
      },
      {
        id: 'q2',
        type: 'function',
        function: { name: 'tool_output_cache_grep', arguments: '{"ref":"call_1","pattern":"x"}' },
      },
    ]);
    const dataUrl = `data:image/png;base64,${Buffer.from(pngBytes).toString('base64')}`;
    expect(JSON.stringify(messages)).toContain(dataUrl);
    const grep = messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === 'q2',
    );
    expect(String(grep?.content)).toMatch(/^Error \(E_INVALID_TOOL_ARGS\): .*image\/png/);
    expect(agent.session.toolCalls[0]?.results).toBeInstanceOf(Media);
    await log.close();
  });

  it('keeps an image whose file name is no output name, without that name', async () => {
    const longName = `${'quarterly-revenue-by-region-'.repeat(5)}.png`; // 141 characters
    const path = await tempFile(pngBytes, longName);
    const store = await openStore();
    await using session = new ToolSession({
      store,
      tools: [
        defineTool({
          name: 'chart',
          description: 'Draws a chart.',
          inputSchema: z.object({}),
          handler: () => Media.fromFile(path),
        }),
      ],
    });
    const [outcome] = await session.run(
      [{ id: 'call_1', name: 'chart', arguments: {} }],
      session.dispatch(),
    );
    expect(outcome?.call.error).toBeUndefined();
    expect(mediaOf(outcome)?.name).toBe(longName);
    const record = await store.info(outcome?.ref ?? '');
    expect(record).toMatchObject({ mediaType: 'image/png', byteLength: pngBytes.length });
    expect(record?.name).toBeUndefined();
  });
});
