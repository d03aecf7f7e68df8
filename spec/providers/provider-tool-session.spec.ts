// The session rule every adapter shares: one it made is closed with it; one passed in stays
// open until its owner closes it.
import {
  defineTool,
  ProviderToolSession,
  SpooledArtifact,
  SpoolforgeError,
  ToolSession,
} from 'spoolforge';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { OpenAIToolSession } from 'spoolforge/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const produceLog = defineTool({
  name: 'produce_log',
  description: 'Returns a long log.',
  inputSchema: z.object({}),
  handler: () => 'line\n'.repeat(10_000),
});

interface Adapter {
  session: ToolSession;
  close(): Promise<void>;
}

const adapters: [
  string,
  (options: { session: ToolSession } | { tools: [typeof produceLog] }) => Adapter,
][] = [
  ['OpenAIToolSession', (options) => new OpenAIToolSession(options)],
  ['AnthropicToolSession', (options) => new AnthropicToolSession(options)],
  ['spoolforgeToolSet', (options) => spoolforgeToolSet(options)],
  ['ProviderToolSession', (options) => new ProviderToolSession(options)],
];

/** Runs produce_log in `session` and returns the artifact it spooled. */
async function spooledLog(session: ToolSession): Promise<SpooledArtifact> {
  const [outcome] = await session.run(
    [{ id: 'call_1', name: 'produce_log', arguments: {} }],
    session.dispatch(),
  );
  const results = outcome?.call.results;
  if (!(results instanceof SpooledArtifact)) throw new Error('produce_log was not spooled');
  return results;
}

const closedError = (error: unknown) =>
  SpoolforgeError.isInstance(error) && error.code === 'E_SPOOL_CLOSED';

describe.each(adapters)('%s', (_name, make) => {
  it('closes a session it made', async () => {
    const adapter = make({ tools: [produceLog] });
    const log = await spooledLog(adapter.session);
    await adapter.close();
    await expect(log.head(1)).rejects.toSatisfy(closedError);
  });

  it('leaves a session passed in to its owner', async () => {
    await using session = new ToolSession({ tools: [produceLog] });
    const adapter = make({ session });
    expect(adapter.session).toBe(session);
    const log = await spooledLog(session);
    await adapter.close();
    expect(await log.head(1)).toEqual([{ lineNumber: 0, text: 'line' }]);
    await session.close();
    await expect(log.head(1)).rejects.toSatisfy(closedError);
  });
});

describe('the constructor shape', () => {
  it('takes adapter options beside a session passed in', async () => {
    await using session = new ToolSession({ tools: [produceLog] });
    await using anthropic = new AnthropicToolSession({ session, maxImageBytes: 1_024 });
    await using aiSdk = spoolforgeToolSet({ session, strict: true });
    expect(anthropic.dispatch().tools.map((tool) => tool.name)).toEqual(['produce_log']);
    expect(aiSdk.tools.produce_log).toMatchObject({ strict: true });
    // @ts-expect-error a session passed in takes none of the options of a new one
    await using mixed = new OpenAIToolSession({ session, inlineThreshold: 10 });
    expect(mixed.session).toBe(session);
  });
});
