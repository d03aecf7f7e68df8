// A real MCP server (the SDK's McpServer over stdio) with one tool that answers the text it is
// given as its only content, without structured content: to see what a client does with a
// text that parses as JSON.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'text-server', version: '1.0.0' });
server.registerTool(
  'reply_text',
  { description: 'Answers with the given text.', inputSchema: { text: z.string() } },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
