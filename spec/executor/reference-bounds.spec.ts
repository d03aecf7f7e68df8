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

  it('weighs a "json" value as compact JSON, naming its size when it is refused', async () => {
    const rows = (count: number, pad: number) =>
      Array.from({ length: count }, (_, id) => ({ id, note: 'n'.repeat(pad) }));
    // Pretty-printed: $.fits takes 1.3 MiB of the output but 0.8 MiB as compact JSON.
    const document = { fits: rows(8_000, 90), big: rows(30_000, 90), half: rows(6_000, 90) };
    const { session, call, received } = await sessionWith(
      () => JSON.stringify(document, null, 8),
      'json',
    );
    await using _ = session;
    expect(textOf(await call({ text: { $artifact: 'call_big', json: '$.fits' } }))).toBe('taken');
    expect(received).toEqual([document.fits]);

    const big = await call({ text: { $artifact: 'call_big', json: '$.big' } });
    expect(big?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(big)).toMatch(
      /over the 1\.0 MiB .*maxReferenceBytes\); its value is more than 1\.0 MiB as JSON; select less/,
    );
    // Two references share the bound: the second is refused with its own size.
    const both = await call({
      text: [
        { $artifact: 'call_big', json: '$.half' },
        { $artifact: 'call_big', json: '$.half' },
      ],
    });
    expect(both?.call.error?.code).toBe('E_BAD_REFERENCE');
    const half = Buffer.byteLength(JSON.stringify(document.half));
    expect(textOf(both)).toContain(`its value is ${(half / 1024).toFixed(1)} KiB as JSON`);
    expect(received).toHaveLength(1);
  });

  it('refuses an entry of an indexed JSON document over the bound by its size', async () => {
    // 20 MiB, past maxParseBytes: indexed, and entry 3 parsed alone.
    const entry = (id: number, pad: number) => ({ id, note: 'n'.repeat(pad) });
    const entries = Array.from({ length: 10 }, (_, id) => entry(id, 2 * 1024 * 1024));
    const { session, call } = await sessionWith(() => JSON.stringify(entries), 'json');
    await using _ = session;
    const outcome = await call({ text: { $artifact: 'call_big', json: '$[3]' } });
    expect(outcome?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(outcome)).toMatch(/its value is more than 1\.0 MiB as JSON/);
    const id = await call({ text: { $artifact: 'call_big', json: '$[3].id' } });
    expect(textOf(id)).toBe('taken');
  });
});
