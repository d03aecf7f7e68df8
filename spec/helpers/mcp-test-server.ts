// A real MCP server (the SDK's McpServer) whose tools return what MCP servers return in the wild:
// huge text, huge structured JSON, Markdown, an image, mixed content and an isError result.
// Run as a child process (`node --import tsx spec/helpers/mcp-test-server.ts`) it serves stdio;
// imported, `createMcpTestServer()` gives the server for an in-memory transport.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** The line `big_text` puts near its end, for a grep to find. */
export const needle = 'NEEDLE-7f3a the build failed here';

/** A 1×1 transparent PNG. */
export const pngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** `megabytes` MB of numbered log lines with {@link needle} second to last, built in a few ms. */
export function bigText(megabytes: number): string {
  const block = Array.from({ length: 1_000 }, (_, i) => `INFO worker ${i} ${'x'.repeat(80)}`).join(
    '\n',
  );
  const blocks = Math.ceil((megabytes * 1_000_000) / (block.length + 1));
  return `${`${block}\n`.repeat(blocks)}${needle}\nINFO done\n`;
}

/** An image of `kilobytes` KiB, base64 (not a real PNG: nothing decodes it). */
export function bigImageBase64(kilobytes: number): string {
  return Buffer.alloc(kilobytes * 1024, 0x89).toString('base64');
}

/** About `kilobytes` KB of numbered log lines ending with {@link needle}. */
export function logLines(kilobytes: number): string {
  const count = Math.ceil((kilobytes * 1000) / 40);
  const lines = Array.from({ length: count }, (_, i) => `line ${i} of the log ${'-'.repeat(20)}`);
  return `${lines.join('\n')}\n${needle}\n`;
}

/** The output schema of a tool whose structured content is {@link rowsResult}'s. */
export const rowsOutputSchema = {
  rows: z.array(z.object({ id: z.number(), name: z.string() })),
};

/** `rows` rows as structured content, and their JSON as text (as the MCP spec asks). */
export function rowsResult(rows: number) {
  const structuredContent = {
    rows: Array.from({ length: rows }, (_, id) => ({ id, name: `row ${id} ${'y'.repeat(60)}` })),
  };
  return {
    structuredContent,
    content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }],
  };
}

/** Options for {@link createMcpTestServer}. */
export interface McpTestServerOptions {
  /** Called when a call of `hang` is cancelled by its client. */
  onCancelled?: (reason: unknown) => void;
}

/** The server, not yet connected. */
export function createMcpTestServer(options: McpTestServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'spoolforge-test-server', version: '1.0.0' });
  server.registerTool(
    'big_text',
    {
      description: 'Returns a big log as one text part.',
      inputSchema: { megabytes: z.number().int().min(1).describe('Size in MB') },
    },
    ({ megabytes }) => ({ content: [{ type: 'text', text: bigText(megabytes) }] }),
  );
  server.registerTool(
    'big_json',
    {
      description: 'Returns many rows as structured content.',
      inputSchema: { rows: z.number().int().min(1) },
      outputSchema: rowsOutputSchema,
    },
    ({ rows }) => rowsResult(rows),
  );
  server.registerTool(
    'markdown',
    { description: 'Returns a Markdown report.', inputSchema: {} },
    () => ({
      content: [
        {
          type: 'text',
          text: Array.from(
            { length: 400 },
            (_, i) => `## Section ${i}\n\nSome *findings* for section ${i}.\n`,
          ).join('\n'),
        },
      ],
    }),
  );
  server.registerTool('image', { description: 'Returns a PNG.', inputSchema: {} }, () => ({
    content: [{ type: 'image', data: pngBase64, mimeType: 'image/png' }],
  }));
  server.registerTool(
    'big_image',
    {
      description: 'Returns an image of the given size.',
      inputSchema: { kilobytes: z.number().int().min(1) },
    },
    ({ kilobytes }) => ({
      content: [{ type: 'image', data: bigImageBase64(kilobytes), mimeType: 'image/png' }],
    }),
  );
  server.registerTool(
    'log_with_status',
    {
      description: 'Returns a log as text and a small status as structured content.',
      inputSchema: { kilobytes: z.number().int().min(1) },
    },
    ({ kilobytes }) => ({
      content: [{ type: 'text', text: logLines(kilobytes) }],
      structuredContent: { ok: false, failures: 1 },
    }),
  );
  server.registerTool(
    'update_page',
    {
      description: 'Stores a page body at a version; answers what it received.',
      inputSchema: {
        body: z.string(),
        version: z.number().int(),
        notes: z.array(z.string()).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
      },
    },
    ({ body, version, notes, meta }) => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            sha256: createHash('sha256').update(body).digest('hex'),
            bytes: Buffer.byteLength(body),
            version,
            notes,
            meta,
          }),
        },
      ],
    }),
  );
  server.registerPrompt('big_prompt', { description: 'A prompt with a long log in it.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: logLines(200) } }],
  }));
  server.registerResource(
    'big_log',
    'test://big-log',
    { description: 'A long log.', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: logLines(200) }] }),
  );
  server.registerTool('mixed', { description: 'Text, an image, a link.', inputSchema: {} }, () => ({
    content: [
      { type: 'text', text: 'the chart:' },
      { type: 'image', data: pngBase64, mimeType: 'image/png' },
      {
        type: 'resource_link',
        uri: 'file:///report.md',
        name: 'report',
        mimeType: 'text/markdown',
      },
      { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'embedded notes' } },
    ],
  }));
  server.registerTool(
    'hang',
    { description: 'Answers only when cancelled.', inputSchema: {} },
    (_args, extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          options.onCancelled?.(extra.signal.reason);
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      }),
  );
  server.registerTool(
    'fail',
    { description: 'Always fails.', inputSchema: { reason: z.string() } },
    ({ reason }) => ({ isError: true, content: [{ type: 'text', text: `cannot: ${reason}` }] }),
  );
  // The three below touch the process: they make sense only when this file runs as a child.
  server.registerTool(
    'crash',
    { description: 'Writes to stderr and exits with status 3.', inputSchema: {} },
    () => {
      process.stderr.write('fatal: the test server crashed on purpose\n', () => process.exit(3));
      return new Promise<never>(() => undefined);
    },
  );
  server.registerTool(
    'torn',
    { description: 'Writes half a message on stdout and exits with status 4.', inputSchema: {} },
    () => {
      const half = `{"jsonrpc":"2.0","id":999,"result":{"content":[{"type":"text","text":"${'t'.repeat(100_000)}`;
      process.stdout.write(half, () => process.exit(4));
      return new Promise<never>(() => undefined);
    },
  );
  server.registerTool(
    'noisy',
    { description: 'Prints a banner on stdout, then answers.', inputSchema: {} },
    () => {
      process.stdout.write('debug: not a JSON-RPC line\n');
      return { content: [{ type: 'text', text: 'after the noise' }] };
    },
  );
  return server;
}

/** An SDK client connected to a fresh test server in this process. */
export async function connectInMemoryTestServer(
  options: McpTestServerOptions = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpTestServer(options).connect(serverSide);
  const client = new Client({ name: 'spoolforge-spec', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** An SDK client connected over stdio to this file run as a child process. */
export async function connectStdioTestServer(
  options: { maxBufferSize?: number } = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fileURLToPath(import.meta.url)],
    stderr: 'ignore',
    ...options,
  });
  const client = new Client({ name: 'spoolforge-spec', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createMcpTestServer().connect(new StdioServerTransport());
}
