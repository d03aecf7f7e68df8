// The MCP reference server from npm (`@modelcontextprotocol/server-everything`), a third party's
// server, as a child process behind the proxy: every tool it lists works through it for a
// client that declares sampling, elicitation, roots and tasks. Its requests to the client are
// in server-everything-client-requests.spec.ts, the rest of the protocol in
// server-everything-protocol.spec.ts.
import { gunzipSync } from 'node:zlib';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { everythingSessionPerFile } from '../../helpers/server-everything.js';
import { textOf } from './proxy-helpers.js';

/** Every tool server-everything lists to a client with sampling, elicitation, roots and tasks. */
const upstreamTools = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-roots-list',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-elicitation-request',
  'trigger-elicitation-request-async',
  'trigger-long-running-operation',
  'trigger-sampling-request',
  'trigger-sampling-request-async',
  'trigger-url-elicitation',
];
const queryTools = [
  'artifact_grep',
  'artifact_json',
  'artifact_list',
  'artifact_md',
  'artifact_read',
];

const session = everythingSessionPerFile();

describe('McpSpoolProxy in front of server-everything: its tools', () => {
  it('lists every upstream tool (a new one fails here until it is covered), then the query tools', async () => {
    const { tools } = await session().client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.filter((name) => !queryTools.includes(name)).sort()).toEqual(upstreamTools);
    expect(names.slice(-queryTools.length).sort()).toEqual(queryTools);
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({
      title: 'Echo Tool',
      annotations: { readOnlyHint: true },
      inputSchema: { properties: { message: { type: 'string' } } },
    });
    expect(tools.find((tool) => tool.name === 'simulate-research-query')?.execution).toEqual({
      taskSupport: 'required',
    });
  });

  it('echoes, sums, and passes annotated text, images and a small get-env unchanged', async () => {
    expect(await session().call('echo', { message: 'hello through the proxy' })).toEqual({
      content: [{ type: 'text', text: 'Echo: hello through the proxy' }],
    });
    expect(textOf(await session().call('get-sum', { a: 19, b: 23 }))).toBe(
      'The sum of 19 and 23 is 42.',
    );
    const image = await session().call('get-tiny-image');
    expect(image.content.map((part) => part.type)).toEqual(['text', 'image', 'text']);
    expect(image.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const data = image.content[1]?.type === 'image' ? image.content[1].data : '';
    expect(Buffer.from(data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const annotated = await session().call('get-annotated-message', {
      messageType: 'error',
      includeImage: true,
    });
    expect(annotated.content).toEqual([
      {
        type: 'text',
        text: 'Error: Operation failed',
        annotations: { priority: 1, audience: ['user', 'assistant'] },
      },
      {
        type: 'image',
        data,
        mimeType: 'image/png',
        annotations: { priority: 0.5, audience: ['user'] },
      },
    ]);
    // The child's environment (the SDK passes it a few variables) is far under the threshold.
    expect(JSON.parse(textOf(await session().call('get-env')))).toHaveProperty('PATH');
    const debug = await session().call('get-annotated-message', { messageType: 'debug' });
    expect(debug.content[0]).toMatchObject({ annotations: { audience: ['assistant'] } });
  });

  it('passes small structured content through; without the stripped output schema the SDK client accepts it', async () => {
    const { tools } = await session().client.listTools();
    expect(
      tools.find((tool) => tool.name === 'get-structured-content')?.outputSchema,
    ).toBeUndefined();
    const result = await session().call('get-structured-content', { location: 'Chicago' });
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    expect(result.structuredContent).toEqual(weather);
    expect(JSON.parse(textOf(result))).toEqual(weather);
  });

  it('passes resource links and embedded resources, and reads the linked upstream resources', async () => {
    const links = await session().call('get-resource-links', { count: 4 });
    const linked = links.content.filter((part) => part.type === 'resource_link');
    expect(linked.map((part) => part.uri)).toEqual([
      'demo://resource/dynamic/blob/1',
      'demo://resource/dynamic/text/2',
      'demo://resource/dynamic/blob/3',
      'demo://resource/dynamic/text/4',
    ]);
    const text = await session().client.readResource({ uri: 'demo://resource/dynamic/text/2' });
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/plain' });
    expect(text.contents[0] && 'text' in text.contents[0] ? text.contents[0].text : '').toMatch(
      /^Resource 2: This is a plaintext resource created at /,
    );
    const blob = await session().client.readResource({ uri: 'demo://resource/dynamic/blob/3' });
    const bytes = blob.contents[0] && 'blob' in blob.contents[0] ? blob.contents[0].blob : '';
    expect(Buffer.from(bytes, 'base64').toString()).toMatch(/^Resource 3: This is a base64 blob/);

    const reference = await session().call('get-resource-reference', {
      resourceType: 'Text',
      resourceId: 5,
    });
    expect(reference.content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/text/5', mimeType: 'text/plain' },
    });
    const blobReference = await session().call('get-resource-reference', {
      resourceType: 'Blob',
      resourceId: 6,
    });
    expect(blobReference.content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/blob/6', blob: expect.any(String) },
    });
  });

  it('gzips a data: URI into an embedded blob and into a session resource it lists and reads', async () => {
    const original = 'spoolforge through the proxy\n'.repeat(20);
    const data = `data:text/plain;base64,${Buffer.from(original).toString('base64')}`;
    const embedded = await session().call('gzip-file-as-resource', {
      name: 'a.txt.gz',
      data,
      outputType: 'resource',
    });
    const [part] = embedded.content;
    expect(part).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/session/a.txt.gz' },
    });
    const blob = part?.type === 'resource' && 'blob' in part.resource ? part.resource.blob : '';
    expect(gunzipSync(Buffer.from(blob, 'base64')).toString()).toBe(original);

    const linked = await session().call('gzip-file-as-resource', { name: 'b.txt.gz', data });
    expect(linked.content).toEqual([
      {
        type: 'resource_link',
        uri: 'demo://resource/session/b.txt.gz',
        name: 'b.txt.gz',
        mimeType: 'application/gzip',
      },
    ]);
    // A new session resource: the upstream says its resource list changed.
    await expect.poll(() => session().notified).toContain('notifications/resources/list_changed');
    const read = await session().client.readResource({ uri: 'demo://resource/session/b.txt.gz' });
    const gz = read.contents[0] && 'blob' in read.contents[0] ? read.contents[0].blob : '';
    expect(gunzipSync(Buffer.from(gz, 'base64')).toString()).toBe(original);

    const refused = await session().call('gzip-file-as-resource', {
      name: 'c.gz',
      data: 'file:///etc/passwd',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('Only http, https, and data URLs are supported');
  });

  it('reports every progress notification of a long-running operation, the last one too, though it comes with the result', async () => {
    const progress: unknown[] = [];
    const result = await session().client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } },
      undefined,
      {
        onprogress: (each) => {
          progress.push(each);
          // This process (client and proxy) busy for a second: the upstream's last progress
          // and its result wait in the pipe, and the proxy reads them in one chunk.
          if (each.progress === 2)
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
        },
      },
    );
    expect(textOf(result as CallToolResult)).toBe(
      'Long running operation completed. Duration: 0.6 seconds, Steps: 3.',
    );
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("gives get-roots-list the client's roots, and again after the client says they changed", async () => {
    expect(textOf(await session().call('get-roots-list'))).toContain(
      'Current MCP Roots (1 total):\n\n1. project\n   URI: file:///work/project',
    );
    session().roots = [...session().roots, { uri: 'file:///work/docs', name: 'docs' }];
    const asked = session().requests.filter((each) => each.method === 'roots/list').length;
    await session().client.sendRootsListChanged();
    await expect
      .poll(() => session().requests.filter((each) => each.method === 'roots/list').length)
      .toBe(asked + 1);
    await expect
      .poll(async () => textOf(await session().call('get-roots-list')))
      .toContain('2. docs\n   URI: file:///work/docs');
  });
});
