import {
  ConversationLog,
  defineTool,
  projectContext,
  type ToolCallOutcome,
  ToolSession,
  toolOutputCacheTools,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from '../store/store-helpers.js';

const buildLog = defineTool({
  name: 'build_log',
  description: 'The build log.',
  inputSchema: z.object({}),
  handler: async function* () {
    for (let line = 1; line <= 5_000; line++) yield `build line ${line} ${'x'.repeat(40)}\n`;
    yield 'ERROR linker failed\n';
  },
});

const textOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content[0]?.type === 'text' ? outcome.content[0].text : '';

/** Every call a text names as `tool {json}`, the way handles and notes name them. */
function namedCalls(text: string): { name: string; arguments: Record<string, unknown> }[] {
  return [...text.matchAll(/\b((?:artifact|tool_output_cache)\w*) (\{[^}\n]*\})/g)].map(
    ([, name, json]) => ({ name: name ?? '', arguments: JSON.parse(json ?? '{}') }),
  );
}

describe('handles recorded before a restart', () => {
  it('name calls the new session answers: tool_output_cache with the stored ref', async () => {
    const store = await openStore();
    const log = await ConversationLog.open({ store, conversationId: 'restart' });
    await log.append(
      { role: 'user', content: 'Why did the build fail?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'build_log', arguments: '{}' }],
      },
    );
    {
      await using session = new ToolSession({
        tools: [buildLog, ...toolOutputCacheTools(log)],
        store,
      });
      const dispatch = session.dispatch();
      dispatch.ack();
      await log.appendToolOutcomes(
        await session.run([{ id: 'call_1', name: 'build_log', arguments: {} }], dispatch),
      );
      // In the session that ran it, the handle's artifact tools answer.
      const handle = log.history().at(-1)?.content ?? '';
      expect(handle).toContain('(callId "call_1")');
      const next = session.dispatch();
      next.ack();
      const [grep] = await session.run(
        [{ id: 'g', name: 'artifact_grep', arguments: { callId: 'call_1', pattern: 'ERROR' } }],
        next,
      );
      expect(grep?.isError).toBeFalsy();
    }
    await log.append({ role: 'assistant', content: 'The linker failed.' });
    await log.close();

    // A new process: a new session, which never ran call_1.
    const reopened = await ConversationLog.open({ store, conversationId: 'restart' });
    const ref = reopened.toolMessage('call_1')?.ref ?? '';
    expect(ref).not.toBe('');
    await using session = new ToolSession({
      tools: [buildLog, ...toolOutputCacheTools(reopened)],
      store,
    });
    const { messages } = await projectContext(reopened.history(), { contextBudgetTokens: 20_000 });
    const handle = messages[2]?.content ?? '';
    expect(handle).toMatch(/^Output of build_log \(call_1\) was spooled, not inlined/);
    const calls = namedCalls(handle);
    expect(calls.map((call) => call.name)).toEqual(['tool_output_cache', 'tool_output_cache_grep']);
    const dispatch = session.dispatch();
    dispatch.ack();
    const answers = await session.run(
      calls.map((call, index) => ({
        id: `q${index}`,
        name: call.name,
        arguments: {
          ...call.arguments,
          ...(call.name.endsWith('grep') ? { pattern: 'ERROR' } : {}),
        },
      })),
      dispatch,
    );
    expect(answers.map((answer) => answer.isError ?? false)).toEqual([false, false]);
    // No range: the first lines up to the bounds, and the call that reads on.
    const first = Number(
      /^lines 1–(\d+) of 5001:\n1:build line 1 x+\n/.exec(textOf(answers[0]))?.[1],
    );
    expect(textOf(answers[0])).toContain(
      `Continue with tool_output_cache {"ref":"${ref}","start":${first + 1},"end":5001}]`,
    );
    expect(textOf(answers[1])).toContain('5001:ERROR linker failed');
    // The old call id still reads the stored output too.
    const [byCallId] = await session.run(
      [{ id: 'c', name: 'tool_output_cache', arguments: { ref: 'call_1', start: 5_001 } }],
      dispatch,
    );
    expect(textOf(byCallId)).toBe('lines 5001–5001 of 5001:\n5001:ERROR linker failed\n');
    await reopened.close();
  });
});
