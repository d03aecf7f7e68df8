// `spoolforge mcp serve` as a client starts it: the built CLI as a stdio child process, queried
// through the SDK's stdio client; and its usage errors.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/run-cli.js';
import { tempDirectory } from '../helpers/temp-files.js';

describe('spoolforge mcp serve', () => {
  it('serves the file tools on stdio until the client leaves', async () => {
    const first = await tempDirectory();
    const second = await tempDirectory();
    const log = Array.from(
      { length: 100_000 },
      (_, line) => `line ${line + 1}${line === 76_542 ? ' FATAL' : ''}\n`,
    );
    await writeFile(join(first, 'app.log'), log.join(''));
    await writeFile(join(second, 'notes.md'), '# Notes\n\n## Today\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', 'serve', '--root', first, `--root=${second}`],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(transport);
    const { pid } = transport;
    expect(pid).toBeGreaterThan(0);
    try {
      expect(client.getServerVersion()?.name).toBe('spoolforge');
      expect(client.getInstructions()).toContain(`files under ${first}, ${second}`);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'file_read',
        'file_grep',
        'file_stat',
        'file_list',
        'file_json',
        'file_md',
      ]);
      const grep = await client.callTool({
        name: 'file_grep',
        arguments: { path: 'app.log', pattern: 'FATAL' },
      });
      expect(grep).toEqual({
        content: [{ type: 'text', text: '76543:line 76543 FATAL\n1 matching line.\n' }],
      });
      const md = await client.callTool({
        name: 'file_md',
        arguments: { path: join(second, 'notes.md'), op: 'headings' },
      });
      expect(md.content).toEqual([{ type: 'text', text: '1:# Notes\n3:## Today\n2 headings.\n' }]);
      const outside = await client.callTool({
        name: 'file_read',
        arguments: { path: '/etc/hostname' },
      });
      expect(outside.isError).toBe(true);
    } finally {
      await client.close();
    }
    const alive = () => {
      try {
        return process.kill(pid ?? 0, 0);
      } catch {
        return false;
      }
    };
    await expect.poll(alive).toBe(false);
  });

  it('exits 0 when standard input ends', async () => {
    const root = await tempDirectory();
    const { status, stdout } = await runCli(['mcp', 'serve', '--root', root]);
    expect({ status, stdout: stdout.toString() }).toEqual({ status: 0, stdout: '' });
  });

  it('prints its usage with --help', async () => {
    const { status, stdout } = await runCli(['mcp', 'serve', '--help']);
    expect(status).toBe(0);
    expect(stdout.toString()).toMatch(
      /^Usage: spoolforge mcp serve --root DIR\.\.\. \[--allow-url PREFIX\.\.\.\]/,
    );
  });

  it('refuses to start without a root or URL prefix, with a missing root, with a bad prefix', async () => {
    const root = await tempDirectory();
    expect(await runCli(['mcp', 'serve'])).toMatchObject({
      status: 2,
      stderr: 'spoolforge: mcp serve needs at least one --root DIR or --allow-url PREFIX\n',
    });
    expect(await runCli(['mcp', 'serve', '--root', join(root, 'missing')])).toMatchObject({
      status: 2,
      stderr: `spoolforge: ${join(root, 'missing')}: No such file or directory\n`,
    });
    expect(await runCli(['mcp', 'serve', '--allow-url', 'ftp://example.com/'])).toMatchObject({
      status: 2,
      stderr:
        'spoolforge: An allowed URL prefix must be an http(s) URL without credentials or encoded separators: "ftp://example.com/"\n',
    });
    expect(await runCli(['mcp', 'serve', '--root'])).toMatchObject({ status: 2 });
    expect(await runCli(['mcp', 'serve', '--root', root, 'extra'])).toMatchObject({ status: 2 });
  });
});
