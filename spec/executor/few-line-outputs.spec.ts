import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { defineTool, SpooledArtifact, ToolSession } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  expectFewLineHandle,
  expectWholeOutput,
  fewLineCalls,
  fewLineTools,
  outputKinds,
} from '../helpers/few-line-outputs.js';

const textOf = (outcome: { content: { type: string; text?: string }[] } | undefined) =>
  outcome?.content.map((part) => part.text ?? '').join('') ?? '';

/** Runs one forged tool call in a new dispatch of `session`. */
async function query(session: ToolSession, name: string, args: Record<string, unknown>) {
  const dispatch = session.dispatch();
  dispatch.ack();
  const [outcome] = await session.run([{ id: `q_${name}`, name, arguments: args }], dispatch);
  return { text: textOf(outcome), isError: outcome?.isError };
}

describe('outputs over the inline threshold with fewer lines than the preview', () => {
  it('hands each kind with 1 to 4 lines a handle that previews every line, and answers its queries', async () => {
    await using session = new ToolSession({ tools: fewLineTools });
    const calls = fewLineCalls.map((call, index) => ({ ...call, id: `call_${index}` }));
    const outcomes = await session.run(calls, session.dispatch());
    for (const [index, call] of calls.entries()) {
      const outcome = outcomes[index];
      expect(outcome?.isError, `${call.kind} with ${call.lines} lines`).toBe(false);
      expect(outcome?.call.results).toBeInstanceOf(SpooledArtifact);
      expectFewLineHandle(textOf(outcome), call.kind, call.lines);
    }
    for (const call of calls) {
      const whole = await query(session, 'artifact_read', { callId: call.id });
      expect(whole.isError).toBe(false);
      expectWholeOutput(whole.text, call.kind, call.lines);
      const last = await query(session, 'artifact_read', { callId: call.id, last: 3 });
      expect(last.text).toMatch(new RegExp(`^lines ${Math.max(1, call.lines - 2)}–${call.lines} `));
      const past = await query(session, 'artifact_read', { callId: call.id, start: 9, end: 12 });
      expect(past.text).toBe(`No lines to show: the output has ${call.lines} lines.`);
    }
  });

  it('keeps an empty output inline for every kind', async () => {
    await using session = new ToolSession({ tools: fewLineTools });
    const calls = outputKinds.map((kind, index) => ({
      id: `empty_${index}`,
      name: `produce_${kind}`,
      arguments: { lines: 0 },
    }));
    const outcomes = await session.run(calls, session.dispatch());
    expect(outcomes.map((outcome) => [outcome.isError, textOf(outcome)])).toEqual(
      outcomes.map(() => [false, '(no output)']),
    );
  });
});

describe('a minified JSON response: one line of 20 to 50 MB', () => {
  /** `{"items":[…]}` of `records` records (about 210 bytes each), one of them the needle. */
  const minified = (records: number) => {
    const items = Array.from({ length: records }, (_, id) =>
      JSON.stringify({
        id,
        sku: `SKU-${id.toString(36)}`,
        title: `Product ${id} ${'lorem ipsum dolor '.repeat(7)}`,
        price: id % 997,
        tags: ['a', 'b'],
      }),
    );
    const needle = Math.floor(records * 0.8);
    items[needle] = JSON.stringify({ id: needle, sku: 'NEEDLE-42', price: 1, tags: [] });
    return `{"items":[${items.join(',')}]}`;
  };
  const fetchCatalog = defineTool({
    name: 'fetch_catalog',
    description: 'GET /catalog: the whole catalog, minified.',
    inputSchema: z.object({ records: z.number().int() }),
    handler: async function* ({ records }) {
      const text = minified(records);
      // Streamed in 1 MiB pieces, as an HTTP body arrives.
      for (let start = 0; start < text.length; start += 1 << 20)
        yield text.slice(start, start + (1 << 20));
    },
  });

  it('gets a handle within 300 tokens with a cut preview, and bounded answers to cat and grep', async () => {
    await using session = new ToolSession({ tools: [fetchCatalog] });
    const [outcome] = await session.run(
      [{ id: 'call_big', name: 'fetch_catalog', arguments: { records: 240_000 } }],
      session.dispatch(),
    );
    const handle = textOf(outcome);
    expect(outcome?.isError).toBe(false);
    expect(handle).toMatch(
      /^Output of fetch_catalog \(call_big\) was spooled, not inlined: json, /,
    );
    expect(handle).toContain(', 1 line, ');
    expect(handle).toMatch(/^1:\{"items":\[\{"id":0,.*…$/m);
    expect(countTokens(handle)).toBeLessThanOrEqual(300);
    const artifact = outcome?.call.results as SpooledArtifact;
    expect(await artifact.byteLength()).toBeGreaterThan(50_000_000);

    // No range: the one line, cut, with its size and the way to see more of it.
    const cat = await query(session, 'artifact_read', { callId: 'call_big' });
    expect(cat.isError).toBe(false);
    expect(cat.text).toMatch(/^lines 1–1 of 1:\n1:\{"items":\[\{"id":0,/);
    expect(cat.text).toMatch(/… \[line cut: 2000 chars of a \d+\.\d MiB line; artifact_grep shows/);
    expect(Buffer.byteLength(cat.text)).toBeLessThan(3_000);

    // A match 40 MB into the line is shown with the text around it, not the line's start.
    const grep = await query(session, 'artifact_grep', {
      callId: 'call_big',
      pattern: 'NEEDLE-\\d+',
    });
    expect(grep.isError).toBe(false);
    expect(grep.text).toMatch(
      /^1:….*"sku":"NEEDLE-42".*… \[line cut: chars [\d,]+–[\d,]+ of [\d,]+\]$/m,
    );
    expect(grep.text).toContain('1 matching line.');
    expect(Buffer.byteLength(grep.text)).toBeLessThan(3_000);
    const fixed = await query(session, 'artifact_grep', {
      callId: 'call_big',
      pattern: 'needle-42',
      fixed: true,
      ignoreCase: true,
    });
    expect(fixed.text).toContain('"sku":"NEEDLE-42"');
  });

  it('queries the array inside {"items":[…]} element by element, though it is larger than maxParseBytes', async () => {
    // 19 MiB: past maxParseBytes (16 MiB), so the document is indexed, not parsed whole.
    const records = 95_000;
    const needle = Math.floor(records * 0.8);
    await using session = new ToolSession({ tools: [fetchCatalog] });
    const [outcome] = await session.run(
      [{ id: 'call_big', name: 'fetch_catalog', arguments: { records } }],
      session.dispatch(),
    );
    expect(textOf(outcome)).toMatch(
      /^Output of fetch_catalog \(call_big\) was spooled, not inlined: json, 1[89]\.\d MiB/,
    );
    const ask = async (op: string, args: Record<string, unknown>) => {
      const answer = await query(session, 'artifact_json', { callId: 'call_big', op, ...args });
      expect(answer.isError, answer.text).toBe(false);
      expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(50 * 1024);
      return answer.text;
    };
    expect(await ask('length', { path: '$' })).toBe('$: object (1 key)');
    expect(await ask('length', { path: '$.items' })).toBe(
      `$['items']: array (${records.toLocaleString('en-US')} elements)`,
    );
    expect(await ask('type', { path: 'items' })).toMatch(/^\$\['items'\]: array/);
    const filtered = await ask('filter', {
      path: '$.items[?(@.sku == "NEEDLE-42")]',
    });
    expect(filtered).toContain(`$['items'][${needle}]`);
    expect(filtered).toContain('"sku":"NEEDLE-42"');
    expect(await ask('get', { path: `$.items[${needle}].sku` })).toContain(
      `$['items'][${needle}]['sku'] = "NEEDLE-42"`,
    );
    const slice = await ask('slice', { path: '$.items', start: 5, end: 7 });
    expect(slice.split('\n').slice(0, 3)).toEqual([
      `$['items']: array (${records.toLocaleString('en-US')} elements)`,
      expect.stringMatching(/^\$\['items'\]\[5\] = \{"id":5,"sku":"SKU-5",/),
      expect.stringMatching(/^\$\['items'\]\[6\] = \{"id":6,/),
    ]);
    const keys = await ask('keys', { path: '$.items' });
    expect(keys).toMatch(/^\$\['items'\]\[\*\]: [\d,]+ objects, 5 distinct keys/);
    const shape = await ask('shape', { path: '$.items' });
    expect(shape).toContain("$['items'][*].sku");
    // The too-large entry itself is never parsed whole.
    const whole = await query(session, 'artifact_json', {
      callId: 'call_big',
      op: 'get',
      path: '$.items',
    });
    expect(whole.isError).toBe(true);
    expect(whole.text).toContain("$['items'] is too large to show at once");
  }, 120_000);
});

describe('long lines at the edges of the bounds', () => {
  const lineTool = (name: string, text: string) =>
    defineTool({ name, description: '', inputSchema: z.object({}), handler: () => text });

  it('shows a first line that alone passes maxResultBytes, cut to fit, so a continuation moves on', async () => {
    const text = `${'界'.repeat(2_000)}\n${'界'.repeat(2_000)}\n`;
    await using session = new ToolSession({
      tools: [lineTool('wide', text)],
      limits: { maxResultBytes: 4 * 1024 },
    });
    await session.run([{ id: 'w', name: 'wide', arguments: {} }], session.dispatch());
    const cat = await query(session, 'artifact_read', { callId: 'w' });
    expect(cat.text).toMatch(/^lines 1–1 of 2:\n1:界+… \[line cut: \d+ of 2000 chars\]\n/);
    expect(cat.text).toContain('Continue with artifact_read {"callId":"w","start":2,"end":2}');
    expect(Buffer.byteLength(cat.text)).toBeLessThanOrEqual(4 * 1024);
    const grep = await query(session, 'artifact_grep', { callId: 'w', pattern: '界' });
    expect(grep.text).toMatch(/^1:界+…/);
    expect(grep.text).toContain('"startLine":2');
  });

  it('names a grep continuation by what changes when the call itself is too long to repeat', async () => {
    const text = Array.from({ length: 3_000 }, (_, index) => `hit ${index} ${'x'.repeat(40)}`);
    await using session = new ToolSession({ tools: [lineTool('rows', text.join('\n'))] });
    await session.run([{ id: 'r', name: 'rows', arguments: {} }], session.dispatch());
    const pattern = `hit\n${'Q'.repeat(20_000)}`;
    const grep = await query(session, 'artifact_grep', { callId: 'r', pattern });
    expect(Buffer.byteLength(grep.text)).toBeLessThanOrEqual(50 * 1024);
    expect(grep.text).toMatch(
      /Continue with the same artifact_grep call with "startLine":\d+\]\n$/,
    );
  });

  it('never shows half a surrogate pair, nor a … past the end of a line', async () => {
    const emoji = `a${'😀'.repeat(3_000)}`;
    const tail = `${'y'.repeat(8_000)}needle`;
    await using session = new ToolSession({
      tools: [lineTool('emoji', `${emoji}\n${tail}\n`)],
    });
    const [outcome] = await session.run(
      [{ id: 'e', name: 'emoji', arguments: {} }],
      session.dispatch(),
    );
    const handle = textOf(outcome);
    expect(handle).toMatch(/^1:a(😀)+…$/m);
    expect(handle).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    const grep = await query(session, 'artifact_grep', { callId: 'e', pattern: 'needle' });
    expect(grep.text).toMatch(/^2:…y+needle \[line cut: chars [\d,]+–8,006 of 8,006\]$/m);
  });
});
