// A proxy between an SDK client and the MCP test server, all in this process, over the SDK's
// in-memory transports (the stdio legs have their own specs).

import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ArtifactStore } from 'spoolforge';
import {
  McpSpoolProxy,
  type McpSpoolProxyOptions,
  type SpilledValues,
  StdioUpstreamTransport,
  type StdioUpstreamTransportOptions,
} from 'spoolforge/mcp';
import { createMcpTestServer, type McpTestServerOptions } from '../../helpers/mcp-test-server.js';
import { tempDirectory } from '../../helpers/temp-files.js';

export interface ProxiedClient {
  client: Client;
  proxy: McpSpoolProxy;
  store: ArtifactStore;
  directory: string;
  /** Calls a tool through the proxy. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A client of a proxy of a fresh test server, its store in `directory` (default a new one). */
export async function proxiedClient(
  options: Partial<McpSpoolProxyOptions> & {
    directory?: string;
    server?: McpTestServerOptions;
  } = {},
): Promise<ProxiedClient> {
  const directory = options.directory ?? (await tempDirectory());
  const store = await ArtifactStore.open(directory);
  const proxy = new McpSpoolProxy({
    upstream: async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpTestServer(options.server).connect(serverSide);
      return clientSide;
    },
    store,
    label: 'test server',
    ...options,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  const client = new Client({ name: 'proxy-spec', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    proxy,
    store,
    directory,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await proxy.close();
    },
  };
}

/** The text parts of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The id a handle names as `callId "…"`. */
export function handleId(result: CallToolResult): string {
  const id = /callId "([^"]+)"/.exec(textOf(result))?.[1];
  if (!id) throw new Error(`No callId in ${textOf(result).slice(0, 300)}`);
  return id;
}

const testServer = fileURLToPath(new URL('../../helpers/mcp-test-server.ts', import.meta.url));

/** A factory of the streaming stdio leg to the test server run as a child process. */
export function stdioUpstream(
  spilled: SpilledValues,
  options: Pick<StdioUpstreamTransportOptions, 'maxMessageBytes' | 'writer'> = {},
) {
  return () =>
    new StdioUpstreamTransport({
      command: process.execPath,
      args: ['--import', 'tsx', testServer],
      spilled,
      stderr: 'pipe',
      spillBytes: 16 * 1024,
      ...options,
    });
}

/** A JSON-RPC client that speaks to a proxy message by message, as a client binary does. */
export interface RawProxyClient {
  proxy: McpSpoolProxy;
  /** Sends a request and resolves with the message that answers its id. */
  send(message: JSONRPCMessage & { id: string | number }): Promise<JSONRPCMessage>;
  notify(method: string): Promise<void>;
  /** `initialize` on `protocolVersion` as the client `name`, then `notifications/initialized`. */
  initialize(protocolVersion: string, name: string): Promise<JSONRPCMessage>;
  /** Calls a tool and resolves with its result. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** A raw client of a fresh proxy of the test server (close it with `proxy.close()`). */
export async function rawProxyClient(): Promise<RawProxyClient> {
  const proxy = new McpSpoolProxy({
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
  let nextId = 100;
  const send = (message: JSONRPCMessage & { id: string | number }) =>
    new Promise<JSONRPCMessage>((resolve) => {
      waiting.set(message.id, resolve);
      void clientSide.send(message);
    });
  const notify = (method: string) => clientSide.send({ jsonrpc: '2.0', method });
  return {
    proxy,
    send,
    notify,
    async initialize(protocolVersion, name) {
      const answer = await send({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name, version: '1.0.0' } },
      });
      await notify('notifications/initialized');
      return answer;
    },
    async call(name, args) {
      const answer = (await send({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name, arguments: args },
      })) as { result?: CallToolResult };
      if (!answer.result) throw new Error(`tools/call ${name}: ${JSON.stringify(answer)}`);
      return answer.result;
    },
  };
}
