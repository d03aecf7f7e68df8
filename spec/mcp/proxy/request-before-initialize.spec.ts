// A client that sends a request before `initialize`, as Claude Code 2.1 does with its
// `server/discover` probe: the proxy answers it with an error and still initializes after it.
import { afterEach, describe, expect, it } from 'vitest';
import { type RawProxyClient, rawProxyClient } from './proxy-helpers.js';

let client: RawProxyClient | undefined;
afterEach(async () => {
  await client?.proxy.close();
});

describe('a request before initialize', () => {
  it('is answered with an error, and the initialize after it connects the upstream', async () => {
    client = await rawProxyClient();
    const probe = await client.send({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      method: 'server/discover',
      params: {},
    });
    expect(probe).toMatchObject({ id: 'server-discover-probe-1', error: { code: -32600 } });
    const initialized = await client.initialize('2025-11-25', 'claude-code');
    expect(initialized).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    const listed = (await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as {
      result?: { tools: { name: string }[] };
    };
    const names = listed.result?.tools.map((tool) => tool.name) ?? [];
    expect(names).toContain('big_text');
    expect(names).toContain('artifact_grep');
  });
});
