// The regression test: summarising a history that ends in an assistant message with tool
// calls (an agent compacting mid-turn) used to send those calls unanswered, and the real APIs
// reject that with HTTP 400. The scripted model validates requests the way they do.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { generateText } from 'ai';
import OpenAI from 'openai';
import {
  ArtifactStore,
  ConversationLog,
  type ConversationMessage,
  compact,
  projectContext,
  summaryRequest,
} from 'spoolforge';
import { toModelMessages } from 'spoolforge/ai-sdk';
import { anthropicSummariser, toAnthropicMessages } from 'spoolforge/anthropic';
import { openAISummariser, toChatCompletionsMessages, toResponsesInput } from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicWire } from '../../examples/support/anthropic-wire.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  type ScriptedModel,
  startScriptedModel,
  type WireFormat,
} from '../../examples/support/scripted-model.js';
import { tempDirectory } from '../helpers/temp-files.js';

const summaryReply =
  '<retain>\nbuild 4812\nsrc/spool.c\n</retain>\n<summary>\nThe linker failed; src/spool.c was patched.\n</summary>';

/** A history whose last message asks for tools no result has answered yet. */
function historyEndingInCalls(text: string, ids: [string, string, string]): ConversationMessage[] {
  const [first, second, third] = ids;
  return [
    { role: 'user', content: 'Why did build 4812 fail?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: first, name: 'run_build', arguments: '{"target":"all"}' }],
    },
    { role: 'tool', toolCallId: first, toolName: 'run_build', content: 'exit 2', ref: 'a1b2' },
    { role: 'assistant', content: 'The linker failed. Patched src/spool.c.' },
    { role: 'user', content: 'Run the tests.' },
    {
      role: 'assistant',
      content: text,
      toolCalls: [
        { id: second, name: 'run_tests', arguments: '{"suite":"unit"}' },
        { id: third, name: 'run_tests', arguments: '{"suite":"e2e"}' },
      ],
    },
  ];
}

/** One provider API: its wire, the naive request, the ready summariser, the expected 400. */
interface Api {
  name: string;
  wire: WireFormat;
  ids: [string, string, string];
  /** Sends `messages` as they are, the way a summariser without the fix did. */
  sendNaively(url: string, messages: ConversationMessage[]): Promise<unknown>;
  summariser(url: string): Parameters<typeof compact>[1]['summarise'];
  /** The request body the fixed summariser must have sent. */
  expectedBody(history: ConversationMessage[]): Record<string, unknown>;
  error: RegExp;
  /** The 400 for a tool result whose call is not in the request (id ending in 9). */
  orphanError: RegExp;
  errorClass: new (...args: never[]) => Error;
}

const openAI = (url: string) =>
  new OpenAI({ apiKey: 'offline', baseURL: `${url}/v1`, maxRetries: 0 });
const anthropic = (url: string) =>
  new Anthropic({ apiKey: 'offline', baseURL: url, maxRetries: 0 });

const apis: Api[] = [
  {
    name: 'OpenAI Chat Completions',
    wire: openAIChatWire,
    ids: ['call_1', 'call_2', 'call_3'],
    sendNaively: (url, messages) =>
      openAI(url).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: toChatCompletionsMessages(messages),
      }),
    summariser: (url) => openAISummariser({ client: openAI(url), model: 'gpt-4o-mini' }),
    expectedBody: (history) => ({
      model: 'gpt-4o-mini',
      messages: toChatCompletionsMessages(summaryRequest(history)),
    }),
    error:
      /^400 An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\. The following tool_call_ids did not have response messages: call_2, call_3$/,
    orphanError:
      /^400 Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'\.$/,
    errorClass: OpenAI.BadRequestError,
  },
  {
    name: 'OpenAI Responses',
    wire: openAIResponsesWire,
    ids: ['call_1', 'call_2', 'call_3'],
    sendNaively: (url, messages) =>
      openAI(url).responses.create({ model: 'gpt-4o-mini', input: toResponsesInput(messages) }),
    summariser: (url) =>
      openAISummariser({
        client: openAI(url),
        model: 'gpt-4o-mini',
        api: 'responses',
        maxOutputTokens: 2_000,
        instructions: 'You write summaries.',
      }),
    expectedBody: (history) => ({
      model: 'gpt-4o-mini',
      input: toResponsesInput(summaryRequest(history)),
      instructions: 'You write summaries.',
      max_output_tokens: 2_000,
    }),
    error: /^400 No tool output found for function call call_2\.$/,
    orphanError: /^400 No tool call found for function call output with call_id call_9\.$/,
    errorClass: OpenAI.BadRequestError,
  },
  {
    name: 'Anthropic Messages',
    wire: anthropicWire,
    ids: ['toolu_1', 'toolu_2', 'toolu_3'],
    sendNaively: (url, messages) =>
      anthropic(url).messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 1_024,
        messages: toAnthropicMessages(messages),
      }),
    summariser: (url) => anthropicSummariser({ client: anthropic(url), model: 'claude-haiku-4-5' }),
    expectedBody: (history) => ({
      model: 'claude-haiku-4-5',
      max_tokens: 4_096,
      messages: toAnthropicMessages(summaryRequest(history)),
    }),
    error:
      /"messages\.5: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_2, toolu_3\. Each `tool_use` block must have a corresponding `tool_result` block in the next message\."/,
    orphanError:
      /"messages\.0\.content\.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9\. Each `tool_result` block must have a corresponding `tool_use` block in the previous message\."/,
    errorClass: Anthropic.BadRequestError,
  },
];

/**
 * A log as a process killed mid tool run leaves it: a child process records a user message, an
 * assistant message with two calls and the first call's result, starts the second run (which
 * never ends) and is killed with SIGKILL.
 */
async function crashedLog(ids: readonly string[]): Promise<ConversationLog> {
  const directory = await tempDirectory();
  const script = `
    const { ArtifactStore, ConversationLog } = await import('spoolforge');
    const [directory, first, second] = process.argv.slice(1);
    const store = await ArtifactStore.open(directory);
    const log = await ConversationLog.open({ store, conversationId: 'crashed', sync: true });
    await log.append(
      { role: 'user', content: 'Build and test it.' },
      { role: 'assistant', content: 'Building and testing.', toolCalls: [
        { id: first, name: 'run_build', arguments: '{}' },
        { id: second, name: 'run_tests', arguments: '{"suite":"unit"}' },
      ] },
      { role: 'tool', toolCallId: first, toolName: 'run_build', content: 'exit 0' },
    );
    process.stdout.write('running run_tests\\n');
    setInterval(() => undefined, 1_000);
  `;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, directory, ids[0] ?? '', ids[1] ?? ''],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [started] = (await once(child.stdout, 'data')) as [Buffer];
  expect(started.toString()).toBe('running run_tests\n');
  child.kill('SIGKILL');
  const [, signal] = await once(child, 'exit');
  expect(signal).toBe('SIGKILL');
  return ConversationLog.open({
    store: await ArtifactStore.open(directory),
    conversationId: 'crashed',
  });
}

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.each(apis)('$name: summarising a history that ends in tool calls', (api) => {
  it.each([
    ['with text', 'Running the tests.'],
    ['without text', ''],
  ])(
    'fails naively with the API 400, and compact() sends a valid request (%s)',
    async (_, text) => {
      model = await startScriptedModel({
        wires: [api.wire],
        script: () => ({ text: summaryReply }),
      });
      const history = historyEndingInCalls(text, api.ids);
      const instruction = summaryRequest(history).at(-1) as ConversationMessage;

      // The break: the history as it is, plus the instruction.
      const naive = api.sendNaively(model.url, [...history, instruction]);
      await expect(naive).rejects.toBeInstanceOf(api.errorClass);
      await expect(naive).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(api.error),
      });
      expect(model.rejected).toHaveLength(1);
      expect(model.requests).toHaveLength(0);

      // The fix: the same server accepts what compact() sends, and the summary replaces the past.
      const compacted = await compact(history, { summarise: api.summariser(model.url) });
      expect(model.rejected).toHaveLength(1);
      expect(model.requests).toHaveLength(1);
      const sent = model.requests[0]?.body;
      expect(sent).toEqual(api.expectedBody(history));
      expect(sent).not.toHaveProperty('tools');
      expect(JSON.stringify(sent)).not.toContain(api.ids[1]);
      expect(compacted).toMatchObject({
        retain: 'build 4812\nsrc/spool.c',
        summary: 'The linker failed; src/spool.c was patched.',
        keptFrom: 4,
      });
      expect(compacted.history.slice(1)).toEqual(history.slice(4));
    },
  );

  it('projects a log a crash left mid tool run into a request the API accepts', async () => {
    model = await startScriptedModel({ wires: [api.wire], script: () => ({ text: 'ok' }) });
    const log = await crashedLog(api.ids);
    const [first, second] = api.ids;
    expect(log.history().at(-2)).toMatchObject({ role: 'assistant' });
    await log.append({ role: 'user', content: 'Did the tests pass?' });
    const { messages } = await projectContext(log.history(), { contextBudgetTokens: 20_000 });
    await log.close();
    expect(messages.slice(2, 4)).toEqual([
      { role: 'tool', toolCallId: first, toolName: 'run_build', content: 'exit 0' },
      {
        role: 'tool',
        toolCallId: second,
        toolName: 'run_tests',
        content: expect.stringContaining('interrupted'),
        isError: true,
      },
    ]);
    await api.sendNaively(model.url, messages);
    expect(model.rejected).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
  });

  it('rejects a result for a call the assistant message before it did not make', async () => {
    model = await startScriptedModel({ wires: [api.wire], script: () => ({ text: summaryReply }) });
    const [first] = api.ids;
    const history: ConversationMessage[] = [
      { role: 'user', content: 'Build it.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: first, name: 'run_build', arguments: '{}' }],
      },
      { role: 'tool', toolCallId: first, toolName: 'run_build', content: 'exit 0' },
      // Right after a call that is answered: another result, for an id no message called.
      {
        role: 'tool',
        toolCallId: `${first.slice(0, -1)}9`,
        toolName: 'run_build',
        content: 'exit 2',
      },
    ];
    const sent = api.sendNaively(model.url, history);
    await expect(sent).rejects.toBeInstanceOf(api.errorClass);
    await expect(sent).rejects.toMatchObject({ status: 400 });
  });

  it('fails naively on a result whose call is gone, and compact() quotes it instead', async () => {
    model = await startScriptedModel({ wires: [api.wire], script: () => ({ text: summaryReply }) });
    const orphanId = `${api.ids[0].slice(0, -1)}9`;
    const history: ConversationMessage[] = [
      { role: 'user', content: 'Go on from the last result.' },
      { role: 'tool', toolCallId: orphanId, toolName: 'run_build', content: 'exit 2' },
      { role: 'assistant', content: 'The build failed.' },
      { role: 'user', content: 'Fix it.' },
    ];
    const instruction = summaryRequest(history).at(-1) as ConversationMessage;
    await expect(api.sendNaively(model.url, [...history, instruction])).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(api.orphanError),
    });
    await compact(history, { summarise: api.summariser(model.url) });
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]?.body)).toContain(
      `[Result of tool run_build (call ${orphanId})]\\nexit 2`,
    );
  });
});

describe('Vercel AI SDK: a log a crash left mid tool run', () => {
  it('projects into messages generateText sends and the API accepts', async () => {
    model = await startScriptedModel({ wires: [openAIChatWire], script: () => ({ text: 'ok' }) });
    const log = await crashedLog(['call_1', 'call_2']);
    await log.append({ role: 'user', content: 'Did the tests pass?' });
    const { messages } = await projectContext(log.history(), { contextBudgetTokens: 20_000 });
    await log.close();
    const provider = createOpenAI({ apiKey: 'offline', baseURL: `${model.url}/v1` });
    const { text } = await generateText({
      model: provider.chat('gpt-4o-mini'),
      instructions: 'You run builds.',
      messages: toModelMessages(messages),
      maxRetries: 0,
    });
    expect(text).toBe('ok');
    expect(model.rejected).toHaveLength(0);
    const sent = model.requests[0]?.body as { messages: { role: string; tool_call_id?: string }[] };
    expect(sent.messages.map((message) => message.tool_call_id ?? message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'call_1',
      'call_2',
      'user',
    ]);
  });
});
