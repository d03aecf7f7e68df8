import {
  ConversationLog,
  type ConversationMessage,
  compactLog,
  MemoryConversationLogBackend,
  type Summariser,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';

const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => `row ${index} ${'v'.repeat(70)}`).join('\n');

function toolTurn(index: number, output: string): ConversationMessage[] {
  return [
    { role: 'user', content: `question ${index}` },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `call_${index}`, name: 'query', arguments: '{}' }],
    },
    { role: 'tool', toolCallId: `call_${index}`, toolName: 'query', content: output },
    { role: 'assistant', content: `answer ${index}` },
  ];
}

describe('compactLog', () => {
  it('summarises the projected history and records the compaction, which a reopened log replays', async () => {
    const backend = new MemoryConversationLogBackend();
    const log = await ConversationLog.open({ backend });
    await log.append(...toolTurn(0, lines(2_000)), ...toolTurn(1, lines(10)), ...toolTurn(2, 'ok'));
    const requests: ConversationMessage[][] = [];
    const summarise: Summariser = async (messages) => {
      requests.push(messages);
      return '<retain>call_0 holds the rows</retain><summary>Three questions answered.</summary>';
    };
    const result = await compactLog(log, { summarise, contextBudgetTokens: 2_000 });
    // The summariser read the projection: the big output trimmed to its placeholder.
    const [request] = requests;
    expect(request?.[2]).toMatchObject({ content: '[tool output trimmed; ref=call_0]' });
    expect(request?.at(-1)?.role).toBe('user');
    expect(request?.at(-1)?.content).toContain('<summary>');
    expect(result?.keptFrom).toBe(8);
    expect(log.compaction).toEqual({
      retain: 'call_0 holds the rows',
      summary: 'Three questions answered.',
      keptFrom: 8,
    });
    expect(log.history().slice(1)).toEqual(toolTurn(2, 'ok'));
    expect(log.history()[0]?.content).toContain('<retain>\ncall_0 holds the rows\n</retain>');
    const reopened = await ConversationLog.open({ backend });
    expect(reopened.history()).toEqual(log.history());
    // Scrollback still has every event, the compaction last.
    const page = await reopened.page({ limit: 100 });
    expect(page.events).toHaveLength(13);
    expect(page.events[0]?.type).toBe('compaction');

    // Two turns asked for, and two is all there is: keeping them would free nothing, so the
    // kept part starts at the last assistant message.
    await log.append({ role: 'user', content: 'question 3' });
    const again = await compactLog(log, {
      summarise,
      contextBudgetTokens: 2_000,
      retainLastTurns: 2,
    });
    expect(again?.keptFrom).toBe(4);
    expect(log.compaction?.keptFrom).toBe(11);
    expect(log.history().slice(1)).toEqual([
      { role: 'assistant', content: 'answer 2' },
      { role: 'user', content: 'question 3' },
    ]);
    expect(again?.history).toEqual(log.history());
    // Keeping no turn keeps no event.
    await compactLog(log, { summarise, contextBudgetTokens: 2_000, retainLastTurns: 0 });
    expect(log.events).toEqual([]);
    expect(log.history()).toHaveLength(1);
    // Then there is nothing left to compact: the summariser is not called.
    const calls = requests.length;
    expect(await compactLog(log, { summarise, contextBudgetTokens: 2_000 })).toBeUndefined();
    expect(requests).toHaveLength(calls);
    await expect(
      compactLog(log, { summarise, contextBudgetTokens: 2_000, retainLastTurns: -1 }),
    ).rejects.toThrow(/retainLastTurns/);
  });

  it('keeps messages appended while the summariser runs', async () => {
    const log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
    await log.append(...toolTurn(0, 'ok'));
    await log.recordCompaction({ retain: '', summary: 'before', keptFrom: 0 });
    await log.append(...toolTurn(1, 'ok'));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const compaction = compactLog(log, {
      contextBudgetTokens: 2_000,
      summarise: async () => {
        await gate;
        return '<summary>two turns</summary>';
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    await log.append({ role: 'user', content: 'typed during compaction' });
    release();
    await compaction;
    expect(log.history().slice(1)).toEqual([
      ...toolTurn(1, 'ok'),
      { role: 'user', content: 'typed during compaction' },
    ]);
  });

  it('records nothing when the summariser fails', async () => {
    const log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
    await log.append(...toolTurn(0, 'ok'));
    const error = await compactLog(log, {
      summarise: async () => 'I could not summarise that.',
      contextBudgetTokens: 2_000,
    }).catch((reason: { code?: string }) => reason.code);
    expect(error).toBe('E_COMPACTION_FAILED');
    expect(log.compaction).toBeUndefined();
    expect(log.nextSeq).toBe(4);
  });
});
