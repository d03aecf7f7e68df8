// The tools spoolforge declares over MCP (`spoolforge mcp serve`, and the proxy's query tools)
// carry no `null` in their input schemas, which MCP inspectors flag as not portable; their
// optional arguments may simply be left out.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/run-cli.js';
import { tempDirectory } from '../helpers/temp-files.js';
import { handleId, proxiedClient, textOf } from './proxy/proxy-helpers.js';

/** Every place in `schema` where `null` is a type (alone, in a union or an `anyOf`) or a value. */
function nullsIn(schema: unknown, path = '$'): string[] {
  if (schema === null) return [path];
  if (Array.isArray(schema))
    return schema.flatMap((each, index) => nullsIn(each, `${path}[${index}]`));
  if (typeof schema !== 'object')
    return schema === 'null' && /\.type(\[\d+\])?$/.test(path) ? [path] : [];
  return Object.entries(schema).flatMap(([key, value]) => nullsIn(value, `${path}.${key}`));
}

function nullsOfTools(tools: Tool[]): string[] {
  return tools.flatMap((tool) => nullsIn(tool.inputSchema, tool.name));
}

describe('MCP input schemas of spoolforge tools', () => {
  it('mcp serve lists no null type, and its tools run with the optional arguments left out', async () => {
    const root = await tempDirectory();
    const lines = Array.from(
      { length: 50 },
      (_, line) => `line ${line + 1}${line === 41 ? ' FATAL' : ''}\n`,
    );
    await writeFile(join(root, 'app.log'), lines.join(''));
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', 'serve', '--root', root],
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(3);
      expect(nullsOfTools(tools)).toEqual([]);
      const read = (await client.callTool({
        name: 'file_read',
        arguments: { path: 'app.log' },
      })) as CallToolResult;
      expect(read.isError).toBeFalsy();
      expect(textOf(read)).toContain('42:line 42 FATAL');
      const grep = (await client.callTool({
        name: 'file_grep',
        arguments: { path: 'app.log', pattern: 'FATAL' },
      })) as CallToolResult;
      expect(textOf(grep)).toContain('42:line 42 FATAL\n');
      const list = (await client.callTool({ name: 'file_list', arguments: {} })) as CallToolResult;
      expect(list.isError).toBeFalsy();
      expect(textOf(list)).toContain(root);
      // A null sent anyway is still read as left out.
      const nulls = (await client.callTool({
        name: 'file_read',
        arguments: { path: 'app.log', start: null, end: null, last: 2 },
      })) as CallToolResult;
      expect(textOf(nulls)).toContain('50:line 50');
    } finally {
      await client.close();
    }
  });

  it('the proxy lists no null type in its query tools, which run with the optional arguments left out', async () => {
    const proxied = await proxiedClient();
    try {
      const { tools } = await proxied.client.listTools();
      const own = tools.filter((tool) => tool.name.startsWith('artifact_'));
      expect(own.length).toBeGreaterThan(3);
      expect(nullsOfTools(tools)).toEqual([]);
      const id = handleId(await proxied.call('big_text', { megabytes: 3 }));
      const read = await proxied.call('artifact_read', { callId: id });
      expect(read.isError).toBeFalsy();
      expect(textOf(read)).toMatch(/^1:INFO worker 0/m);
      const grep = await proxied.call('artifact_grep', { callId: id, pattern: 'NEEDLE-7f3a' });
      expect(grep.isError).toBeFalsy();
      expect(textOf(grep)).toContain('NEEDLE-7f3a');
    } finally {
      await proxied.close();
    }
  });
});
