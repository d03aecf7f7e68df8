// What a client without a token can make a --listen proxy keep: sessions, each with an upstream
// process, and what is left of initializes that were refused or failed.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactStore } from 'spoolforge';
import {
  type Listener,
  listenStreamableHttp,
  McpSpoolProxy,
  SpilledValues,
  StdioUpstreamTransport,
} from 'spoolforge/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { writeLineServer } from '../../helpers/line-mcp-server.js';
import { tempDirectory } from '../../helpers/temp-files.js';
import { initialize, post } from './http-post.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A listening proxy whose upstream is `command` (default: a line server, in a file of its own). */
async function listening(options: { maxSessions?: number; command?: string } = {}) {
  const directory = await tempDirectory();
  const script = await writeLineServer();
  const spilled = new SpilledValues();
  const proxy = new McpSpoolProxy({
    upstream: () =>
      new StdioUpstreamTransport({
        command: options.command ?? process.execPath,
        args: options.command ? [] : [script],
        spilled,
        stderr: 'pipe',
      }),
    store: await ArtifactStore.open(join(directory, 'store')),
    spilled,
  });
  const listener: Listener = await listenStreamableHttp(proxy, {
    host: '127.0.0.1',
    port: 0,
    ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
  });
  closers.push(
    () => proxy.close(),
    () => listener.close(),
  );
  return { proxy, listener, script };
}

/** Processes whose command line names `script`: the upstreams alive. */
async function processesRunning(script: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(script)) count++;
  }
  return count;
}

describe('listenStreamableHttp sessions', () => {
  it('keeps at most maxSessions sessions, and so upstream processes, and refuses the rest with 503', async () => {
    const { listener, script } = await listening({ maxSessions: 3 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(listener.url, initialize)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503, 503]);
    const refused = answers.find((answer) => answer.status === 503);
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringMatching(/all 3 allowed \(--max-sessions, maxSessions\)/) },
    });
    expect(await processesRunning(script)).toBe(3);
    expect(listener.sessions).toBe(3);
  }, 60_000);

  it('keeps nothing of an initialize the SDK refuses (406, 415)', async () => {
    const { proxy, listener } = await listening();
    for (let index = 0; index < 50; index++) {
      const headers =
        index % 2 === 0 ? { accept: 'application/json' } : { 'content-type': 'text/plain' };
      const answer = await post(listener.url, initialize, headers);
      expect(answer.status).toBe(index % 2 === 0 ? 406 : 415);
    }
    expect(listener.sessions).toBe(0);
    expect(proxy.sessions).toBe(0);
  });

  it('answers an initialize whose upstream cannot start with an error, and keeps no session', async () => {
    const { proxy, listener } = await listening({ command: 'no-such-mcp-server-5c2d' });
    const answer = await post(listener.url, initialize);
    expect(answer.body).toMatch(/Could not start .*no-such-mcp-server-5c2d/);
    expect(listener.sessions).toBe(0);
    expect(proxy.sessions).toBe(0);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const later = await post(listener.url, list, {
      'mcp-session-id': String(answer.headers['mcp-session-id']),
    });
    expect(later.status).toBe(404);
  });
});
