// References against hostile input: a selected line far past maxReferenceBytes, and selectors of
// megabytes echoed back in errors.
import { defineTool, type ToolCallOutcome, ToolSession } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const textOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') ?? '';

/** A session whose first call spooled `output` as call_big, with a tool taking a string. */
async function sessionWith(
  output: () => AsyncIterable<Uint8Array> | string,
  kind: 'text' | 'json' = 'text',
) {
  const received: unknown[] = [];
  const produce = defineTool({
    name: 'produce',
    description: 'Produces an output.',
    inputSchema: z.object({}),
    kind,
    handler: () => output(),
  });
  const take = defineTool({
    name: 'take',
    description: 'Takes text.',
    inputSchema: z.object({ text: z.unknown() }),
    handler: ({ text }) => {
      received.push(text);
      return 'taken';
    },
  });
  const session = new ToolSession({ tools: [produce, take] });
  const first = session.dispatch();
  first.ack();
  await session.run([{ id: 'call_big', name: 'produce', arguments: {} }], first);
  const call = async (args: unknown) => {
    const dispatch = session.dispatch();
    dispatch.ack();
    const [outcome] = await session.run(
      [{ id: 'call_take', name: 'take', arguments: args }],
      dispatch,
    );
    return outcome;
  };
  return { session, call, received };
}

describe('reference bounds', () => {
  it('refuses a "lines" selection of one 300 MiB line by its size, before assembling it', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    const { session, call, received } = await sessionWith(async function* () {
      yield Buffer.from('header\n');
      for (let mib = 0; mib < 300; mib++) yield chunk;
      yield Buffer.from('\ntrailer\n');
    });
    await using _ = session;
    const outcome = await call({ text: { $artifact: 'call_big', lines: '2' } });
    expect(outcome?.call.error?.code).toBe('E_BAD_REFERENCE');
    // Not "A line is longer than 268435456 bytes": the line was never read.
    expect(textOf(outcome)).toMatch(/over the 1\.0 MiB .*maxReferenceBytes/);
    expect(textOf(await call({ text: { $artifact: 'call_big', lines: '3' } }))).toBe('taken');
    expect(received).toEqual(['trailer']);
  }, 120_000);

  it('echoes a selector of 10 MB in at most a few hundred characters', async () => {
    const { session, call } = await sessionWith(() => 'line\n'.repeat(20_000));
    await using _ = session;
    const lines = `${'0'.repeat(10_000_000)}50000`;
    const past = await call({ text: { $artifact: 'call_big', lines } });
    expect(past?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(past)).toMatch(/starts past the end: the output has 20000 lines/);
    expect(textOf(past).length).toBeLessThan(1_000);
    const bogus = await call({ text: { $artifact: 'x'.repeat(10_000_000) } });
    expect(bogus?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(bogus).length).toBeLessThan(1_000);
  });

  it('does not resolve a reference inside a value another reference substituted', async () => {
    const document = { inner: { $artifact: 'call_big', lines: '1' }, pad: 'x'.repeat(100_000) };
    const { session, call, received } = await sessionWith(() => JSON.stringify(document), 'json');
    await using _ = session;
    const outcome = await call({ text: { $artifact: 'call_big', json: '$.inner' } });
    expect(textOf(outcome)).toBe('taken');
    expect(received).toEqual([{ $artifact: 'call_big', lines: '1' }]);
  });
});
