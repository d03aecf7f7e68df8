// Which clients get a resource_link beside each handle by default: every client on MCP
// 2025-06-18 or later, Codex too (Codex CLI 0.171 takes one), and none before that version.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type RawProxyClient, rawProxyClient } from './proxy-helpers.js';

let client: RawProxyClient | undefined;
afterEach(async () => {
  await client?.proxy.close();
});

const partTypes = (result: CallToolResult) => result.content.map((part) => part.type);

describe('resource links by default', () => {
  it.each([
    ['codex-mcp-client', '2025-06-18'],
    ['claude-code', '2025-11-25'],
    ['gemini-cli-mcp-client', '2025-06-18'],
  ])('are sent to %s on %s', async (name, version) => {
    client = await rawProxyClient();
    await client.initialize(version, name);
    const result = await client.call('big_text', { megabytes: 1 });
    expect(partTypes(result)).toEqual(['text', 'resource_link']);
  });

  it('are not sent to a client on 2025-03-26, which has no resource_link', async () => {
    client = await rawProxyClient();
    await client.initialize('2025-03-26', 'older-client');
    const result = await client.call('big_text', { megabytes: 1 });
    expect(partTypes(result)).toEqual(['text']);
  });
});
