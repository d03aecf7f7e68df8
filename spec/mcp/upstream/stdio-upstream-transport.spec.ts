import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SpilledValues } from '../../../src/mcp/upstream/spilled-values.js';
import {
  StdioUpstreamTransport,
  type StdioUpstreamTransportOptions,
} from '../../../src/mcp/upstream/stdio-upstream-transport.js';
import { SpoolforgeError } from '../../../src/shared/spoolforge-error.js';
import { bigText } from '../../helpers/mcp-test-server.js';

const serverPath = fileURLToPath(new URL('../../helpers/mcp-test-server.ts', import.meta.url));
type TextResult = { content: { type: string; text?: string }[]; isError?: boolean };

const opened: Client[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function connect(options: Partial<StdioUpstreamTransportOptions> = {}) {
  const spilled = new SpilledValues();
  const errors: Error[] = [];
  const transport = new StdioUpstreamTransport({
    command: process.execPath,
    args: ['--import', 'tsx', serverPath],
    spilled,
    stderr: 'pipe',
    ...options,
  });
  transport.onerror = (error) => errors.push(error);
  const client = new Client({ name: 'transport-spec', version: '1.0.0' });
  await client.connect(transport);
  opened.push(client);
  return { client, transport, spilled, errors };
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<TextResult>;

describe('StdioUpstreamTransport', () => {
  it('starts a server without the package npx chose for the proxy, as `npx -p spoolforge` sets it', async () => {
    // What `npx -y -p spoolforge -p @modelcontextprotocol/sdk spoolforge mcp -- npx -y SERVER`
    // hands the proxy: an inner npx reading it would run spoolforge's packages, not SERVER.
    const saved = { package: process.env.npm_config_package, call: process.env.npm_config_call };
    process.env.npm_config_package = 'spoolforge';
    process.env.npm_config_call = 'spoolforge mcp';
    try {
      const { client } = await connect({
        command: 'sh',
        args: [
          '-c',
          'if [ -n "$npm_config_package$npm_config_call" ]; then echo leaked >&2; exit 3; fi; exec "$0" --import tsx "$1"',
          process.execPath,
          serverPath,
        ],
      });
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      for (const [name, value] of [
        ['npm_config_package', saved.package],
        ['npm_config_call', saved.call],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('receives a 30 MB text result as a token whose spool holds the exact text', async () => {
    const { client, spilled } = await connect();
    const result = await call(client, 'big_text', { megabytes: 30 });
    const token = result.content[0]?.text;
    expect(spilled.isToken(token)).toBe(true);
    const value = spilled.take(token as string);
    const expected = Buffer.from(bigText(30));
    expect(value?.byteLength).toBe(expected.length);
    const hash = createHash('sha256');
    for await (const chunk of value?.stream() ?? []) hash.update(chunk);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(expected).digest('hex'));
    await value?.release();
  }, 120_000);

  it('diverts a big structuredContent raw and its JSON text as a string', async () => {
    const { client, spilled } = await connect();
    const result = (await client.callTool({
      name: 'big_json',
      arguments: { rows: 50_000 },
    })) as TextResult & {
      structuredContent: unknown;
    };
    const json = spilled.take(spilled.markerToken(result.structuredContent) ?? '');
    const text = spilled.take(result.content[0]?.text ?? '');
    expect(json?.kind).toBe('json');
    expect(text?.kind).toBe('string');
    const parts: Uint8Array[] = [];
    for await (const chunk of json?.stream() ?? []) parts.push(chunk);
    const rows = JSON.parse(Buffer.concat(parts).toString()).rows as { id: number; name: string }[];
    expect(rows).toHaveLength(50_000);
    expect(rows[49_999]).toEqual({ id: 49_999, name: `row 49999 ${'y'.repeat(60)}` });
    expect(text?.byteLength).toBe(json?.byteLength);
    await json?.release();
    await text?.release();
  }, 60_000);

  it('answers a call whose result passes maxMessageBytes with a JSON-RPC error', async () => {
    const { client, spilled } = await connect({ maxMessageBytes: 5_000_000 });
    await expect(call(client, 'big_text', { megabytes: 8 })).rejects.toThrow(
      /upstream result of \d+ bytes exceeds the limit of 5000000 bytes \(--max-result\)/,
    );
    expect(spilled.size).toBe(0);
    expect((await call(client, 'fail', { reason: 'still up' })).isError).toBe(true);
  }, 60_000);

  it('passes small results and errors through unchanged', async () => {
    const { client, spilled, transport } = await connect();
    expect(transport.pid).toBeGreaterThan(0);
    expect(await call(client, 'fail', { reason: 'no disk "é"' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'cannot: no disk "é"' }],
    });
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('big_text');
    expect(spilled.size).toBe(0);
  }, 60_000);

  it('skips a line that is not JSON-RPC with an error and still answers the call', async () => {
    const { client, errors } = await connect();
    expect((await call(client, 'noisy')).content).toEqual([
      { type: 'text', text: 'after the noise' },
    ]);
    expect(errors).toHaveLength(1);
    expect(SpoolforgeError.isInstance(errors[0]) && errors[0].code).toBe('E_MCP_MALFORMED');
    expect(errors[0]?.message).toContain('debug: not a JSON-RPC line');
  }, 60_000);

  it('rejects the pending call when the server crashes, and tells its status and stderr', async () => {
    const { client, transport } = await connect();
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await expect(call(client, 'crash')).rejects.toThrow(/closed/i);
    expect(await transport.exit).toEqual({ code: 3, signal: null });
    expect(transport.stderrTail()).toContain('fatal: the test server crashed on purpose');
    expect(closed).toBe(true);
  }, 60_000);

  it('drops a message torn by the server dying, freeing its spills', async () => {
    const { client, transport, spilled, errors } = await connect({ spillBytes: 1_000 });
    await expect(call(client, 'torn')).rejects.toThrow(/closed/i);
    expect((await transport.exit).code).toBe(4);
    expect(errors.map((error) => SpoolforgeError.isInstance(error) && error.code)).toEqual([
      'E_MCP_UPSTREAM',
    ]);
    expect(spilled.size).toBe(0);
  }, 60_000);

  it('fails to start with a clear error naming a command that does not exist', async () => {
    const transport = new StdioUpstreamTransport({
      command: 'spoolforge-no-such-mcp-server',
      spilled: new SpilledValues(),
    });
    const client = new Client({ name: 'transport-spec', version: '1.0.0' });
    const failure = await client.connect(transport).catch((error: unknown) => error);
    expect(SpoolforgeError.isInstance(failure) && failure.code).toBe('E_MCP_UPSTREAM');
    expect((failure as Error).message).toContain('"spoolforge-no-such-mcp-server"');
    expect((failure as Error).message).toContain('ENOENT');
    expect((await transport.exit).code).not.toBe(0);
  });

  it('closes by ending stdin, and the server exits', async () => {
    const { client, transport } = await connect();
    opened.pop();
    await client.close();
    expect(await transport.exit).toEqual({ code: 0, signal: null });
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(
      /not running/,
    );
  }, 60_000);

  it('sends SIGTERM to a server that stays up after its stdin ends', async () => {
    const transport = new StdioUpstreamTransport({
      command: process.execPath,
      args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1000);'],
      spilled: new SpilledValues(),
      closeGraceMs: 200,
    });
    await transport.start();
    await transport.close();
    expect(await transport.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
