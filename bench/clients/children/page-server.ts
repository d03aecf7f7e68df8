// A real MCP server (the SDK's McpServer over stdio) with a page API: `get_page` answers a
// ~300 KB Confluence page as JSON text, `update_page` writes the body it receives to the file
// named by the first argument, to check what reached the upstream tool through the proxy.
import { writeFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { minifiedPage } from '../../../spec/helpers/confluence-page.js';

const received = process.argv[2];
if (!received) throw new Error('usage: page-server.ts RECEIVED_FILE');
const server = new McpServer({ name: 'page-server', version: '1.0.0' });
server.registerTool(
  'get_page',
  { description: 'Fetches a page with its body.', inputSchema: { page_id: z.number() } },
  () => ({ content: [{ type: 'text', text: minifiedPage() }] }),
);
server.registerTool(
  'update_page',
  {
    description: 'Replaces a page with the given document.',
    inputSchema: { page_id: z.number(), body: z.record(z.string(), z.unknown()) },
  },
  async ({ page_id, body }) => {
    await writeFile(received, JSON.stringify(body));
    return { content: [{ type: 'text', text: `page ${page_id} updated` }] };
  },
);
await server.connect(new StdioServerTransport());
