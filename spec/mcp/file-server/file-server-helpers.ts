import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createFileServer, type FileServerOptions } from 'spoolforge/mcp';
import { afterEach } from 'vitest';

/** A tool result as the SDK client returns it. */
export interface ToolResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}

/** A client of a file server, both closed after the test. */
export interface FileServerClient {
  client: Client;
  /** Calls a tool and returns its result's text, checking it is (not) an error. */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  text(name: string, args: Record<string, unknown>): Promise<string>;
  error(name: string, args: Record<string, unknown>): Promise<string>;
}

const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The text of a result's parts. */
export function textOf(result: ToolResult): string {
  return result.content.map((part) => part.text ?? '').join('\n');
}

/** A real SDK client connected in memory to `createFileServer(options)`. */
export async function connectFileServer(options: FileServerOptions): Promise<FileServerClient> {
  const server = createFileServer(options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  return {
    client,
    call,
    async text(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return textOf(result);
    },
    async error(name, args) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} succeeded: ${textOf(result)}`);
      return textOf(result);
    },
  };
}
