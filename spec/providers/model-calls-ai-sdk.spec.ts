import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import {
  ArtifactStore,
  ConversationLog,
  type ConversationMessage,
  defineTool,
  type ProjectContextOptions,
  projectContext,
  toolOutputCacheTools,
} from 'spoolforge';
import {
  type AiSdkToolDeclaration,
  aiSdkToolDeclarations,
  modelMessagesFormat,
  type SpoolforgeToolOutput,
  spoolforgeToolSet,
  toModelMessages,
} from 'spoolforge/ai-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onCallScript } from '../../examples/support/on-call-script.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { type ScriptedModel, startScriptedModel } from '../../examples/support/scripted-model.js';
import { tempDirectory } from '../helpers/temp-files.js';

const fetchServiceLog = defineTool({
  name: 'fetch_service_log',
  description: "Returns a service's full log.",
  inputSchema: z.object({ service: z.string() }),
  handler: ({ service }) =>
    Array.from({ length: 3_000 }, (_, line) =>
      line === 2_000 ? `ERROR ${service} upstream timed out` : `INFO ${service} request ${line}`,
    ).join('\n'),
});

const instructions = 'You are an on-call assistant. Query large tool outputs; never guess.';
const projection: ProjectContextOptions = { contextBudgetTokens: 500, instructions };

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

/** The request a recorded AI SDK call carried, as `generateText` settings again. */
function offered(declarations: Record<string, AiSdkToolDeclaration>): ToolSet {
  return Object.fromEntries(
    Object.entries(declarations).map(([name, { description, inputSchema, strict }]) => [
      name,
      tool({
        ...(description === undefined ? {} : { description }),
        inputSchema: jsonSchema(inputSchema),
        ...(strict === undefined ? {} : { strict }),
      }),
    ]),
  );
}

describe('model calls recorded through the AI SDK adapter', () => {
  it('reads each generateText call back as the settings sent, and sending them again sends the same bytes', async () => {
    scripted = await startScriptedModel({ wires: [openAIChatWire], script: onCallScript });
    const bodies: string[] = [];
    const provider = createOpenAI({
      apiKey: 'offline',
      baseURL: `${scripted.url}/v1`,
      fetch: (url, init) => {
        bodies.push(String(init?.body));
        return fetch(url, init);
      },
    });
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    await using log = await ConversationLog.open({ store, conversationId: 'ai-sdk' });
    await using spoolforge = spoolforgeToolSet({
      tools: [fetchServiceLog, ...toolOutputCacheTools(log)],
      store,
    });
    const requests: unknown[] = [];
    const sent: string[] = [];
    for (const service of ['checkout-api', 'cart', 'payments']) {
      await log.append({ role: 'user', content: `What does the ${service} log say went wrong?` });
      for (let step = 0; step < 5; step++) {
        const view = await projectContext(log.history(), projection);
        const messages = toModelMessages(view.messages);
        let tools: Record<string, AiSdkToolDeclaration> = {};
        const startedAt = Date.now();
        const result = await generateText({
          model: provider.chat('scripted'),
          instructions,
          messages,
          tools: spoolforge.tools,
          prepareStep: async (stepOptions) => {
            const prepared = spoolforge.prepareStep(stepOptions);
            tools = await aiSdkToolDeclarations(spoolforge.tools, prepared.activeTools);
            return prepared;
          },
          onStepEnd: spoolforge.onStepEnd,
          onStepError: spoolforge.onStepError,
          stopWhen: stepCountIs(1),
        });
        sent.push(bodies.at(-1) as string);
        const request = { model: 'scripted', instructions, messages, tools };
        requests.push(JSON.parse(JSON.stringify(request)));
        await log.modelCalls.record({
          projection: view,
          request,
          format: modelMessagesFormat,
          startedAt,
          usage: {
            inputTokens: result.usage.inputTokens ?? 0,
            outputTokens: result.usage.outputTokens ?? 0,
          },
        });
        const reply: ConversationMessage[] = [
          {
            role: 'assistant',
            content: result.text,
            toolCalls: result.toolCalls.map((call) => ({
              id: call.toolCallId,
              name: call.toolName,
              arguments: JSON.stringify(call.input),
            })),
          },
          ...result.toolResults.map(
            (each): ConversationMessage => ({
              role: 'tool',
              toolCallId: each.toolCallId,
              toolName: each.toolName,
              content: (each.output as SpoolforgeToolOutput).text,
            }),
          ),
        ];
        await log.append(...reply);
        if (result.toolCalls.length === 0) break;
      }
    }
    expect(requests.length).toBeGreaterThan(6);
    for (const [call, recorded] of requests.entries()) {
      const request = (await log.modelCalls.request(call, {
        formats: [modelMessagesFormat],
      })) as {
        instructions: string;
        messages: ReturnType<typeof toModelMessages>;
        tools: Record<string, AiSdkToolDeclaration>;
      };
      expect(JSON.stringify(request), `call ${call}`).toBe(JSON.stringify(recorded));
      // Sent again through the AI SDK, the settings read back make the same HTTP body.
      await generateText({
        model: provider.chat('scripted'),
        instructions: request.instructions,
        messages: request.messages,
        tools: offered(request.tools),
        stopWhen: stepCountIs(1),
      });
      expect(bodies.at(-1), `call ${call}`).toBe(sent[call]);
    }
    const records = await Promise.all(requests.map((_, call) => log.modelCalls.get(call)));
    expect(records.some((record) => record?.context.trimmed?.length)).toBe(true);
    const first = records[0];
    expect(first?.format).toBe('ai-sdk.model-messages');
    expect(first?.usage?.inputTokens).toBeGreaterThan(0);
  });
});
