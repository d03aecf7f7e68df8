import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../../src/artifact/tokens/load-tokenizer.js';
import { connectInMemoryTestServer, needle, pngBase64 } from '../../helpers/mcp-test-server.js';
import { handleId, type ProxiedClient, proxiedClient, textOf } from './proxy-helpers.js';

const open: ProxiedClient[] = [];
async function proxied(options: Parameters<typeof proxiedClient>[0] = {}) {
  const proxiedOne = await proxiedClient(options);
  open.push(proxiedOne);
  return proxiedOne;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

const queryTools = [
  'artifact_read',
  'artifact_grep',
  'artifact_list',
  'artifact_json',
  'artifact_md',
];

describe('McpSpoolProxy', () => {
  it("lists the upstream's tools, without output schemas, then the query tools in under 1,000 tokens", async () => {
    const { client } = await proxied();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.slice(-queryTools.length)).toEqual(queryTools);
    expect(names).toContain('big_text');
    expect(tools.find((tool) => tool.name === 'big_json')?.outputSchema).toBeUndefined();
    const own = tools.filter((tool) => queryTools.includes(tool.name));
    const tokens = await countTextTokens(JSON.stringify(own), 'o200k_base');
    expect(tokens).toBeLessThan(1_000);
    const properties = own[0]?.inputSchema.properties as Record<string, { type?: string }>;
    expect(properties.callId?.type).toBe('string');
  });

  it('spools a big text result: a short handle, a resource link, and a grep that finds the needle', async () => {
    const { call, client } = await proxied();
    const result = await call('big_text', { megabytes: 3 });
    const handle = textOf(result);
    expect(await countTextTokens(handle, 'o200k_base')).toBeLessThanOrEqual(300);
    const id = handleId(result);
    expect(handle).toContain('Output of big_text');
    const link = result.content.find((part) => part.type === 'resource_link');
    expect(link).toMatchObject({ uri: `spoolforge://artifacts/${id}`, mimeType: 'text/plain' });
    expect(JSON.stringify(result).length).toBeLessThan(4_000);

    const grep = await call('artifact_grep', { callId: id, pattern: 'NEEDLE-7f3a' });
    expect(grep.isError).toBeFalsy();
    expect(textOf(grep)).toMatch(new RegExp(`^\\d+:${needle}$`, 'm'));
    const last = await call('artifact_read', { callId: id, last: 1 });
    expect(textOf(last)).toMatch(/^\d+:INFO done$/m);

    const read = await client.readResource({ uri: `spoolforge://artifacts/${id}` });
    const [contents] = read.contents;
    expect(contents && 'text' in contents ? contents.text : '').toMatch(/^1:INFO worker 0 x+$/m);
    expect(JSON.stringify(read).length).toBeLessThan(17 * 1024);
  });

  it('spools big structured content as a JSON artifact that SDK clients accept', async () => {
    const { call, client } = await proxied();
    await client.listTools(); // an SDK client validates results against the schemas it listed
    const result = await call('big_json', { rows: 5_000 });
    const id = handleId(result);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain(': json,');
    const length = await call('artifact_json', { callId: id, op: 'length', path: '$.rows' });
    expect(textOf(length)).toContain("$['rows']: 5,000 elements");
    const row = await call('artifact_json', { callId: id, op: 'get', path: '$.rows[4999].id' });
    expect(textOf(row)).toContain('4999');
  });

  it('passes small results, images, mixed content and isError results through unchanged', async () => {
    const { call } = await proxied();
    const direct = await connectInMemoryTestServer();
    try {
      for (const [name, args] of [
        ['mixed', {}],
        ['image', {}],
        ['fail', { reason: 'disk full' }],
      ] as const) {
        const expected = await direct.callTool({ name, arguments: args });
        expect(await call(name, args)).toEqual(expected);
      }
      expect((await call('image')).content[0]).toEqual({
        type: 'image',
        data: pngBase64,
        mimeType: 'image/png',
      });
    } finally {
      await direct.close();
    }
  });

  it('spools Markdown as markdown, queryable with artifact_md', async () => {
    const { call } = await proxied();
    const result = await call('markdown');
    const id = handleId(result);
    expect(textOf(result)).toContain(': markdown,');
    const headings = await call('artifact_md', { callId: id, op: 'headings' });
    expect(textOf(headings)).toContain('Section 399');
  });

  it('answers an unknown callId, a wrong argument and a query of the wrong kind with readable errors', async () => {
    const { call } = await proxied();
    const id = handleId(await call('big_text', { megabytes: 1 }));
    const unknown = await call('artifact_read', { callId: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No spooled output "nope"');
    expect(textOf(unknown)).toContain(`"${id}" (big_text, text,`);
    const wrongArgument = await call('artifact_read', { callId: id, before: 3 });
    expect(wrongArgument.isError).toBe(true);
    expect(textOf(wrongArgument)).toContain('unknown argument "before"');
    const wrongKind = await call('artifact_json', { callId: id, op: 'shape' });
    expect(wrongKind.isError).toBe(true);
    expect(textOf(wrongKind)).toContain('query it with artifact_read, artifact_grep');
  });

  it('keeps ids queryable after the proxy restarts on the same store, and lists them', async () => {
    const first = await proxied();
    const id = handleId(await first.call('big_text', { megabytes: 1 }));
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await proxied({ directory: first.directory });
    const grep = await second.call('artifact_grep', { callId: id, pattern: needle, fixed: true });
    expect(textOf(grep)).toContain(needle);
    const list = await second.call('artifact_list');
    expect(textOf(list)).toMatch(new RegExp(`^${id} tool=big_text kind=text bytes=\\d+`, 'm'));
  });

  it('fails a call the upstream does not answer within the timeout, and cancels it upstream', async () => {
    let cancelled: unknown;
    const { call } = await proxied({
      timeout: 300,
      server: { onCancelled: (reason: unknown) => (cancelled = reason ?? 'cancelled') },
    });
    const result: CallToolResult = await call('hang');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('did not answer tools/call within 0.3 s (--timeout)');
    await expect.poll(() => cancelled).toBeDefined();
    // The proxy is still up.
    expect((await call('fail', { reason: 'still here' })).content).toEqual([
      { type: 'text', text: 'cannot: still here' },
    ]);
  });

  it("forwards a client's cancellation to the upstream", async () => {
    let cancelled = false;
    const { client } = await proxied({ server: { onCancelled: () => (cancelled = true) } });
    const controller = new AbortController();
    const pending = client.callTool({ name: 'hang', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort('user pressed Esc');
    await expect(pending).rejects.toThrow();
    await expect.poll(() => cancelled).toBe(true);
  });
});
