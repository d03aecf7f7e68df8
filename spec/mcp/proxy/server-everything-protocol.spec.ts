// server-everything behind the proxy: logging, subscriptions, prompts, completions, resources,
// ping, a client's cancellation, and its results spooled past the threshold — a tool's and a
// task's — beside its own resources.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  everythingSession,
  everythingSessionPerFile,
  serverEverythingDocs,
} from '../../helpers/server-everything.js';
import { handleId, textOf } from './proxy-helpers.js';

const session = everythingSessionPerFile();

describe('McpSpoolProxy in front of server-everything: the protocol', () => {
  it('forwards logging/setLevel and the simulated log messages', async () => {
    expect(await session().client.setLoggingLevel('debug')).toEqual({});
    expect(session().sentUpstream).toContainEqual(
      expect.objectContaining({ method: 'logging/setLevel', params: { level: 'debug' } }),
    );
    const before = session().logs.length;
    const started = await session().call('toggle-simulated-logging');
    expect(textOf(started)).toMatch(/^Started simulated, random-leveled logging/);
    // One message at once, at a random level ("Debug-level message" … "Alert level-message").
    await expect
      .poll(() =>
        session()
          .logs.slice(before)
          .some((data) => /^\w+[- ]level[- ]message/i.test(String(data))),
      )
      .toBe(true);
    expect(textOf(await session().call('toggle-simulated-logging'))).toMatch(
      /^Stopped simulated logging/,
    );
  });

  it('forwards resources/subscribe and the resources/updated notifications, then unsubscribe', async () => {
    const uri = 'demo://resource/static/document/features.md';
    expect(await session().client.subscribeResource({ uri })).toEqual({});
    expect(textOf(await session().call('toggle-subscriber-updates'))).toMatch(
      /^Started simulated resource updated/,
    );
    await expect.poll(() => session().updated).toContain(uri);
    expect(textOf(await session().call('toggle-subscriber-updates'))).toMatch(
      /^Stopped simulated resource updates/,
    );
    expect(await session().client.unsubscribeResource({ uri })).toEqual({});
  });

  it('lists and gets prompts, with arguments and an embedded resource, and completes their arguments', async () => {
    const { prompts } = await session().client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
      'args-prompt',
      'completable-prompt',
      'resource-prompt',
      'simple-prompt',
    ]);
    const simple = await session().client.getPrompt({ name: 'simple-prompt' });
    expect(simple.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'This is a simple prompt without arguments.' },
      },
    ]);
    const args = await session().client.getPrompt({
      name: 'args-prompt',
      arguments: { city: 'Lyon', state: 'Rhône' },
    });
    expect(args.messages[0]?.content).toEqual({
      type: 'text',
      text: "What's weather in Lyon, Rhône?",
    });
    const embedded = await session().client.getPrompt({
      name: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '3' },
    });
    expect(embedded.messages[1]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/text/3' },
    });

    const department = await session().client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(department.completion.values).toEqual(['Sales', 'Support']);
    const lead = await session().client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(lead.completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
    const template = await session().client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '12' },
    });
    expect(template.completion.values).toEqual(['12']);
  });

  it('lists resources page by page and templates, reads a static document as it is on disk, and pings', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await session().client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris).toContain('demo://resource/static/document/instructions.md');
    expect(uris.filter((uri) => uri.startsWith('demo://resource/static/'))).toHaveLength(7);
    const { resourceTemplates } = await session().client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    const read = await session().client.readResource({
      uri: 'demo://resource/static/document/instructions.md',
    });
    expect(read.contents).toEqual([
      {
        uri: 'demo://resource/static/document/instructions.md',
        mimeType: 'text/markdown',
        text: readFileSync(join(serverEverythingDocs, 'instructions.md'), 'utf8'),
      },
    ]);
    expect(await session().client.ping()).toEqual({});
  });
});

describe('McpSpoolProxy in front of server-everything: spooling and cancellation', () => {
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
        text: readFileSync(join(serverEverythingDocs, 'architecture.md'), 'utf8'),
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
