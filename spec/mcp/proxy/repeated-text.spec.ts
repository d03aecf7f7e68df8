// One output sent twice, as a text part and inside structured content (the reference filesystem
// server's read_text_file does it), is stored once, as the text: one artifact, one handle, and
// structured content that still holds its declared output schema. Through the real proxy, over
// the in-memory leg (values as strings) and the streaming stdio leg (values diverted to spools
// and compared by length and hash).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ArtifactStore } from 'spoolforge';
import { McpSpoolProxy, SpilledValues, StdioUpstreamTransport } from 'spoolforge/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepeatingServer } from '../../helpers/repeating-mcp-server.js';
import { handleId, textOf } from './proxy-helpers.js';

const serverFile = fileURLToPath(new URL('../../helpers/repeating-mcp-server.ts', import.meta.url));
const needle = 'NEEDLE-5c1e "quoted" \\ back\\slash';

/** A file of real shapes: CRLF, tabs, quotes, backslashes, é and 😀, a long line, invalid UTF-8. */
function fileBytes(kilobytes: number): Buffer {
  const line = 'INFO\tworker "w" wrote C:\\logs\\a.txt é 😀\r\n';
  const lines = line.repeat(Math.ceil((kilobytes * 1024) / line.length));
  return Buffer.concat([
    Buffer.from(`${lines}${'x'.repeat(70_000)}\n${needle}\n`),
    Buffer.from([0xff, 0xfe, 0x0a]),
    Buffer.from('last line without newline'),
  ]);
}

/** The tools' output schemas, as the upstream declares them to an SDK client. */
async function upstreamTools(): Promise<Map<string, Tool>> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createRepeatingServer().connect(serverSide);
  const client = new Client({ name: 'schema-reader', version: '1.0.0' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return new Map(tools.map((tool) => [tool.name, tool]));
}

const legs = {
  'in-memory leg': () => ({
    upstream: async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createRepeatingServer().connect(serverSide);
      return clientSide;
    },
  }),
  'stdio leg, values diverted past 16 KiB': () => {
    const spilled = new SpilledValues();
    return {
      spilled,
      upstream: () =>
        new StdioUpstreamTransport({
          command: process.execPath,
          args: ['--import', 'tsx', serverFile],
          spilled,
          stderr: 'pipe',
          spillBytes: 16 * 1024,
        }),
    };
  },
};

describe.each(Object.entries(legs))('one output sent twice, %s', (_leg, leg) => {
  let client: Client;
  let proxy: McpSpoolProxy;
  let store: ArtifactStore;
  let spilled: SpilledValues | undefined;
  let tools: Map<string, Tool>;
  let directory: string;
  let path: string;
  let text: string;
  const call = async (name: string, args: object) =>
    (await client.callTool({ name, arguments: { ...args } })) as CallToolResult;
  /** The artifacts this call added to the store. */
  const added = async (run: () => Promise<CallToolResult>) => {
    const before = new Set((await store.list()).map((record) => record.id));
    const result = await run();
    const records = (await store.list()).filter((record) => !before.has(record.id));
    return { result, records };
  };
  const validate = (tool: string, value: unknown) =>
    new AjvJsonSchemaValidator().getValidator(tools.get(tool)?.outputSchema as never)(value);

  beforeAll(async () => {
    tools = await upstreamTools();
    // A directory for the file (the temp-files helper empties its directories after each test).
    directory = await mkdtemp(join(tmpdir(), 'spoolforge-spec-'));
    path = join(directory, 'big.log');
    await writeFile(path, fileBytes(200));
    text = await readFile(path, 'utf8');
    store = await ArtifactStore.open(join(directory, 'store'));
    const options = leg();
    spilled = 'spilled' in options ? options.spilled : undefined;
    proxy = new McpSpoolProxy({ ...options, store });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await proxy.connect(serverSide);
    client = new Client({ name: 'repeat-spec', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client.close();
    await proxy.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('stores the text once when structured content is { content: text }: one artifact, one handle', async () => {
    const { result, records } = await added(() => call('read_text_file', { path }));
    expect(records).toHaveLength(1);
    expect(records[0]?.kind).toBe('text');
    expect(records[0]?.byteLength).toBe(Buffer.byteLength(text));
    const handles = result.content.filter((part) => part.type === 'text');
    expect(handles).toHaveLength(1);
    const handle = handles[0]?.type === 'text' ? handles[0].text : '';
    expect(handle).toContain(`callId "${records[0]?.id}"`);
    // Structured content keeps its shape, the text in it replaced by the same handle.
    expect(result.structuredContent).toEqual({ content: handle });
    expect(validate('read_text_file', result.structuredContent)).toMatchObject({ valid: true });
    const data = await store.openData(records[0]?.id ?? '');
    expect(Buffer.from(await data.read(0, await data.byteLength())).toString('utf8')).toBe(text);
    await data.close?.();
    const grep = await call('artifact_grep', {
      callId: handleId(result),
      pattern: needle,
      fixed: true,
    });
    expect(textOf(grep)).toContain(needle);
    expect(spilled?.size ?? 0).toBe(0);
  });

  it('finds the text at any depth and keeps the small values beside it', async () => {
    const { result, records } = await added(() => call('nested', { path }));
    expect(records).toHaveLength(1);
    expect(records[0]?.byteLength).toBe(Buffer.byteLength(text));
    const handle = textOf(result);
    expect(result.structuredContent).toEqual({
      report: { files: [{ path, text: handle }] },
      ok: true,
    });
    expect(validate('nested', result.structuredContent)).toMatchObject({ valid: true });
    expect(spilled?.size ?? 0).toBe(0);
  });

  it('stores structured content once when the text part is its JSON', async () => {
    const { result, records } = await added(() => call('json_text', { rows: 3_000 }));
    expect(records).toHaveLength(1);
    expect(records[0]?.kind).toBe('json');
    expect(result.content.filter((part) => part.type === 'text')).toHaveLength(1);
    const json = await call('artifact_json', {
      callId: handleId(result),
      op: 'length',
      path: '$.rows',
    });
    expect(textOf(json)).toContain('3,000 elements');
    expect(spilled?.size ?? 0).toBe(0);
  });

  it('keeps both when the structured string differs from the text, even by its last byte', async () => {
    const { result, records } = await added(() => call('differ', { path }));
    expect(records).toHaveLength(2);
    expect(records.map((record) => record.byteLength)).toContain(Buffer.byteLength(text));
    expect(result.structuredContent).toBeUndefined();
    const ids = result.content.flatMap((part) =>
      part.type === 'text' ? [/callId "([^"]+)"/.exec(part.text)?.[1]] : [],
    );
    expect(new Set(ids).size).toBe(2);
    expect(spilled?.size ?? 0).toBe(0);
  });
});
