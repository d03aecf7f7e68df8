/**
 * The bench's upstream MCP server (the SDK's `McpServer` on stdio; run with
 * `node --import tsx`): `text {bytes}` returns a generated log of that many bytes as one text
 * part, `small {}` a short text, `stats {}` this process's id, peak RSS and how long its last
 * `text` took to build, as JSON text.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { logText } from '../log-text.js';

const server = new McpServer({ name: 'spoolforge-bench-upstream', version: '1.0.0' });
let lastBuildMilliseconds = 0;

server.registerTool(
  'text',
  {
    description: 'Returns a generated log of that many bytes as one text part.',
    inputSchema: { bytes: z.number().int().min(1) },
  },
  ({ bytes }) => {
    const start = performance.now();
    const text = logText(bytes);
    lastBuildMilliseconds = performance.now() - start;
    return { content: [{ type: 'text', text }] };
  },
);

server.registerTool('small', { description: 'Returns a short text.', inputSchema: {} }, () => ({
  content: [{ type: 'text', text: 'ok: 3 files changed, 12 insertions(+), 4 deletions(-)' }],
}));

server.registerTool(
  'stats',
  { description: "This process's peak RSS and last build time.", inputSchema: {} },
  () => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          pid: process.pid,
          // maxRSS is in KiB on Linux.
          peakRssBytes: process.resourceUsage().maxRSS * 1024,
          lastBuildMilliseconds,
        }),
      },
    ],
  }),
);

await server.connect(new StdioServerTransport());
