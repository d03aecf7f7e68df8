// The proxy over its streaming stdio leg, where big values arrive diverted to spools: each
// comes back stored or put back, and none is left behind.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ArtifactStore } from 'spoolforge';
import { McpSpoolProxy, SpilledValues } from 'spoolforge/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigImageBase64, needle } from '../../helpers/mcp-test-server.js';
import { handleId, stdioUpstream, textOf } from './proxy-helpers.js';

const spilled = new SpilledValues();
let proxy: McpSpoolProxy;
let directory: string;

async function clientNamed(name: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

let client: Client;
const call = async (name: string, args: object = {}) =>
  (await client.callTool({ name, arguments: { ...args } })) as CallToolResult;

beforeAll(async () => {
  // One store for the file (the temp-files helper empties its directories after each test).
  directory = await mkdtemp(join(tmpdir(), 'spoolforge-spec-'));
  proxy = new McpSpoolProxy({
    upstream: stdioUpstream(spilled),
    store: await ArtifactStore.open(directory),
    spilled,
  });
  client = await clientNamed('stdio-spec');
});
afterAll(async () => {
  await client.close();
  await proxy.close();
  await rm(directory, { recursive: true, force: true });
});

describe('the proxy over the streaming stdio leg', () => {
  it('passes an image far past the threshold unchanged', async () => {
    const result = await call('big_image', { kilobytes: 64 });
    expect(result.content).toEqual([
      { type: 'image', data: bigImageBase64(64), mimeType: 'image/png' },
    ]);
  });

  it('stores big structured content itself, not a stand-in, when the text repeats it', async () => {
    const result = await call('big_json', { rows: 5_000 });
    const id = handleId(result);
    expect(textOf(result)).toContain(': json,');
    const length = await call('artifact_json', { callId: id, op: 'length', path: '$.rows' });
    expect(textOf(length)).toContain("$['rows']: 5,000 elements");
  });

  it('stores a big log beside small structured content, which stays inline', async () => {
    const result = await call('log_with_status', { kilobytes: 40 });
    expect(result.structuredContent).toEqual({ ok: false, failures: 1 });
    const id = handleId(result);
    expect(textOf(result)).toContain(': text,');
    const grep = await call('artifact_grep', { callId: id, pattern: needle, fixed: true });
    expect(textOf(grep)).toMatch(new RegExp(`^\\d+:${needle}$`, 'm'));
  });

  it("spools a big prompt's and a big resource's text into handles", async () => {
    const prompt = await client.getPrompt({ name: 'big_prompt' });
    const [message] = prompt.messages;
    const promptText = message?.content.type === 'text' ? message.content.text : '';
    expect(promptText).toContain('Output of prompts/get big_prompt');
    const grep = await call('artifact_grep', {
      callId: /callId "([^"]+)"/.exec(promptText)?.[1],
      pattern: needle,
    });
    expect(textOf(grep)).toContain(needle);
    const resource = await client.readResource({ uri: 'test://big-log' });
    const [contents] = resource.contents;
    expect(contents && 'text' in contents ? contents.text : '').toContain(
      'Output of resources/read test://big-log',
    );
    expect(JSON.stringify(resource).length).toBeLessThan(4_000);
  });

  it('links each stored output for clients that take a link, Codex too', async () => {
    const linked = await call('big_text', { megabytes: 1 });
    expect(linked.content.map((part) => part.type)).toEqual(['text', 'resource_link']);
    const codex = await clientNamed('codex-mcp-client');
    try {
      const result = (await codex.callTool({
        name: 'big_text',
        arguments: { megabytes: 1 },
      })) as CallToolResult;
      expect(result.content.map((part) => part.type)).toEqual(['text', 'resource_link']);
    } finally {
      await codex.close();
    }
  });

  it('leaves no diverted value behind', async () => {
    expect(spilled.size).toBe(0);
  });
});
