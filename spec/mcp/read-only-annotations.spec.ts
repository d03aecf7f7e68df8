// Every tool spoolforge serves over MCP only reads, and says so: `codex exec` runs a tool
// annotated read-only without asking, and refuses any other under its default approval policy.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createFileServer } from 'spoolforge/mcp';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';
import { proxiedClient } from './proxy/proxy-helpers.js';

const readOnly = { readOnlyHint: true };

describe('read-only annotations', () => {
  it("annotate the proxy's query tools, and leave the upstream's tools as they were", async () => {
    const proxied = await proxiedClient();
    try {
      const { tools } = await proxied.client.listTools();
      const own = tools.filter((tool) => tool.name.startsWith('artifact_'));
      expect(own.map((tool) => tool.name)).toContain('artifact_grep');
      for (const tool of own) expect(tool.annotations).toEqual(readOnly);
      expect(tools.find((tool) => tool.name === 'big_text')?.annotations).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it("annotate every tool of mcp serve's file server", async () => {
    const server = createFileServer({ roots: [await tempDirectory()] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('file_grep');
      for (const tool of tools) expect(tool.annotations).toEqual(readOnly);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
