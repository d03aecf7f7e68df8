import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/artifact/tokens/load-tokenizer.js';
import { needle } from '../helpers/mcp-test-server.js';
import { cliPath, runCli } from '../helpers/run-cli.js';
import { tempDirectory } from '../helpers/temp-files.js';

const testServer = fileURLToPath(new URL('../helpers/mcp-test-server.ts', import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** An SDK client of `spoolforge mcp [options] -- node test-server` over stdio. */
async function proxyClient(options: string[], stderr: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...options, '--', process.execPath, '--import', 'tsx', testServer],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'cli-spec', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('spoolforge mcp', () => {
  it('proxies a stdio server: a 30 MB result is a handle of at most 300 tokens, and a grep finds the needle', async () => {
    const store = await tempDirectory();
    const client = await proxyClient(['--store', store]);
    const result = (await client.callTool({
      name: 'big_text',
      arguments: { megabytes: 30 },
    })) as CallToolResult;
    const handle = textOf(result);
    expect(await countTextTokens(handle, 'o200k_base')).toBeLessThanOrEqual(300);
    const id = /callId "([^"]+)"/.exec(handle)?.[1];
    expect(handle).toMatch(/text, 28\.\d MiB, [\d,]+ lines/);
    const grep = (await client.callTool({
      name: 'artifact_grep',
      arguments: { callId: id, pattern: needle, fixed: true },
    })) as CallToolResult;
    expect(textOf(grep)).toMatch(new RegExp(`^\\d+:${needle}$`, 'm'));
  }, 60_000);

  it('--listen serves Streamable HTTP with the token from the environment, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        cliPath,
        'mcp',
        '--listen',
        '127.0.0.1:0',
        '--store',
        await tempDirectory(),
        '--',
        process.execPath,
        '--import',
        'tsx',
        testServer,
      ],
      {
        env: { ...process.env, SPOOLFORGE_MCP_TOKEN: 'from-env' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /serving (http:\S+)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.on('exit', () => reject(new Error(`exited: ${stderr}`)));
    });
    try {
      expect((await fetch(url, { method: 'POST' })).status).toBe(401);
      const client = new Client({ name: 'cli-spec', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: 'Bearer from-env' } },
        }),
      );
      const result = (await client.callTool({
        name: 'fail',
        arguments: { reason: 'http' },
      })) as CallToolResult;
      expect(textOf(result)).toBe('cannot: http');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);

  it('prints its usage, and refuses options it does not know with status 2', async () => {
    const help = await runCli(['mcp', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout.toString()).toContain('spoolforge mcp [options] -- COMMAND');
    const wrong = await runCli(['mcp', '--thresold', '5', '--', 'x']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("unrecognized option '--thresold'");
    const none = await runCli(['mcp', '--threshold', '5']);
    expect(none.stderr).toContain('no upstream');
  });
});
