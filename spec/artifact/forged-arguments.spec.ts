import { defineTool, ToolSession } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const fetchLog = defineTool({
  name: 'fetch_log',
  description: 'Returns a long log.',
  inputSchema: z.object({}),
  handler: async () => 'INFO ok\n'.repeat(4_000),
});

describe('forged tool arguments', () => {
  it('refuses an argument a tool does not take, naming the ones it does, instead of dropping it', async () => {
    await using session = new ToolSession({ tools: [fetchLog] });
    const first = session.dispatch();
    first.ack();
    await session.run([{ id: 'call_1', name: 'fetch_log', arguments: {} }], first);
    const second = session.dispatch();
    second.ack();
    const [grep, list, read] = await session.run(
      [
        // `before` and `n` belonged to an older surface: a model that remembers them must learn.
        {
          id: 'call_2',
          name: 'artifact_grep',
          arguments: { callId: 'call_1', pattern: 'ok', before: 2 },
        },
        { id: 'call_3', name: 'artifact_list', arguments: { verbose: true } },
        { id: 'call_4', name: 'artifact_read', arguments: { callId: 'call_1', n: 5 } },
      ],
      second,
    );
    expect(grep?.isError).toBe(true);
    expect(grep?.content).toEqual([
      {
        type: 'text',
        text:
          'Error (E_INVALID_TOOL_ARGS): Invalid arguments for artifact_grep:\n' +
          '✖ unknown argument "before"; it takes callId, pattern, fixed, ignoreCase, invert, context, maxCount, startLine',
      },
    ]);
    expect(list?.isError).toBe(true);
    expect(JSON.stringify(list?.content)).toContain(
      'unknown argument \\"verbose\\"; it takes no arguments',
    );
    expect(read?.isError).toBe(true);
    expect(JSON.stringify(read?.content)).toContain(
      'unknown argument \\"n\\"; it takes callId, start, end, last',
    );
  });
});
