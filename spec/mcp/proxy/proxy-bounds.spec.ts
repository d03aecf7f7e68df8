// What one client can make the proxy hold or do for everyone: an error echoing a huge input, a
// result of hundreds of thousands of parts processed while other clients wait.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handleId, type ProxiedClient, proxiedClient, textOf } from './proxy-helpers.js';

const open: ProxiedClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

/** What the spec runs inside the upstream. */
interface Hooks {
  /** Runs as `many_parts` returns its result. */
  onManyParts?: () => void;
}

/** An upstream with `many_parts` (N tiny text parts) and `later` (answers after a loop turn). */
function partsServer(hooks: Hooks): McpServer {
  const server = new McpServer({ name: 'parts', version: '1.0.0' });
  server.registerTool(
    'many_parts',
    { description: 'N tiny text parts.', inputSchema: { count: z.number().int() } },
    ({ count }) => {
      const content = Array.from({ length: count }, (_, index) => ({
        type: 'text' as const,
        text: `p${index}`,
      }));
      hooks.onManyParts?.();
      return { content };
    },
  );
  server.registerTool(
    'later',
    { description: 'Answers a turn later.', inputSchema: {} },
    async () => {
      // Nothing in memory between two clients takes a turn of the event loop but this: the answer
      // can only come once the proxy lets the loop turn.
      await nextTurn();
      return { content: [{ type: 'text', text: 'later' }] };
    },
  );
  return server;
}

describe('the proxy under a hostile client', () => {
  it('quotes at most 200 characters of a 1 MB callId in its error, and cuts any error at 2,000', async () => {
    const proxied = await proxiedClient();
    open.push(proxied);
    const callId = 'x'.repeat(1_000_000);
    for (const tool of ['artifact_read', 'artifact_grep']) {
      const args = tool === 'artifact_grep' ? { callId, pattern: 'a' } : { callId };
      const result = await proxied.call(tool, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        `No spooled output "${'x'.repeat(200)}… (1000000 characters)"`,
      );
      expect(JSON.stringify(result).length).toBeLessThan(16 * 1024);
    }
    const id = handleId(await proxied.call('big_text', { megabytes: 1 }));
    const pattern = '('.repeat(1_000_000);
    const invalid = await proxied.call('artifact_grep', { callId: id, pattern });
    expect(textOf(invalid)).toMatch(/^Error \(E_REGEX_INVALID\): .*… \(\d+ characters\)$/s);
    expect(JSON.stringify(invalid).length).toBeLessThan(16 * 1024);
  });

  it("answers another client's call while it spools a result of 200,000 parts, and stores them all", async () => {
    const hooks: Hooks = {};
    const proxied = await proxiedClient({
      upstream: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await partsServer(hooks).connect(serverSide);
        return clientSide;
      },
    });
    open.push(proxied);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await proxied.proxy.connect(serverSide);
    const other = new Client({ name: 'other', version: '1.0.0' });
    await other.connect(clientSide);

    let otherAnswered = false;
    let answeredBeforePut: boolean | undefined;
    const put = proxied.store.put.bind(proxied.store);
    proxied.store.put = (...args) => {
      answeredBeforePut ??= otherAnswered;
      return put(...args);
    };
    // The other client calls as the big result leaves the upstream: its answer needs a turn of
    // the event loop, which the proxy must give while it goes through the 200,000 parts.
    hooks.onManyParts = () => {
      void other.callTool({ name: 'later', arguments: {} }).then(() => {
        otherAnswered = true;
      });
    };
    const result = await proxied.call('many_parts', { count: 200_000 });
    expect(answeredBeforePut).toBe(true);
    const id = handleId(result);
    const last = (await proxied.call('artifact_read', { callId: id, last: 1 })) as CallToolResult;
    expect(textOf(last)).toMatch(/^200000:p199999$/m);
    const first = await proxied.call('artifact_read', { callId: id, start: 1, end: 2 });
    expect(textOf(first)).toMatch(/^1:p0\n2:p1$/m);
    await other.close();
  }, 120_000);
});
