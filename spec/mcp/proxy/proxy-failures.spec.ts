import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ArtifactStore } from 'spoolforge';
import {
  listenStreamableHttp,
  McpSpoolProxy,
  type McpSpoolProxyOptions,
  SpilledValues,
  StdioUpstreamTransport,
} from 'spoolforge/mcp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { writeLineServer } from '../../helpers/line-mcp-server.js';
import { createMcpTestServer, needle } from '../../helpers/mcp-test-server.js';
import { tempDirectory } from '../../helpers/temp-files.js';
import { handleId, stdioUpstream, textOf } from './proxy-helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A client of a proxy whose upstream is `upstream()`; rejects when initialize fails. */
async function clientOf(
  upstream: () => Transport,
  options: Partial<McpSpoolProxyOptions> = {},
): Promise<{ client: Client; call: (name: string, args?: object) => Promise<CallToolResult> }> {
  const proxy = new McpSpoolProxy({
    upstream,
    store: await ArtifactStore.open(await tempDirectory()),
    label: 'the test server',
    ...options,
  });
  closers.push(() => proxy.close());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  const client = new Client({ name: 'failure-spec', version: '1.0.0' });
  closers.push(() => client.close());
  await client.connect(clientSide);
  const call = async (name: string, args: object = {}) =>
    (await client.callTool({ name, arguments: { ...args } })) as CallToolResult;
  return { client, call };
}

describe('the proxy when the upstream fails', () => {
  it('names the exit status and the stderr tail of a crash, and starts the server again', async () => {
    const spilled = new SpilledValues();
    const { call } = await clientOf(stdioUpstream(spilled), { spilled });
    const crashed = await call('crash');
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/^the test server exited with status 3 /);
    expect(textOf(crashed)).toContain('fatal: the test server crashed on purpose');
    expect(textOf(crashed)).toContain('started again for the next call');
    expect(await call('fail', { reason: 'back' })).toMatchObject({
      content: [{ type: 'text', text: 'cannot: back' }],
    });
    const torn = await call('torn');
    expect(textOf(torn)).toContain('exited with status 4');
    const id = handleId(await call('big_text', { megabytes: 2 }));
    expect(textOf(await call('artifact_grep', { callId: id, pattern: needle }))).toContain(needle);
  }, 60_000);

  it('skips a line that is not JSON-RPC, reports it, and answers the call', async () => {
    const spilled = new SpilledValues();
    const errors: string[] = [];
    const { call } = await clientOf(stdioUpstream(spilled), {
      spilled,
      onError: (error) => errors.push(error.message),
    });
    expect(textOf(await call('noisy'))).toBe('after the noise');
    expect(errors.join('\n')).toContain('debug: not a JSON-RPC line');
  }, 30_000);

  it('answers a result past --max-result with an error, and stays up', async () => {
    const spilled = new SpilledValues();
    const { call } = await clientOf(stdioUpstream(spilled, { maxMessageBytes: 1024 * 1024 }), {
      spilled,
    });
    const tooBig = await call('big_text', { megabytes: 3 });
    expect(tooBig.isError).toBe(true);
    expect(textOf(tooBig)).toMatch(/exceeds the limit of 1048576 bytes/);
    expect(textOf(await call('fail', { reason: 'up' }))).toBe('cannot: up');
    expect(spilled.size).toBe(0);
  }, 30_000);

  it('answers the call after one whose response was torn and timed out', async () => {
    // The server answers the first tools/call with half a message and no newline, then the
    // next one in full: the two go down the pipe as one line.
    const script = await writeLineServer(`
      if (message.method !== 'tools/call') return answer({});
      globalThis.calls = (globalThis.calls ?? 0) + 1;
      if (globalThis.calls > 1) return answer({ content: [{ type: 'text', text: 'call ' + globalThis.calls }] });
      process.stdout.write('{"jsonrpc":"2.0","id":' + message.id + ',"result":{"content":[{"type":"text","text":"half');
    `);
    const spilled = new SpilledValues();
    const errors: string[] = [];
    const { call } = await clientOf(
      () =>
        new StdioUpstreamTransport({
          command: process.execPath,
          args: [script],
          spilled,
          stderr: 'pipe',
        }),
      { spilled, timeout: 1_500, onError: (error) => errors.push(error.message) },
    );
    const torn = await call('anything');
    expect(textOf(torn)).toMatch(/did not answer tools\/call within 1\.5 s/);
    expect(textOf(await call('anything'))).toBe('call 2');
    expect(errors.join('\n')).toMatch(/left unfinished .*"half/);
    expect(spilled.size).toBe(0);
  }, 30_000);

  it('fails initialize with the reason when the command cannot start', async () => {
    const spilled = new SpilledValues();
    const failing = clientOf(
      () => new StdioUpstreamTransport({ command: 'no-such-mcp-server-8e1f', spilled }),
      { spilled },
    );
    await expect(failing).rejects.toThrow(
      /Could not start the test server: .*no-such-mcp-server-8e1f/,
    );
  });

  it('proxies a Streamable HTTP upstream, and fails initialize when its URL is down', async () => {
    const upstream = await listenStreamableHttp(
      { connect: (transport) => createMcpTestServer().connect(transport) },
      { host: '127.0.0.1', port: 0 },
    );
    closers.push(() => upstream.close());
    const { call } = await clientOf(() => new StreamableHTTPClientTransport(new URL(upstream.url)));
    const id = handleId(await call('big_text', { megabytes: 2 }));
    expect(textOf(await call('artifact_read', { callId: id, last: 1 }))).toMatch(/:INFO done$/m);

    const down = clientOf(
      () => new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp')),
    );
    await expect(down).rejects.toThrow(
      /Could not start the test server: .*(ECONNREFUSED|fetch failed)/,
    );
  }, 30_000);
});

/** A directory on a 1 MiB tmpfs (mounting needs root), else `undefined`. */
function tinyFilesystem(): string | undefined {
  const directory = mkdtempSync(join(tmpdir(), 'spoolforge-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', directory], {
      stdio: 'ignore',
    });
    return directory;
  } catch {
    rmSync(directory, { recursive: true, force: true });
    return undefined;
  }
}

const fullDisk = tinyFilesystem();
afterAll(() => {
  if (!fullDisk) return;
  execFileSync('umount', [fullDisk]);
  rmSync(fullDisk, { recursive: true, force: true });
});

describe.skipIf(!fullDisk)(
  'the proxy when its spill directory is full (a 1 MiB tmpfs: needs mount, so root)',
  () => {
    it('answers the call with E_IO and ENOSPC, and keeps the healthy server', async () => {
      const spilled = new SpilledValues();
      let started = 0;
      const factory = stdioUpstream(spilled, {
        writer: { tempDirectory: fullDisk as string, memoryThreshold: 0 },
      });
      const { call } = await clientOf(
        () => {
          started++;
          return factory();
        },
        { spilled },
      );
      const failed = await call('big_text', { megabytes: 3 });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/^E_IO: Cannot spool a value from the upstream \(.*ENOSPC/);
      expect(textOf(failed)).not.toMatch(/exited|started again/);
      expect(textOf(failed).length).toBeLessThan(2_000);
      expect(await call('fail', { reason: 'still up' })).toMatchObject({
        content: [{ type: 'text', text: 'cannot: still up' }],
      });
      expect(started).toBe(1);
      expect(spilled.size).toBe(0);
    }, 60_000);
  },
);
