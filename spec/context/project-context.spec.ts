import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  ConversationLog,
  type ConversationMessage,
  contextBudget,
  defineTool,
  MemoryConversationLogBackend,
  projectContext,
  SpooledArtifact,
  ToolSession,
  toolOutputCacheTools,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorCode, openStore } from '../store/store-helpers.js';

const numberedLines = (count: number, width = 60) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1} ${'x'.repeat(width)}`).join('\n');

/** A turn: the user asks, the assistant calls a tool, the tool answers with `output`. */
function turn(index: number, output: string, ref?: string): ConversationMessage[] {
  const toolCallId = `call_${index}`;
  return [
    { role: 'user', content: `question ${index}` },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: toolCallId, name: 'fetch', arguments: `{"page":${index}}` }],
    },
    {
      role: 'tool',
      toolCallId,
      toolName: 'fetch',
      content: output,
      ...(ref === undefined ? {} : { ref }),
    },
  ];
}

describe('contextBudget', () => {
  it('is the budget given, else a quarter of the window clamped to 20k–60k', () => {
    expect(contextBudget({ contextBudgetTokens: 12_345 })).toBe(12_345);
    expect(contextBudget({ contextWindow: 128_000 })).toBe(32_000);
    expect(contextBudget({ contextWindow: 8_000 })).toBe(20_000);
    expect(contextBudget({ contextWindow: 1_000_000 })).toBe(60_000);
    expect(() => contextBudget({})).toThrow(/contextWindow/);
    expect(() => contextBudget({ contextWindow: -1 })).toThrow(/positive/);
  });
});

describe('projectContext', () => {
  it('cuts each tool output to its line and byte limits, naming the call that reads the rest', async () => {
    const long = 'y'.repeat(5_000);
    const history = turn(1, `${long}\n${numberedLines(2_000)}`, 'q3Vx0cTQ9m1Fh2kYd8a7Lw');
    const { messages } = await projectContext(history, { contextBudgetTokens: 100_000 });
    const shown = messages[2]?.content ?? '';
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(50 * 1024);
    expect(shown.split('\n')[0]).toBe(`${'y'.repeat(2_000)}… [line cut: 2000 of 5000 chars]`);
    // The note reads the stored output on from the first line not shown.
    const lastShown = Number(/\nline (\d+) x+\n\[tool output cut/.exec(shown)?.[1]);
    expect(shown).toContain(
      `lines 1–${lastShown + 1} shown; read on with tool_output_cache {"ref":"q3Vx0cTQ9m1Fh2kYd8a7Lw","start":${lastShown + 2}}]`,
    );
    // Without a store, the text is the output: the note continues from the next line.
    const unstored = turn(3, numberedLines(2_000));
    const cut = (await projectContext(unstored, { contextBudgetTokens: 100_000 })).messages[2];
    const next = Number(/\nline (\d+) x+\n\[tool output cut/.exec(cut?.content ?? '')?.[1]) + 1;
    expect(cut?.content).toMatch(
      new RegExp(`read on with tool_output_cache \\{"ref":"call_3","start":${next}\\}\\]$`),
    );
    expect(cut?.content.endsWith('\n')).toBe(false);
    // A first line too long for the message says so rather than "lines 1–0".
    const wide = turn(4, `${'é'.repeat(1_500)}\nsecond`);
    const narrow = await projectContext(wide, {
      contextBudgetTokens: 100_000,
      maxResultBytes: 1_024,
    });
    expect(narrow.messages[2]?.content).toBe(
      '[tool output cut at 1.0 KiB of 2.9 KiB (2 lines): its first line is longer than that; ' +
        'read on with tool_output_cache {"ref":"call_4","start":1}]',
    );
    await expect(
      projectContext(wide, { contextBudgetTokens: 1, maxResultBytes: 100 }),
    ).rejects.toThrow(/maxResultBytes must be ≥ 1024/);
    // Small outputs pass through as they are.
    const small = turn(2, 'ok');
    expect((await projectContext(small, { contextBudgetTokens: 1_000 })).messages).toEqual(small);
    // Long lines alone: cut, with a count of them.
    const longLines = turn(5, `${'z'.repeat(2_500)}\nshort`);
    expect(
      (await projectContext(longLines, { contextBudgetTokens: 9_000 })).messages[2]?.content,
    ).toBe(
      `${'z'.repeat(2_000)}… [line cut: 2000 of 2500 chars]\nshort\n[1 line cut to 2000 characters]`,
    );
  });

  it('trims the oldest tool outputs to fit the budget, keeps the latest, and is deterministic', async () => {
    const history = Array.from({ length: 12 }, (_, index) =>
      turn(index, numberedLines(300)),
    ).flat();
    const options = { contextBudgetTokens: 20_000, encoding: 'o200k_base' };
    const projection = await projectContext(history, options);
    expect(projection.tokens).toBeLessThanOrEqual(20_000);
    expect(projection.overBudget).toBe(false);
    expect(projection.messages).toHaveLength(history.length);
    const trimmedCount = projection.trimmed.length;
    expect(trimmedCount).toBeGreaterThan(0);
    expect(projection.trimmed).toEqual(
      Array.from({ length: trimmedCount }, (_, index) => `call_${index}`),
    );
    expect(projection.messages[2]?.content).toBe('[tool output trimmed; ref=call_0]');
    expect(countTokens(projection.messages[2]?.content ?? '')).toBeLessThanOrEqual(12);
    expect(projection.messages.at(-1)).toEqual(history.at(-1));
    // The tokenizer's count of the text, plus what the request adds: framing a message, each
    // call's JSON and each result's call id and tool name (its bound against the rendered
    // requests is in projection-converters.spec.ts), the reply's priming.
    const counted = projection.messages.reduce(
      (sum, message) =>
        sum +
        4 +
        countTokens(message.content) +
        (message.role === 'tool' ? countTokens(message.toolCallId + message.toolName) : 0) +
        (message.role === 'assistant'
          ? (message.toolCalls ?? []).reduce(
              (calls, call) =>
                calls +
                4 +
                countTokens(
                  JSON.stringify({
                    type: 'tool-call',
                    toolCallId: call.id,
                    toolName: call.name,
                    input: JSON.parse(call.arguments),
                  }),
                ),
              0,
            )
          : 0),
      3,
    );
    expect(projection.tokens).toBe(counted);
    expect(await projectContext(history, options)).toEqual(projection);
  });

  it('keeps a tool output no bigger than its placeholder', async () => {
    const history = [
      ...turn(0, 'ok'),
      ...turn(1, numberedLines(300)),
      ...turn(2, numberedLines(50)),
    ];
    const projection = await projectContext(history, { contextBudgetTokens: 1_500 });
    expect(projection.trimmed).toEqual(['call_1']);
    expect(projection.messages[2]?.content).toBe('ok');
  });

  it('says it is over budget when the latest results alone do not fit', async () => {
    const history = [...turn(0, numberedLines(300)), ...turn(1, numberedLines(3_000))];
    const projection = await projectContext(history, {
      contextBudgetTokens: 5_000,
      instructions: 'You are a build assistant.',
    });
    expect(projection.trimmed).toEqual(['call_0']);
    expect(projection.overBudget).toBe(true);
    expect(projection.tokens).toBeGreaterThan(5_000);
  });
});

describe('a ToolSession with a store, a ConversationLog and the cache tools', () => {
  const buildLog = defineTool({
    name: 'build_log',
    description: 'The build log.',
    inputSchema: z.object({}),
    handler: async function* () {
      for (let block = 0; block < 10; block++)
        yield `${numberedLines(1_000).replaceAll('line ', `b${block} line `)}\n`;
      yield 'ERROR linker failed\n';
    },
  });

  it('records results by store id, trims them, and answers tool_output_cache after a restart', async () => {
    const store = await openStore();
    const log = await ConversationLog.open({ store, conversationId: 'c1' });
    {
      await using session = new ToolSession({ tools: [buildLog], store });
      const dispatch = session.dispatch();
      dispatch.ack();
      const outcomes = await session.run(
        [{ id: 'call_1', name: 'build_log', arguments: '{}' }],
        dispatch,
      );
      expect(outcomes[0]?.call.results).toBeInstanceOf(SpooledArtifact);
      const ref = outcomes[0]?.ref ?? '';
      expect((await store.info(ref))?.lineCount).toBe(10_001);
      await log.append(...turn(1, '').slice(0, 2));
      await log.appendToolOutcomes(outcomes);
      expect(log.events.at(-1)?.message).toMatchObject({ role: 'tool', ref, toolCallId: 'call_1' });
      expect(log.events.at(-1)?.message.content).toContain('artifact_grep');
    }
    await log.append(...turn(2, numberedLines(2_000)));
    await log.close();

    // A new process: the working set comes back from disk; the old output is trimmed.
    const resumed = await ConversationLog.open({ store, conversationId: 'c1' });
    const projection = await projectContext(resumed.history(), { contextBudgetTokens: 5_000 });
    const ref = (resumed.events[2]?.message as { ref?: string } | undefined)?.ref ?? '';
    expect(projection.trimmed).toEqual([ref]);
    expect(projection.messages[2]?.content).toBe(`[tool output trimmed; ref=${ref}]`);

    await using session = new ToolSession({ tools: toolOutputCacheTools(resumed) });
    const dispatch = session.dispatch();
    dispatch.ack();
    const [page, grep, inline, unknown, bad, byCallId] = await session.run(
      [
        { id: 'a', name: 'tool_output_cache', arguments: { ref, start: 999, end: 1001 } },
        {
          id: 'b',
          name: 'tool_output_cache_grep',
          arguments: { ref, pattern: 'ERROR', context: 1 },
        },
        { id: 'c', name: 'tool_output_cache', arguments: { ref: 'call_2', start: 2, end: 2 } },
        { id: 'd', name: 'tool_output_cache', arguments: { ref: 'call_9' } },
        { id: 'e', name: 'tool_output_cache', arguments: { ref, start: 0 } },
        // A call id whose output is stored reads the stored output, not the handle.
        { id: 'f', name: 'tool_output_cache', arguments: { ref: 'call_1', last: 1 } },
      ],
      dispatch,
    );
    expect(page?.content[0]).toEqual({
      type: 'text',
      text: `lines 999–1001 of 10001:\n999:b0 line 999 ${'x'.repeat(60)}\n1000:b0 line 1000 ${'x'.repeat(60)}\n1001:b1 line 1 ${'x'.repeat(60)}\n`,
    });
    expect(grep?.content[0]).toMatchObject({
      text: expect.stringContaining(
        `10000-b9 line 1000 ${'x'.repeat(60)}\n10001:ERROR linker failed\n`,
      ),
    });
    expect(inline?.content[0]).toMatchObject({ text: expect.stringContaining(`2:line 2 `) });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown?.content[0]).toMatchObject({
      text: expect.stringContaining('E_ARTIFACT_NOT_FOUND'),
    });
    expect(bad).toMatchObject({ isError: true });
    expect(byCallId?.content[0]).toEqual({
      type: 'text',
      text: 'lines 10001–10001 of 10001:\n10001:ERROR linker failed\n',
    });
    // A long answer is shown inline, bounded, like an artifact tool's: never spooled again.
    const [long] = await session.run(
      [{ id: 'g', name: 'tool_output_cache', arguments: { ref, start: 1, end: 1_000 } }],
      dispatch,
    );
    expect(long?.ref).toBeUndefined();
    expect(long?.call.fromArtifactTool).toBe(true);
    const longText = long?.content[0]?.type === 'text' ? long.content[0].text : '';
    // Cut at 50 KiB: the header names the lines shown, and the note the call that reads on.
    const shownTo = Number(/^lines 1–(\d+) of 10001:\n1:b0 line 1 x+\n/.exec(longText)?.[1]);
    expect(shownTo).toBeGreaterThan(100);
    expect(shownTo).toBeLessThan(1_000);
    expect(longText).toContain(`\n${shownTo}:b0 line ${shownTo} `);
    expect(Buffer.byteLength(longText)).toBeLessThanOrEqual(50 * 1024);
    expect(longText).toMatch(
      new RegExp(
        `Continue with tool_output_cache \\{"ref":"[\\w-]+","start":${shownTo + 1},"end":1000\\}\\]\\n$`,
      ),
    );
    await resumed.close();
  });

  it('names the exact call that continues a cut output, and that call reads on from there', async () => {
    const store = await openStore();
    const output = numberedLines(3_000);
    const ref = (await store.put(output)).id;
    const log = await ConversationLog.open({ store, conversationId: 'notes' });
    await log.append(...turn(1, output, ref));
    const { messages } = await projectContext(log.history(), { contextBudgetTokens: 100_000 });
    const shown = (messages[2]?.content ?? '').split('\n');
    const lastShown = shown.at(-2) ?? '';
    const note = /read on with (tool_output_cache) (\{.*\})\]$/.exec(shown.at(-1) ?? '');
    expect(note?.[2]).toBe(JSON.stringify({ ref, start: shown.length }));
    await using session = new ToolSession({ tools: toolOutputCacheTools(log) });
    const dispatch = session.dispatch();
    dispatch.ack();
    const [next] = await session.run(
      [{ id: 'n', name: note?.[1] ?? '', arguments: JSON.parse(note?.[2] ?? '{}') }],
      dispatch,
    );
    const lines = (next?.content[0]?.type === 'text' ? next.content[0].text : '').split('\n');
    // The first line it shows is the one after the last line the projection showed.
    expect(lastShown).toBe(`line ${shown.length - 1} ${'x'.repeat(60)}`);
    expect(lines[1]).toBe(`${shown.length}:line ${shown.length} ${'x'.repeat(60)}`);
    await log.close();
  });

  it('puts an artifact spooled outside the store into the log’s store', async () => {
    const store = await openStore();
    const log = await ConversationLog.open({ store });
    await using session = new ToolSession({ tools: [buildLog] });
    const dispatch = session.dispatch();
    dispatch.ack();
    const outcomes = await session.run([{ id: 'x', name: 'build_log', arguments: {} }], dispatch);
    expect(outcomes[0]?.ref).toBeUndefined();
    const [event] = await log.appendToolOutcomes(outcomes);
    const ref = (event?.message as { ref?: string } | undefined)?.ref ?? '';
    const stored = await store.get(ref);
    expect(await stored.tail(1)).toEqual(
      await (outcomes[0]?.call.results as SpooledArtifact | undefined)?.tail(1),
    );
    await stored.close();
    expect(
      await errorCode(
        ConversationLog.open({ backend: new MemoryConversationLogBackend(), conversationId: '' }),
      ),
    ).toBe('E_INVALID_ARGUMENT');
    await log.close();
  });
});
