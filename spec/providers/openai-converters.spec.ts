import OpenAI from 'openai';
import type { ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses';
import { defineTool, Media, SpoolforgeError } from 'spoolforge';
import {
  fromChatCompletionsToolCalls,
  fromResponsesOutput,
  OpenAIToolSession,
  toChatCompletionsTools,
  toResponsesTools,
} from 'spoolforge/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import { type ScriptedModel, startScriptedModel } from '../../examples/support/scripted-model.js';

const png = filled([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 3_000);
const pdf = filled([...Buffer.from('%PDF-1.7\n')], 3_000);
const pngBase64 = Buffer.from(png).toString('base64');
const pdfBase64 = Buffer.from(pdf).toString('base64');
const mediaTools = [
  defineTool({
    name: 'render_chart',
    description: 'Renders the build-time chart.',
    inputSchema: z.object({}),
    handler: () => new Media(png, { mediaType: 'image/png', name: 'chart.png' }),
  }),
  defineTool({
    name: 'export_report',
    description: 'Exports the report.',
    inputSchema: z.object({}),
    handler: () => new Media(pdf, { mediaType: 'application/pdf' }),
  }),
];
const chatCalls: ChatCompletionMessageFunctionToolCall[] = [
  { id: 'call_chart', type: 'function', function: { name: 'render_chart', arguments: '{}' } },
  { id: 'call_report', type: 'function', function: { name: 'export_report', arguments: '{}' } },
];
const responsesCalls: ResponseFunctionToolCall[] = chatCalls.map((call) => ({
  type: 'function_call',
  call_id: call.id,
  name: call.function.name,
  arguments: call.function.arguments,
}));
const produceLog = defineTool({
  name: 'produce_log',
  description: 'Returns a log.',
  inputSchema: z.object({}),
  handler: async function* () {
    for (let line = 0; line < 5_000; line++) yield `line ${line}\n`;
  },
});

let model: ScriptedModel;
let client: OpenAI;
let loop: OpenAIToolSession;
beforeEach(async () => {
  model = await startScriptedModel({
    wires: [openAIChatWire, openAIResponsesWire],
    script: () => ({ text: 'seen' }),
  });
  client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
});
afterEach(async () => {
  await loop?.close();
  await model.close();
});

describe('media returned by a tool, through the real openai client', () => {
  it('Chat Completions: text-only tool messages, then a user message with image_url and file parts', async () => {
    loop = new OpenAIToolSession({ tools: mediaTools });
    const turn = loop.chatCompletionsDispatch();
    const answers = await turn.run(chatCalls);
    await client.chat.completions.create({
      model: 'scripted',
      tools: turn.tools,
      messages: [
        { role: 'user', content: 'Show me the chart and the report.' },
        { role: 'assistant', content: null, tool_calls: chatCalls },
        ...answers,
      ],
    });
    const body = model.requests[0]?.body ?? {};
    expectNoBase64InText(body);
    const messages = body.messages as { role: string; content: unknown; tool_call_id?: string }[];
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(messages[2]).toMatchObject({ tool_call_id: 'call_chart' });
    expect(messages[2]?.content).toContain('image/png "chart.png"');
    expect(messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'Tool output: image/png "chart.png" from call call_chart.' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
      { type: 'text', text: 'Tool output: application/pdf from call call_report.' },
      {
        type: 'file',
        file: {
          file_data: `data:application/pdf;base64,${pdfBase64}`,
          filename: 'call_report.pdf',
        },
      },
    ]);
  });

  it('Responses: function_call_output arrays with input_text, input_image and input_file parts', async () => {
    loop = new OpenAIToolSession({ tools: mediaTools });
    const turn = loop.responsesDispatch();
    const outputs = await turn.run(responsesCalls);
    await client.responses.create({
      model: 'scripted',
      tools: turn.tools,
      input: [{ role: 'user', content: 'Show me.' }, ...responsesCalls, ...outputs],
    });
    const body = model.requests[0]?.body ?? {};
    expectNoBase64InText(body);
    const sent = (body.input as { type?: string; call_id?: string; output?: unknown }[]).filter(
      (item) => item.type === 'function_call_output',
    );
    expect(sent.map((item) => item.call_id)).toEqual(['call_chart', 'call_report']);
    expect(sent[0]?.output).toEqual([
      { type: 'input_text', text: expect.stringContaining('image/png "chart.png"') },
      { type: 'input_image', image_url: `data:image/png;base64,${pngBase64}`, detail: 'auto' },
    ]);
    expect(sent[1]?.output).toContainEqual({
      type: 'input_file',
      file_data: `data:application/pdf;base64,${pdfBase64}`,
      filename: 'call_report.pdf',
    });
  });
});

describe('spoolforge/openai converters', () => {
  it('rejects a tool name OpenAI would refuse, naming it', () => {
    const bad = { ...produceLog, name: 'produce log' };
    for (const convert of [toChatCompletionsTools, toResponsesTools]) {
      expect(() => convert([bad])).toThrowError(SpoolforgeError);
      expect(() => convert([bad])).toThrowError(/'produce log'/);
    }
  });

  it('reads calls by their call ids, leaving the argument JSON for the executor', () => {
    const message = {
      type: 'message' as const,
      id: 'msg_1',
      role: 'assistant' as const,
      status: 'completed' as const,
      content: [{ type: 'output_text' as const, text: 'hi', annotations: [] }],
    };
    const call: ResponseFunctionToolCall = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_chart',
      name: 'render_chart',
      arguments: '{}',
    };
    expect(fromResponsesOutput([call, message])).toEqual([
      { id: 'call_chart', name: 'render_chart', arguments: '{}' },
    ]);
    expect(fromChatCompletionsToolCalls(null)).toEqual([]);
    expect(
      fromChatCompletionsToolCalls([
        { id: 'call_x', type: 'custom', custom: { name: 'render_chart', input: 'free text' } },
      ]),
    ).toEqual([{ id: 'call_x', name: 'render_chart', arguments: 'free text' }]);
  });

  it('keeps the forged tools of a nacked turn, so a retry offers them again', async () => {
    loop = new OpenAIToolSession({ tools: [produceLog] });
    await loop
      .chatCompletionsDispatch()
      .run([
        { id: 'call_log', type: 'function', function: { name: 'produce_log', arguments: '{}' } },
      ]);
    const turn = loop.responsesDispatch();
    turn.nack(new Error('503'));
    expect(turn.context.tools.has('artifact_grep')).toBe(true);
    expect(turn.tools.find((tool) => tool.name === 'artifact_grep')?.strict).toBe(true);
  });
});

function filled(head: number[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  bytes.set(head);
  for (let index = head.length; index < length; index++) bytes[index] = (index * 131) & 0xff;
  return bytes;
}

/** Every text a body shows the model (string contents, `text` parts) is free of the media's base64. */
function expectNoBase64InText(body: Record<string, unknown>): void {
  const texts = textsOf(body);
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    expect(text).not.toContain(pngBase64.slice(0, 64));
    expect(text).not.toContain(pdfBase64.slice(0, 64));
  }
  // Each media's bytes are in the body exactly once: in its native block.
  expect(JSON.stringify(body).split(pngBase64).length - 1).toBe(1);
  expect(JSON.stringify(body).split(pdfBase64).length - 1).toBe(1);
}

function textsOf(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return ['content', 'text', 'output'].includes(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => textsOf(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, item]) => textsOf(item, name));
}
