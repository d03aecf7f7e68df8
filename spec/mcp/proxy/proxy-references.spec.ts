// References through the MCP proxy: a stored output of the proxy's scope passed to an upstream
// tool (the SDK's McpServer, whose zod schema checks types) as plain values, and every refusal,
// which never reaches the upstream.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { handleId, type ProxiedClient, proxiedClient, textOf } from './proxy-helpers.js';

const open: ProxiedClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

async function proxied(options: Parameters<typeof proxiedClient>[0] = {}) {
  const client = await proxiedClient(options);
  open.push(client);
  return client;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** What `big_json` stores for `rows` rows, as the proxy pretty-prints it. */
const rowName = (id: number) => `row ${id} ${'y'.repeat(60)}`;

describe('references through McpSpoolProxy', () => {
  it('resolves JSONPath values into a typed upstream tool: a string, a number, nested in an array', async () => {
    const { call } = await proxied();
    const stored = await call('big_json', { rows: 500 });
    const id = handleId(stored);
    const result = await call('update_page', {
      body: { $artifact: id, json: '$.rows[3].name' },
      version: { $artifact: id, json: '$.rows[7].id' },
      notes: [{ $artifact: id, json: '$.rows[1].name' }, 'plain'],
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      sha256: sha256(rowName(3)),
      bytes: Buffer.byteLength(rowName(3)),
      version: 7,
      notes: [rowName(1), 'plain'],
    });
  });

  it('resolves line ranges and greps as text, and a name within the scope', async () => {
    const { call, store } = await proxied();
    const log = Array.from(
      { length: 2_000 },
      (_, line) => `${line + 1} ${line % 400 ? 'ok' : 'FAIL'}`,
    ).join('\n');
    await store.put(log, {
      name: 'nightly-log',
      metadata: { scope: 'test server', tool: 'by code' },
    });
    const result = await call('update_page', {
      body: { $artifact: 'nightly-log', lines: '2-3' },
      version: 1,
      notes: [{ $artifact: 'nightly-log', grep: 'FAIL' }],
    });
    expect(JSON.parse(textOf(result))).toMatchObject({
      sha256: sha256('2 ok\n3 ok'),
      notes: [['1 FAIL', '401 FAIL', '801 FAIL', '1201 FAIL', '1601 FAIL'].join('\n')],
    });
    // The query tools take the name as a callId too.
    const read = await call('artifact_read', { callId: 'nightly-log', start: 401, end: 401 });
    expect(textOf(read)).toContain('401:401 FAIL');
  });

  it("refuses another scope's output, an unknown id, a bad selector and values over --max-reference; the upstream is not called", async () => {
    const first = await proxied({ maxReferenceBytes: 4 * 1024 });
    const big = handleId(await first.call('big_text', { megabytes: 1 }));
    // Another proxy on the same store, for another upstream: its own scope.
    const other = await proxied({ directory: first.directory, scope: 'another server' });
    const refusals = [
      [other, { $artifact: big }, /No spooled output/],
      [first, { $artifact: 'nope' }, /No spooled output "nope"/],
      [first, { $artifact: big, lines: 'all' }, /"lines" must be/],
      [first, { $artifact: big, json: '$' }, /is text/],
      [first, { $artifact: big, sql: 'x' }, /not "sql"/],
      [first, { $artifact: big }, /over the 4\.0 KiB/],
    ] as const;
    for (const [client, body, message] of refusals) {
      const result = await client.call('update_page', { body, version: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Error \(E_BAD_REFERENCE\)/);
      expect(textOf(result)).toMatch(message);
      // The upstream would have answered with what it received.
      expect(textOf(result)).not.toContain('sha256');
    }
    // Nor do the query tools reach it from the other scope, though the store holds it.
    const read = await other.call('artifact_read', { callId: big, start: 1, end: 1 });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/^Error \(E_INVALID_TOOL_ARGS\): No spooled output/);
    expect(
      (await first.call('artifact_read', { callId: big, start: 1, end: 1 })).isError,
    ).toBeFalsy();
    const small = await first.call('update_page', {
      body: { $artifact: big, lines: '1-2' },
      version: 1,
    });
    expect(small.isError).toBeFalsy();
    expect(JSON.parse(textOf(small)).bytes).toBeGreaterThan(0);
  });
  it('delivers an escaped {"$$artifact": …} upstream as {"$artifact": …}, as the executor does', async () => {
    const { call } = await proxied();
    const id = handleId(await call('big_text', { megabytes: 1 }));
    const result = await call('update_page', {
      body: { $artifact: id, lines: '1' },
      version: 1,
      meta: { link: { $$artifact: id, lines: '1' }, deeper: { $$$artifact: 'x' } },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result)).meta).toEqual({
      link: { $artifact: id, lines: '1' },
      deeper: { $$artifact: 'x' },
    });
    // An escape alone, with no reference in the call, is delivered too.
    const alone = await call('update_page', { body: 'b', version: 2, meta: { $$artifact: 'y' } });
    expect(JSON.parse(textOf(alone)).meta).toEqual({ $artifact: 'y' });
  });

  it('echoes a regex of 100,000 characters that does not compile in at most 2,000', async () => {
    const { call } = await proxied();
    const id = handleId(await call('big_text', { megabytes: 1 }));
    const grep = `(${'a'.repeat(100_000)}`;
    const result = await call('update_page', { body: { $artifact: id, grep }, version: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error \(E_BAD_REFERENCE\): \{"\$artifact"/);
    expect(textOf(result).length).toBeLessThanOrEqual(2_000 + 30);
  });
});
