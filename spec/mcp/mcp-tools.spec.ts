import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Media,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpooledMarkdownArtifact,
  ToolSession,
} from 'spoolforge';
import { toAnthropicTools } from 'spoolforge/anthropic';
import { mcpTools } from 'spoolforge/mcp';
import { toChatCompletionsTools } from 'spoolforge/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bigText,
  connectInMemoryTestServer,
  connectStdioTestServer,
  needle,
  pngBase64,
} from '../helpers/mcp-test-server.js';

type Outcome = { content: { type: string; text?: string }[]; isError: boolean } | undefined;
const textOf = (outcome: Outcome) => outcome?.content.map((part) => part.text ?? '').join('\n');

async function call(session: ToolSession, id: string, name: string, args: Record<string, unknown>) {
  const dispatch = session.dispatch();
  dispatch.ack();
  const [outcome] = await session.run([{ id, name, arguments: args }], dispatch);
  return outcome;
}

/** Calls a tool that returns `megabytes` MB of text and greps the spooled result for the needle. */
async function spoolsAndGreps(client: Client, megabytes: number) {
  await using session = new ToolSession({ tools: await mcpTools(client) });
  const outcome = await call(session, 'call_big', 'big_text', { megabytes });
  expect(outcome?.isError).toBe(false);
  expect(outcome?.call.results).toBeInstanceOf(SpooledArtifact);
  expect(await (outcome?.call.results as SpooledArtifact | undefined)?.byteLength()).toBe(
    Buffer.byteLength(bigText(megabytes)),
  );
  expect(textOf(outcome)).toContain('call_big');
  const grep = await call(session, 'q1', 'artifact_grep', {
    callId: 'call_big',
    pattern: 'NEEDLE',
    fixed: true,
  });
  expect(grep?.isError).toBe(false);
  expect(textOf(grep)).toContain(needle);
}

describe('mcpTools over stdio (the test server as a child process)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectStdioTestServer({ maxBufferSize: 64 * 1024 * 1024 });
  });
  afterAll(() => client.close());

  it("lists the server's tools; OpenAI strict and Anthropic definitions carry its schema", async () => {
    const tools = await mcpTools(client);
    expect(tools.map((tool) => tool.name)).toEqual([
      'big_text',
      'big_json',
      'markdown',
      'image',
      'big_image',
      'log_with_status',
      'update_page',
      'mixed',
      'hang',
      'fail',
      'crash',
      'torn',
      'noisy',
    ]);
    const prefixed = await mcpTools(client, { prefix: 'test_' });
    expect(prefixed[0]?.name).toBe('test_big_text');
    const anthropic = toAnthropicTools(tools).find((tool) => tool.name === 'big_text');
    expect(anthropic?.description).toBe('Returns a big log as one text part.');
    expect(anthropic?.input_schema).toEqual({
      type: 'object',
      properties: { megabytes: { type: 'integer', minimum: 1, description: 'Size in MB' } },
      required: ['megabytes'],
      // The server's schema leaves extra properties allowed, as this says (zod writes it so).
      additionalProperties: {},
    });
    const openai = toChatCompletionsTools(tools).find((tool) => tool.function.name === 'fail');
    expect(openai?.function.strict).toBe(true);
    expect(openai?.function.parameters).toEqual({
      type: 'object',
      properties: { reason: { type: 'string' } },
      required: ['reason'],
      additionalProperties: false,
    });
  });

  it('spools a 12 MB result (over the 10 MiB stdio default, with maxBufferSize raised)', async () => {
    await spoolsAndGreps(client, 12);
  });

  it('an image alone is Media', async () => {
    await using session = new ToolSession({ tools: await mcpTools(client) });
    const image = await call(session, 'call_img', 'image', {});
    expect(image?.isError).toBe(false);
    expect(Media.isInstance(image?.call.results)).toBe(true);
    const media = image?.call.results as Media;
    expect(media.mediaType).toBe('image/png');
    expect(Buffer.from(media.bytes).toString('base64')).toBe(pngBase64);
  });

  it('mixed content is text naming the image and the link, with embedded text resources', async () => {
    await using session = new ToolSession({ tools: await mcpTools(client) });
    const outcome = await call(session, 'call_mixed', 'mixed', {});
    const pngBytes = Buffer.from(pngBase64, 'base64').length;
    expect(outcome?.call.results).toBe(
      `the chart:\n[image image/png, ${pngBytes} bytes]\n[resource file:///report.md "report" (text/markdown)]\nembedded notes`,
    );
  });

  it('an isError result is an error result the model reads, with the server text', async () => {
    await using session = new ToolSession({ tools: await mcpTools(client) });
    const outcome = await call(session, 'call_fail', 'fail', { reason: 'disk full' });
    expect(outcome?.isError).toBe(true);
    expect(outcome?.call.error?.code).toBe('E_TOOL_FAILED');
    expect(textOf(outcome)).toContain('cannot: disk full');
  });

  it('arguments that break the server schema are refused before the call', async () => {
    await using session = new ToolSession({ tools: await mcpTools(client) });
    const outcome = await call(session, 'call_bad', 'big_text', { megabytes: 'lots' });
    expect(outcome?.isError).toBe(true);
    expect(outcome?.call.error?.code).toBe('E_INVALID_TOOL_ARGS');
  });
});

describe("the SDK's stdio default of 10 MiB a message", () => {
  it('closes the connection on a 30 MB result: the call fails with "Connection closed"', async () => {
    const client = await connectStdioTestServer();
    const errors: unknown[] = [];
    client.onerror = (error) => errors.push(error);
    await expect(
      client.callTool({ name: 'big_text', arguments: { megabytes: 30 } }),
    ).rejects.toThrow(/Connection closed/);
    expect(String(errors[0])).toContain('ReadBuffer exceeded maximum size of 10485760 bytes');
    await client.close();
  });
});

// The SDK's stdio reader copies its whole buffer on every chunk, so 30 MB takes ~27 s over
// stdio even with the limit raised: the big results go in memory.
describe('mcpTools over an in-memory transport', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectInMemoryTestServer();
  });
  afterAll(() => client.close());

  it('spools 30 MB of text, and artifact_grep finds the needle', async () => {
    await spoolsAndGreps(client, 30);
  });

  it('20 MB of structured content is a JSON artifact; Markdown a Markdown artifact', async () => {
    await using session = new ToolSession({ tools: await mcpTools(client) });
    const json = await call(session, 'call_json', 'big_json', { rows: 200_000 });
    expect(json?.call.results).toBeInstanceOf(SpooledJsonArtifact);
    expect(await (json?.call.results as SpooledArtifact | undefined)?.byteLength()).toBeGreaterThan(
      20_000_000,
    );
    const md = await call(session, 'call_md', 'markdown', {});
    expect(md?.call.results).toBeInstanceOf(SpooledMarkdownArtifact);
  });

  it('an abort cancels the call on the server (notifications/cancelled) and rejects', async () => {
    let cancelled: (reason: unknown) => void = () => undefined;
    const serverSaw = new Promise<unknown>((resolve) => {
      cancelled = resolve;
    });
    const hanging = await connectInMemoryTestServer({ onCancelled: cancelled });
    const hang = (await mcpTools(hanging)).find((tool) => tool.name === 'hang');
    const controller = new AbortController();
    const context = { signal: controller.signal, toolCallId: 'x', dispatch: undefined as never };
    const result = Promise.resolve(hang?.handler({}, context));
    setTimeout(() => controller.abort(new Error('gave up')), 50);
    await expect(result).rejects.toThrow(/gave up/);
    expect(String(await serverSaw)).toContain('gave up');
    await hanging.close();
  });
});

describe('mcpTools over a paginated tools/list', () => {
  it('reads every page', async () => {
    const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
    const pages: Record<string, { tools: { name: string }[]; nextCursor?: string }> = {
      '': { tools: [{ name: 'a' }, { name: 'b' }], nextCursor: 'p2' },
      p2: { tools: [{ name: 'c' }], nextCursor: 'p3' },
      p3: { tools: [{ name: 'd' }] },
    };
    server.setRequestHandler(ListToolsRequestSchema, ({ params }) => {
      const page = pages[params?.cursor ?? ''] ?? { tools: [] };
      return {
        ...page,
        tools: page.tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' as const } })),
      };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const paged = new Client({ name: 'spec', version: '1.0.0' });
    await paged.connect(clientSide);
    expect((await mcpTools(paged)).map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd']);
    await paged.close();
  });
});
