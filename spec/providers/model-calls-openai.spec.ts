import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import {
  ArtifactStore,
  ConversationLog,
  compactLog,
  defineTool,
  type ProjectContextOptions,
  projectContext,
  toolOutputCacheTools,
} from 'spoolforge';
import {
  chatCompletionsFormat,
  fromChatCompletionsMessage,
  fromChatCompletionsToolCalls,
  fromResponsesOutputItems,
  OpenAIToolSession,
  openAISummariser,
  responsesFormat,
  toChatCompletionsMessages,
  toResponsesInput,
  usageOfChatCompletion,
  usageOfResponse,
} from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onCallScript } from '../../examples/support/on-call-script.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import { type ScriptedModel, startScriptedModel } from '../../examples/support/scripted-model.js';
import { tempDirectory } from '../helpers/temp-files.js';
import { errorCode } from '../store/store-helpers.js';

/** A service's log, ~400 KB: spooled, so the model gets a handle. */
async function* serviceLog(service: string) {
  for (let batch = 0; batch < 4; batch++) {
    const lines: string[] = [];
    for (let line = 0; line < 1_000; line++) {
      const error = batch === 2 && line === 500;
      lines.push(
        `${error ? 'ERROR' : 'INFO '} ${service} request ${batch * 1_000 + line} ${'·'.repeat(60)}`,
      );
    }
    yield `${lines.join('\n')}\n`;
  }
}

const fetchServiceLog = defineTool({
  name: 'fetch_service_log',
  description: "Returns a service's full log.",
  inputSchema: z.object({ service: z.string() }),
  handler: ({ service }) => serviceLog(service),
});

const instructions = 'You are an on-call assistant. Query large tool outputs; never guess.';
// Small so a few questions trim and compact.
const projection: ProjectContextOptions = { contextBudgetTokens: 1_500, instructions };
const questions = ['checkout-api', 'cart', 'payments', 'inventory'].map(
  (service) => `Checkout failed. What does the ${service} log say went wrong?`,
);

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

/** A client whose request bodies (the bytes the SDK sent) are kept, in order. */
async function recordingClient() {
  scripted = await startScriptedModel({
    wires: [openAIChatWire, openAIResponsesWire],
    script: onCallScript,
  });
  const bodies: string[] = [];
  const client = new OpenAI({
    apiKey: 'offline',
    baseURL: `${scripted.url}/v1`,
    maxRetries: 0,
    fetch: (url, init) => {
      bodies.push(String(init?.body));
      return fetch(url, init);
    },
  });
  return { client, bodies };
}

describe('model calls recorded through the OpenAI adapter', () => {
  it('reads every Chat Completions call back as the bytes the SDK sent, across trimming, compaction and a restart', async () => {
    const { client, bodies } = await recordingClient();
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const summarise = openAISummariser({ client, model: 'scripted' });
    /** The body each recorded call sent, by call number. */
    const sent: string[] = [];
    let log = await ConversationLog.open({ store, conversationId: 'on-call' });
    let compactions = 0;
    let trimmedCalls = 0;

    async function ask(question: string) {
      await using agent = new OpenAIToolSession({
        tools: [fetchServiceLog, ...toolOutputCacheTools(log)],
        store,
      });
      await log.append({ role: 'user', content: question });
      for (let step = 0; step < 6; step++) {
        let dispatch = agent.chatCompletionsDispatch();
        let view = await projectContext(log.history(), { ...projection, tools: dispatch.tools });
        if (view.overBudget) {
          await compactLog(log, { ...projection, summarise });
          compactions++;
          dispatch = agent.chatCompletionsDispatch();
          view = await projectContext(log.history(), { ...projection, tools: dispatch.tools });
        }
        if (view.trimmed.length > 0) trimmedCalls++;
        const request = {
          model: 'scripted',
          messages: toChatCompletionsMessages(view.messages, { instructions }),
          tools: dispatch.tools,
          parallel_tool_calls: false,
        };
        const startedAt = Date.now();
        const completion = await dispatch.track(client.chat.completions.create(request));
        sent.push(bodies.at(-1) as string);
        const record = await log.modelCalls.record({
          projection: view,
          request,
          format: chatCompletionsFormat,
          formatOptions: { instructions },
          startedAt,
          usage: usageOfChatCompletion(completion),
        });
        expect(record.call).toBe(sent.length - 1);
        const message = completion.choices[0]?.message;
        if (!message) throw new Error('no reply');
        await log.append(fromChatCompletionsMessage(message));
        if (!message.tool_calls?.length) return;
        const calls = fromChatCompletionsToolCalls(message.tool_calls);
        await log.appendToolOutcomes(await agent.session.run(calls, dispatch.context));
      }
    }

    for (const question of questions.slice(0, 3)) await ask(question);
    await log.close();
    // A restart: the handles read back name tool_output_cache; calls go on numbering.
    log = await ConversationLog.open({ store, conversationId: 'on-call' });
    await ask(questions[3] as string);
    await ask('Compare that with the very first service we looked at.');

    expect(compactions).toBeGreaterThan(0);
    expect(trimmedCalls).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThan(10);
    for (const [call, body] of sent.entries()) {
      const request = await log.modelCalls.request(call, { formats: [chatCompletionsFormat] });
      expect(JSON.stringify(request), `call ${call}`).toBe(body);
    }
    const last = await log.modelCalls.get(sent.length - 1);
    expect(last?.model).toBe('scripted');
    expect(last?.format).toBe('openai.chat-completions');
    expect(last?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(last?.usage?.totalTokens).toBe(
      (last?.usage?.inputTokens ?? 0) + (last?.usage?.outputTokens ?? 0),
    );
    expect(last?.usage?.totalTokens).toBeGreaterThan(0);
    expect(await log.modelCalls.get(sent.length)).toBeUndefined();

    // The record holds references: no log line, no tool schema copied per call.
    const file = await readFile(
      join(store.directory, 'conversations', 'on-call.model-calls.jsonl'),
      'utf8',
    );
    const records = file.trimEnd().split('\n');
    expect(records).toHaveLength(sent.length);
    // Past its values (stored once), a record is its references: it does not grow with the
    // context the request carried.
    for (const line of records) {
      const { values: _values, ...references } = JSON.parse(line) as Record<string, unknown>;
      expect(JSON.stringify(references).length).toBeLessThan(700);
    }
    expect(sent.at(-1)?.length).toBeGreaterThan(4_000);
    expect(file).not.toContain('INFO  checkout-api request');
    const schemaCopies = file.split('"Returns a service\'s full log."').length - 1;
    expect(schemaCopies).toBe(2); // once per opening of the log
    await log.close();
  });

  it('reads a Responses API call back as the bytes the SDK sent', async () => {
    const { client, bodies } = await recordingClient();
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    await using log = await ConversationLog.open({ store, conversationId: 'responses' });
    await using agent = new OpenAIToolSession({ tools: [fetchServiceLog], store });
    await log.append({ role: 'user', content: questions[0] as string });
    const sent: string[] = [];
    for (let step = 0; step < 4; step++) {
      const dispatch = agent.responsesDispatch();
      const view = await projectContext(log.history(), { ...projection, tools: dispatch.tools });
      const request = {
        model: 'scripted',
        instructions,
        input: toResponsesInput(view.messages),
        tools: dispatch.tools,
      };
      const startedAt = Date.now();
      const response = await dispatch.track(client.responses.create(request));
      sent.push(bodies.at(-1) as string);
      await log.modelCalls.record({
        projection: view,
        request,
        format: responsesFormat,
        startedAt,
        usage: usageOfResponse(response),
      });
      await log.append(...fromResponsesOutputItems(response.output));
      const calls = response.output.filter((item) => item.type === 'function_call');
      if (calls.length === 0) break;
      const outcomes = await agent.session.run(
        calls.map((call) => ({ id: call.call_id, name: call.name, arguments: call.arguments })),
        dispatch.context,
      );
      await log.appendToolOutcomes(outcomes);
    }
    expect(sent.length).toBeGreaterThan(2);
    for (const [call, body] of sent.entries()) {
      const request = await log.modelCalls.request(call, { formats: [responsesFormat] });
      expect(JSON.stringify(request)).toBe(body);
    }
  });

  it('refuses a request whose messages are not the projection of the log', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    await using log = await ConversationLog.open({ store });
    await log.append({ role: 'user', content: 'hi' });
    const view = await projectContext(log.history(), projection);
    const request = { model: 'm', messages: toChatCompletionsMessages(view.messages) };
    await log.append({ role: 'assistant', content: 'hello' });
    const recording = log.modelCalls.record({
      projection: view,
      request,
      format: chatCompletionsFormat,
      startedAt: Date.now(),
    });
    expect(await errorCode(recording)).toBe('E_INVALID_ARGUMENT');
    await expect(log.modelCalls.request(0, { formats: [chatCompletionsFormat] })).rejects.toThrow(
      'No model call 0',
    );
  });
});
