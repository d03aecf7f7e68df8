// A real MCP server (the SDK's McpServer) whose tools send one output twice, as servers do in the
// wild: `read_text_file` as the reference filesystem server does (the file as a text part and as
// `structuredContent: { content }`, with an output schema), the text deeper in the structured
// content, the structured content as the parsed JSON of the text, and a text and a structured
// string of the same length that differ in their last byte. Run as a child process
// (`node --import tsx spec/helpers/repeating-mcp-server.ts`) it serves stdio; imported,
// `createRepeatingServer()` gives the server for an in-memory transport.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { rowsOutputSchema, rowsResult } from './mcp-test-server.js';

/** The server, not yet connected. */
export function createRepeatingServer(): McpServer {
  const server = new McpServer({ name: 'spoolforge-repeating-server', version: '1.0.0' });
  const read = (path: string) => readFile(path, 'utf8');
  server.registerTool(
    'read_text_file',
    {
      description: 'Reads a file as the reference filesystem server does.',
      inputSchema: { path: z.string() },
      outputSchema: { content: z.string() },
    },
    async ({ path }) => {
      const content = await read(path);
      return { content: [{ type: 'text', text: content }], structuredContent: { content } };
    },
  );
  server.registerTool(
    'nested',
    {
      description: 'The file as text, and deep in structured content beside small values.',
      inputSchema: { path: z.string() },
      outputSchema: {
        report: z.object({ files: z.array(z.object({ path: z.string(), text: z.string() })) }),
        ok: z.boolean(),
      },
    },
    async ({ path }) => {
      const text = await read(path);
      return {
        content: [{ type: 'text', text }],
        structuredContent: { report: { files: [{ path, text }] }, ok: true },
      };
    },
  );
  server.registerTool(
    'json_text',
    {
      description: 'Rows as structured content, and as their JSON in a text part.',
      inputSchema: { rows: z.number().int().min(1) },
      outputSchema: rowsOutputSchema,
    },
    ({ rows }) => rowsResult(rows),
  );
  server.registerTool(
    'differ',
    {
      description: 'The file as text; structured content holds it with its last character changed.',
      inputSchema: { path: z.string() },
      outputSchema: { content: z.string() },
    },
    async ({ path }) => {
      const text = await read(path);
      const content = `${text.slice(0, -1)}${text.endsWith('#') ? '%' : '#'}`;
      return { content: [{ type: 'text', text }], structuredContent: { content } };
    },
  );
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createRepeatingServer().connect(new StdioServerTransport());
}
