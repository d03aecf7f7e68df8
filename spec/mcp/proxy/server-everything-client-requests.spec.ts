// server-everything behind the proxy, asking the client: sampling, elicitation (form, URL, the
// URL the upstream requires as an error), both run as tasks the client polls, and its own
// task-only tool whose task the client polls, lists and cancels.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolResult,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  elicitedForm,
  everythingSession,
  everythingSessionPerFile,
  sampledReply,
} from '../../helpers/server-everything.js';
import { textOf } from './proxy-helpers.js';

const session = everythingSessionPerFile();

describe("McpSpoolProxy in front of server-everything: the upstream's requests to the client", () => {
  it("answers the upstream's sampling request with the client's handler", async () => {
    const result = await session().call('trigger-sampling-request', {
      prompt: 'Capital of France?',
      maxTokens: 20,
    });
    const request = session().requests.findLast((each) => each.method === 'sampling/createMessage');
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
    const form = await session().call('trigger-elicitation-request');
    const request = session().requests.findLast((each) => each.method === 'elicitation/create');
    expect(request?.params).toMatchObject({
      requestedSchema: { required: ['name'], properties: { name: { type: 'string' } } },
    });
    expect(textOf(form)).toContain(
      `User inputs:\n- Name: ${elicitedForm.name}\n- Agreed to terms: true`,
    );
    expect(textOf(form)).toContain(`- Email: ${elicitedForm.email}\n`);

    const url = await session().call('trigger-url-elicitation', {
      url: 'https://example.com/authorize',
      elicitationId: 'spec-elicitation-1',
    });
    expect(session().requests.at(-1)?.params).toMatchObject({
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
    const error = await session()
      .client.callTool({ name: 'trigger-url-elicitation', arguments: args })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).elicitations).toEqual([
      expect.objectContaining({ mode: 'url', url: 'https://modelcontextprotocol.io' }),
    ]);
    // The client satisfied the prerequisite: the same call again goes on to the request path.
    expect(textOf(await session().call('trigger-url-elicitation', args))).toContain(
      '✅ User completed the URL elicitation flow.\nElicitation ID: spec-error-path',
    );
  });

  it('answers the async sampling and elicitation tools with tasks the client runs, polled through the proxy', async () => {
    const sampling = await session().call('trigger-sampling-request-async', {
      prompt: 'Capital of France?',
    });
    expect(textOf(sampling)).toMatch(/^\[COMPLETED\] Async sampling completed!/);
    expect(textOf(sampling)).toContain(sampledReply.model);
    expect(textOf(sampling)).toMatch(/Poll \d+: completed/);
    const elicitation = await session().call('trigger-elicitation-request-async');
    expect(textOf(elicitation)).toContain(
      `[COMPLETED] User provided the requested information!\nUser inputs:\n- Name: ${elicitedForm.name}\n- Favorite Color: Blue`,
    );
  });

  it('runs the task-only research tool as a task: created, polled, clarified by elicitation, its report fetched', async () => {
    await session().client.listTools(); // the SDK client asks for a task for the tools it knows need one
    const messages = [];
    const stream = session().client.experimental.tasks.callToolStream({
      name: 'simulate-research-query',
      arguments: { topic: 'python', ambiguous: true },
    });
    for await (const message of stream) messages.push(message);
    expect(messages[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
    expect(messages.slice(1, -1).map((message) => message.type)).toContain('taskStatus');
    expect(messages.at(-1)?.type).toBe('result');
    const clarification = session().requests.findLast(
      (each) => each.method === 'elicitation/create',
    );
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
    await session().client.listTools();
    const stream = session().client.experimental.tasks.callToolStream({
      name: 'simulate-research-query',
      arguments: { topic: 'history of MCP' },
    });
    const first = (await stream.next()).value;
    expect(first).toMatchObject({ type: 'taskCreated' });
    const taskId = first?.type === 'taskCreated' ? first.task.taskId : '';
    const { tasks } = await session().client.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
    expect(await session().client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'working',
    });
    await session().client.experimental.tasks.cancelTask(taskId);
    expect(await session().client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'cancelled',
    });
    await stream.return(undefined);
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
