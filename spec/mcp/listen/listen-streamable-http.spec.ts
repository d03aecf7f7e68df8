import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ArtifactStore } from 'spoolforge';
import { type Listener, listenStreamableHttp, McpSpoolProxy } from 'spoolforge/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestServer, needle } from '../../helpers/mcp-test-server.js';
import { tempDirectory } from '../../helpers/temp-files.js';
import { initialize, post } from './http-post.js';

const closers: (() => Promise<void>)[] = [];
let upstreamsOpened = 0;
afterEach(async () => {
  upstreamsOpened = 0;
  for (const close of closers.splice(0).reverse()) await close();
});

async function listening(options: { token?: string; allowedOrigins?: string[] } = {}) {
  const store = await ArtifactStore.open(await tempDirectory());
  const proxy = new McpSpoolProxy({
    upstream: async () => {
      upstreamsOpened++;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpTestServer().connect(serverSide);
      return clientSide;
    },
    store,
  });
  const listener: Listener = await listenStreamableHttp(proxy, {
    host: '127.0.0.1',
    port: 0,
    ...options,
  });
  closers.push(
    () => proxy.close(),
    () => listener.close(),
  );
  return listener;
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'listen-spec', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  closers.push(() => client.close());
  return client;
}

describe('listenStreamableHttp', () => {
  it('serves the proxy at /mcp: a big result is a handle, and its grep works over HTTP', async () => {
    const { url } = await listening();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(url);
    const result = (await client.callTool({
      name: 'big_text',
      arguments: { megabytes: 2 },
    })) as CallToolResult;
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const id = /callId "([^"]+)"/.exec(text)?.[1];
    const grep = (await client.callTool({
      name: 'artifact_grep',
      arguments: { callId: id, pattern: needle, fixed: true },
    })) as CallToolResult;
    expect(grep.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(needle) });
  });

  it('refuses a foreign Host or Origin (DNS rebinding) and another path', async () => {
    const { url } = await listening({ allowedOrigins: ['https://app.example'] });
    const port = new URL(url).port;
    expect((await post(url, initialize, { host: `evil.example:${port}` })).status).toBe(403);
    expect((await post(url, initialize, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url.replace('/mcp', '/other'), initialize)).status).toBe(404);
    expect((await post(url, initialize, { origin: 'https://app.example' })).status).toBe(200);
    expect((await post(url, initialize, { origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it('starts a session only for an initialize, and matches allowed origins in any case', async () => {
    const { url } = await listening({ allowedOrigins: ['https://App.Example.com/'] });
    const notInitialize = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(notInitialize.status).toBe(400);
    expect(upstreamsOpened).toBe(0);
    expect((await post(url, initialize, { origin: 'https://app.example.com' })).status).toBe(200);
  });

  it('refuses to listen beyond this machine without a token', async () => {
    const store = await ArtifactStore.open(await tempDirectory());
    const proxy = new McpSpoolProxy({
      upstream: () => InMemoryTransport.createLinkedPair()[0],
      store,
    });
    await expect(listenStreamableHttp(proxy, { host: '0.0.0.0', port: 0 })).rejects.toThrow(
      /beyond this machine, needs a bearer token/,
    );
  });

  it('requires the bearer token when one is set', async () => {
    const { url } = await listening({ token: 's3cret' });
    const refused = await post(url, initialize);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('Bearer');
    expect((await post(url, initialize, { authorization: 'Bearer wrong!' })).status).toBe(401);
    expect((await post(url, initialize, { authorization: 'bearer s3cret' })).status).toBe(200);
    const client = await connect(url, { authorization: 'Bearer s3cret' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('artifact_grep');
  });
});
