// The MCP reference server from npm (`@modelcontextprotocol/server-everything`), a third party's
// server, as a child process behind the proxy: every one of its tools, prompts, resources,
// completions and notifications works through it for a client that declares sampling,
// elicitation, roots and tasks.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolResult,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EverythingSession,
  elicitedForm,
  everythingSession,
  sampledReply,
  serverEverythingPath,
} from '../../helpers/server-everything.js';
import { handleId, textOf } from './proxy-helpers.js';

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
const docs = join(dirname(serverEverythingPath), 'docs');

let session: EverythingSession;
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await session.client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  session = await everythingSession();
});
afterAll(async () => {
  await session?.close();
});

describe('McpSpoolProxy in front of server-everything', () => {
  it('lists every upstream tool (a new one fails here until it is covered), then the query tools', async () => {
    const { tools } = await session.client.listTools();
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
    expect(await call('echo', { message: 'hello through the proxy' })).toEqual({
      content: [{ type: 'text', text: 'Echo: hello through the proxy' }],
    });
    expect(textOf(await call('get-sum', { a: 19, b: 23 }))).toBe('The sum of 19 and 23 is 42.');
    const image = await call('get-tiny-image');
    expect(image.content.map((part) => part.type)).toEqual(['text', 'image', 'text']);
    expect(image.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const data = image.content[1]?.type === 'image' ? image.content[1].data : '';
    expect(Buffer.from(data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const annotated = await call('get-annotated-message', {
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
    expect(JSON.parse(textOf(await call('get-env')))).toHaveProperty('PATH');
    const debug = await call('get-annotated-message', { messageType: 'debug' });
    expect(debug.content[0]).toMatchObject({ annotations: { audience: ['assistant'] } });
  });

  it('passes small structured content through; without the stripped output schema the SDK client accepts it', async () => {
    const { tools } = await session.client.listTools();
    expect(
      tools.find((tool) => tool.name === 'get-structured-content')?.outputSchema,
    ).toBeUndefined();
    const result = await call('get-structured-content', { location: 'Chicago' });
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    expect(result.structuredContent).toEqual(weather);
    expect(JSON.parse(textOf(result))).toEqual(weather);
  });

  it('passes resource links and embedded resources, and reads the linked upstream resources', async () => {
    const links = await call('get-resource-links', { count: 4 });
    const linked = links.content.filter((part) => part.type === 'resource_link');
    expect(linked.map((part) => part.uri)).toEqual([
      'demo://resource/dynamic/blob/1',
      'demo://resource/dynamic/text/2',
      'demo://resource/dynamic/blob/3',
      'demo://resource/dynamic/text/4',
    ]);
    const text = await session.client.readResource({ uri: 'demo://resource/dynamic/text/2' });
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/plain' });
    expect(text.contents[0] && 'text' in text.contents[0] ? text.contents[0].text : '').toMatch(
      /^Resource 2: This is a plaintext resource created at /,
    );
    const blob = await session.client.readResource({ uri: 'demo://resource/dynamic/blob/3' });
    const bytes = blob.contents[0] && 'blob' in blob.contents[0] ? blob.contents[0].blob : '';
    expect(Buffer.from(bytes, 'base64').toString()).toMatch(/^Resource 3: This is a base64 blob/);

    const reference = await call('get-resource-reference', { resourceType: 'Text', resourceId: 5 });
    expect(reference.content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/text/5', mimeType: 'text/plain' },
    });
    const blobReference = await call('get-resource-reference', {
      resourceType: 'Blob',
      resourceId: 6,
    });
    expect(blobReference.content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/blob/6', blob: expect.any(String) },
    });
  });

  it("answers the upstream's sampling request with the client's handler", async () => {
    const result = await call('trigger-sampling-request', {
      prompt: 'Capital of France?',
      maxTokens: 20,
    });
    const request = session.requests.findLast((each) => each.method === 'sampling/createMessage');
    expect(request?.params).toMatchObject({
      maxTokens: 20,
      systemPrompt: 'You are a helpful test server.',
      messages: [
        { content: { text: 'Resource trigger-sampling-request context: Capital of France?' } },
      ],
    });
    const sampled = JSON.parse(textOf(result).replace(/^LLM sampling result: \n/, ''));
    expect(sampled).toEqual(sampledReply);
  });

  it("answers the upstream's form and URL elicitations with the client's handler", async () => {
    const form = await call('trigger-elicitation-request');
    const request = session.requests.findLast((each) => each.method === 'elicitation/create');
    expect(request?.params).toMatchObject({
      requestedSchema: { required: ['name'], properties: { name: { type: 'string' } } },
    });
    expect(textOf(form)).toContain(
      `User inputs:\n- Name: ${elicitedForm.name}\n- Agreed to terms: true`,
    );
    expect(textOf(form)).toContain(`- Email: ${elicitedForm.email}\n`);

    const url = await call('trigger-url-elicitation', {
      url: 'https://example.com/authorize',
      elicitationId: 'spec-elicitation-1',
    });
    expect(session.requests.at(-1)?.params).toMatchObject({
      mode: 'url',
      url: 'https://example.com/authorize',
      elicitationId: 'spec-elicitation-1',
    });
    expect(textOf(url)).toContain(
      '✅ User completed the URL elicitation flow.\nElicitation ID: spec-elicitation-1',
    );
  });

  it('passes the URL elicitation the upstream requires as its JSON-RPC error (-32042) with its elicitations', async () => {
    const args = {
      url: 'https://example.com/login',
      elicitationId: 'spec-error-path',
      errorPath: true,
    };
    const error = await session.client
      .callTool({ name: 'trigger-url-elicitation', arguments: args })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).elicitations).toEqual([
      expect.objectContaining({ mode: 'url', url: 'https://modelcontextprotocol.io' }),
    ]);
    // The client satisfied the prerequisite: the same call again goes on to the request path.
    expect(textOf(await call('trigger-url-elicitation', args))).toContain(
      '✅ User completed the URL elicitation flow.\nElicitation ID: spec-error-path',
    );
  });

  it('answers the async sampling and elicitation tools with tasks the client runs, polled through the proxy', async () => {
    const sampling = await call('trigger-sampling-request-async', { prompt: 'Capital of France?' });
    expect(textOf(sampling)).toMatch(/^\[COMPLETED\] Async sampling completed!/);
    expect(textOf(sampling)).toContain(sampledReply.model);
    expect(textOf(sampling)).toMatch(/Poll \d+: completed/);
    const elicitation = await call('trigger-elicitation-request-async');
    expect(textOf(elicitation)).toContain(
      `[COMPLETED] User provided the requested information!\nUser inputs:\n- Name: ${elicitedForm.name}\n- Favorite Color: Blue`,
    );
  });

  it('reports every progress notification of a long-running operation, the last one too, though it comes with the result', async () => {
    const progress: unknown[] = [];
    const result = await session.client.callTool(
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

  it('runs the task-only research tool as a task: created, polled, clarified by elicitation, its report fetched', async () => {
    await session.client.listTools(); // the SDK client asks for a task for the tools it knows need one
    const messages = [];
    const stream = session.client.experimental.tasks.callToolStream({
      name: 'simulate-research-query',
      arguments: { topic: 'python', ambiguous: true },
    });
    for await (const message of stream) messages.push(message);
    expect(messages[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
    expect(messages.slice(1, -1).map((message) => message.type)).toContain('taskStatus');
    expect(messages.at(-1)?.type).toBe('result');
    const clarification = session.requests.findLast((each) => each.method === 'elicitation/create');
    expect(clarification?.params).toMatchObject({
      message: expect.stringContaining(
        'The research query "python" could have multiple interpretations',
      ),
    });
    const last = messages.at(-1);
    const report = last?.type === 'result' ? textOf(last.result as CallToolResult) : '';
    expect(report).toContain('# Research Report: python (programming)');
  });

  it('lists, gets and cancels an upstream task through the proxy', async () => {
    await session.client.listTools();
    const stream = session.client.experimental.tasks.callToolStream({
      name: 'simulate-research-query',
      arguments: { topic: 'history of MCP' },
    });
    const first = (await stream.next()).value;
    expect(first).toMatchObject({ type: 'taskCreated' });
    const taskId = first?.type === 'taskCreated' ? first.task.taskId : '';
    const { tasks } = await session.client.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
    expect(await session.client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'working',
    });
    await session.client.experimental.tasks.cancelTask(taskId);
    expect(await session.client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'cancelled',
    });
    await stream.return(undefined);
  });

  it("gives get-roots-list the client's roots, and again after the client says they changed", async () => {
    expect(textOf(await call('get-roots-list'))).toContain(
      'Current MCP Roots (1 total):\n\n1. project\n   URI: file:///work/project',
    );
    session.roots = [...session.roots, { uri: 'file:///work/docs', name: 'docs' }];
    const asked = session.requests.filter((each) => each.method === 'roots/list').length;
    await session.client.sendRootsListChanged();
    await expect
      .poll(() => session.requests.filter((each) => each.method === 'roots/list').length)
      .toBe(asked + 1);
    await expect
      .poll(async () => textOf(await call('get-roots-list')))
      .toContain('2. docs\n   URI: file:///work/docs');
  });

  it('gzips a data: URI into an embedded blob and into a session resource it lists and reads', async () => {
    const original = 'spoolforge through the proxy\n'.repeat(20);
    const data = `data:text/plain;base64,${Buffer.from(original).toString('base64')}`;
    const embedded = await call('gzip-file-as-resource', {
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

    const linked = await call('gzip-file-as-resource', { name: 'b.txt.gz', data });
    expect(linked.content).toEqual([
      {
        type: 'resource_link',
        uri: 'demo://resource/session/b.txt.gz',
        name: 'b.txt.gz',
        mimeType: 'application/gzip',
      },
    ]);
    // A new session resource: the upstream says its resource list changed.
    await expect.poll(() => session.notified).toContain('notifications/resources/list_changed');
    const read = await session.client.readResource({ uri: 'demo://resource/session/b.txt.gz' });
    const gz = read.contents[0] && 'blob' in read.contents[0] ? read.contents[0].blob : '';
    expect(gunzipSync(Buffer.from(gz, 'base64')).toString()).toBe(original);

    const refused = await call('gzip-file-as-resource', {
      name: 'c.gz',
      data: 'file:///etc/passwd',
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('Only http, https, and data URLs are supported');
  });

  it('forwards logging/setLevel and the simulated log messages', async () => {
    expect(await session.client.setLoggingLevel('debug')).toEqual({});
    expect(session.sentUpstream).toContainEqual(
      expect.objectContaining({ method: 'logging/setLevel', params: { level: 'debug' } }),
    );
    const before = session.logs.length;
    const started = await call('toggle-simulated-logging');
    expect(textOf(started)).toMatch(/^Started simulated, random-leveled logging/);
    // One message at once, at a random level ("Debug-level message" … "Alert level-message").
    await expect
      .poll(() =>
        session.logs.slice(before).some((data) => /^\w+[- ]level[- ]message/i.test(String(data))),
      )
      .toBe(true);
    expect(textOf(await call('toggle-simulated-logging'))).toMatch(/^Stopped simulated logging/);
  });

  it('forwards resources/subscribe and the resources/updated notifications, then unsubscribe', async () => {
    const uri = 'demo://resource/static/document/features.md';
    expect(await session.client.subscribeResource({ uri })).toEqual({});
    expect(textOf(await call('toggle-subscriber-updates'))).toMatch(
      /^Started simulated resource updated/,
    );
    await expect.poll(() => session.updated).toContain(uri);
    expect(textOf(await call('toggle-subscriber-updates'))).toMatch(
      /^Stopped simulated resource updates/,
    );
    expect(await session.client.unsubscribeResource({ uri })).toEqual({});
  });

  it('lists and gets prompts, with arguments and an embedded resource, and completes their arguments', async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
      'args-prompt',
      'completable-prompt',
      'resource-prompt',
      'simple-prompt',
    ]);
    const simple = await session.client.getPrompt({ name: 'simple-prompt' });
    expect(simple.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'This is a simple prompt without arguments.' },
      },
    ]);
    const args = await session.client.getPrompt({
      name: 'args-prompt',
      arguments: { city: 'Lyon', state: 'Rhône' },
    });
    expect(args.messages[0]?.content).toEqual({
      type: 'text',
      text: "What's weather in Lyon, Rhône?",
    });
    const embedded = await session.client.getPrompt({
      name: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '3' },
    });
    expect(embedded.messages[1]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/text/3' },
    });

    const department = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(department.completion.values).toEqual(['Sales', 'Support']);
    const lead = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(lead.completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
    const template = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '12' },
    });
    expect(template.completion.values).toEqual(['12']);
  });

  it('lists resources page by page and templates, reads a static document as it is on disk, and pings', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await session.client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris).toContain('demo://resource/static/document/instructions.md');
    expect(uris.filter((uri) => uri.startsWith('demo://resource/static/'))).toHaveLength(7);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    const read = await session.client.readResource({
      uri: 'demo://resource/static/document/instructions.md',
    });
    expect(read.contents).toEqual([
      {
        uri: 'demo://resource/static/document/instructions.md',
        mimeType: 'text/markdown',
        text: readFileSync(join(docs, 'instructions.md'), 'utf8'),
      },
    ]);
    expect(await session.client.ping()).toEqual({});
  });
});

describe('McpSpoolProxy in front of server-everything, spooling', () => {
  it("spools get-env's JSON past the threshold: a handle, artifact_grep/artifact_json and resources/read of it beside the upstream's", async () => {
    const marker = 'spoolforge-marker-4c1d';
    const spooling = await everythingSession({
      threshold: 2048,
      env: { SPEC_MARKER: marker, SPEC_PADDING: 'p'.repeat(8192) },
    });
    try {
      const result = (await spooling.client.callTool({
        name: 'get-env',
        arguments: {},
      })) as CallToolResult;
      const id = handleId(result);
      expect(textOf(result)).toContain('Output of get-env');
      expect(textOf(result)).toContain(': json,');
      expect(result.content.find((part) => part.type === 'resource_link')).toMatchObject({
        uri: `spoolforge://artifacts/${id}`,
        mimeType: 'application/json',
      });
      const grep = (await spooling.client.callTool({
        name: 'artifact_grep',
        arguments: { callId: id, pattern: marker, fixed: true },
      })) as CallToolResult;
      expect(textOf(grep)).toMatch(new RegExp(`^\\d+:  "SPEC_MARKER": "${marker}",?$`, 'm'));
      const get = (await spooling.client.callTool({
        name: 'artifact_json',
        arguments: { callId: id, op: 'get', path: '$.SPEC_MARKER' },
      })) as CallToolResult;
      expect(textOf(get)).toContain(marker);

      const spooled = await spooling.client.readResource({ uri: `spoolforge://artifacts/${id}` });
      const text =
        spooled.contents[0] && 'text' in spooled.contents[0] ? spooled.contents[0].text : '';
      expect(text).toMatch(/^1:\{$/m);
      const upstream = await spooling.client.readResource({
        uri: 'demo://resource/static/document/architecture.md',
      });
      expect(upstream.contents[0]).toMatchObject({
        text: readFileSync(join(docs, 'architecture.md'), 'utf8'),
      });
    } finally {
      await spooling.close();
    }
  });

  it('spools the result of a tool run as a task, fetched with tasks/result, past the threshold', async () => {
    const spooling = await everythingSession({ threshold: 1024 });
    try {
      await spooling.client.listTools();
      const messages = [];
      const stream = spooling.client.experimental.tasks.callToolStream({
        name: 'simulate-research-query',
        arguments: { topic: 'rust' },
      });
      for await (const message of stream) messages.push(message);
      const last = messages.at(-1);
      expect(last?.type).toBe('result');
      const result = (last?.type === 'result' ? last.result : { content: [] }) as CallToolResult;
      expect(textOf(result)).toContain('Output of simulate-research-query');
      expect(textOf(result)).toContain(': markdown,');
      expect(textOf(result)).not.toContain('## Synthesis');
      const grep = (await spooling.client.callTool({
        name: 'artifact_grep',
        arguments: { callId: handleId(result), pattern: '# Research Report: ', fixed: true },
      })) as CallToolResult;
      expect(textOf(grep)).toMatch(/^1:# Research Report: rust$/m);
    } finally {
      await spooling.close();
    }
  });

  it("forwards a client's cancellation of a long-running call upstream; the call ends early and the proxy stays up", async () => {
    const cancelling = await everythingSession();
    try {
      const controller = new AbortController();
      const started = Date.now();
      const pending = cancelling.client.callTool(
        { name: 'trigger-long-running-operation', arguments: { duration: 20, steps: 20 } },
        undefined,
        { signal: controller.signal, onprogress: () => controller.abort('user pressed Esc') },
      );
      await expect(pending).rejects.toThrow('user pressed Esc');
      expect(Date.now() - started).toBeLessThan(5_000);
      const upstreamCall = cancelling.sentUpstream.find(
        (message) => 'method' in message && message.method === 'tools/call',
      );
      await expect
        .poll(() =>
          cancelling.sentUpstream.find(
            (message) => 'method' in message && message.method === 'notifications/cancelled',
          ),
        )
        .toMatchObject({
          params: { requestId: upstreamCall && 'id' in upstreamCall ? upstreamCall.id : -1 },
        });
      const echo = (await cancelling.client.callTool({
        name: 'echo',
        arguments: { message: 'still here' },
      })) as CallToolResult;
      expect(textOf(echo)).toBe('Echo: still here');
    } finally {
      await cancelling.close();
    }
  });
});

describe('McpSpoolProxy forwarding what server-everything does not send', () => {
  it("forwards the upstream's notification that a URL elicitation completed", async () => {
    const upstream = new McpServer({ name: 'url-elicitation-server', version: '1.0.0' });
    upstream.registerTool('finish-sign-in', { inputSchema: {} }, async () => {
      await upstream.server.createElicitationCompletionNotifier('sign-in-1')();
      return { content: [{ type: 'text', text: 'signed in' }] };
    });
    const errors: Error[] = [];
    const proxied = await everythingSession({
      upstream: async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await upstream.connect(serverSide);
        return clientSide;
      },
      onError: (error) => errors.push(error),
    });
    try {
      const result = await proxied.client.callTool({ name: 'finish-sign-in', arguments: {} });
      expect(textOf(result as CallToolResult)).toBe('signed in');
      await expect.poll(() => proxied.completed).toEqual(['sign-in-1']);
      expect(errors).toEqual([]);
    } finally {
      await proxied.close();
    }
  });
});
