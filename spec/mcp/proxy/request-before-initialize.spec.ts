// A client that sends a request before `initialize`, as Claude Code 2.1 does with its
// `server/discover` probe: the proxy answers it with an error and still initializes after it.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ArtifactStore } from 'spoolforge';
import { McpSpoolProxy } from 'spoolforge/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpTestServer } from '../../helpers/mcp-test-server.js';
import { tempDirectory } from '../../helpers/temp-files.js';

let proxy: McpSpoolProxy | undefined;
afterEach(async () => {
  await proxy?.close();
});

/** A raw JSON-RPC client of a fresh proxy: `send` resolves with the answer to its id. */
async function rawClient() {
  proxy = new McpSpoolProxy({
    upstream: async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpTestServer().connect(serverSide);
      return clientSide;
    },
    store: await ArtifactStore.open(await tempDirectory()),
    label: 'test server',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  const waiting = new Map<string | number, (message: JSONRPCMessage) => void>();
  clientSide.onmessage = (message) => {
    if ('id' in message && message.id !== undefined && !('method' in message)) {
      waiting.get(message.id)?.(message);
    }
  };
  await clientSide.start();
  return {
    send: (message: JSONRPCMessage & { id: string | number }) =>
      new Promise<JSONRPCMessage>((resolve) => {
        waiting.set(message.id, resolve);
        void clientSide.send(message);
      }),
    notify: (method: string) => clientSide.send({ jsonrpc: '2.0', method }),
  };
}

describe('a request before initialize', () => {
  it('is answered with an error, and the initialize after it connects the upstream', async () => {
    const client = await rawClient();
    const probe = await client.send({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      method: 'server/discover',
      params: {},
    });
    expect(probe).toMatchObject({ id: 'server-discover-probe-1', error: { code: -32600 } });
    const initialized = await client.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'claude-code', version: '2.1.332' },
      },
    });
    expect(initialized).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    await client.notify('notifications/initialized');
    const listed = (await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as {
      result?: { tools: { name: string }[] };
    };
    const names = listed.result?.tools.map((tool) => tool.name) ?? [];
    expect(names).toContain('big_text');
    expect(names).toContain('artifact_grep');
  });
});
