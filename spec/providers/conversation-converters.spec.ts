import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import { type ConversationMessage, compact, type TokenUsage, totalTokens } from 'spoolforge';
import {
  fromAnthropicMessage,
  toAnthropicMessages,
  usageOfAnthropicMessage,
} from 'spoolforge/anthropic';
import {
  fromChatCompletionsMessage,
  fromResponsesOutputItems,
  toChatCompletionsMessages,
  toResponsesInput,
  usageOfChatCompletion,
  usageOfResponse,
} from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicWire } from '../../examples/support/anthropic-wire.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  type ScriptedModel,
  type ScriptedTurn,
  startScriptedModel,
  type WireFormat,
} from '../../examples/support/scripted-model.js';

/** Two calls first; then an answer naming the results it was sent. */
function script(turn: ScriptedTurn) {
  if (turn.index === 0) {
    return {
      toolCalls: [
        { name: 'run_build', arguments: { target: 'all' } },
        { name: 'run_tests', arguments: {} },
      ],
    };
  }
  if (turn.index === 1) return { text: `Saw: ${turn.results.map((r) => r.text).join(' | ')}` };
  return { text: 'Still here.' };
}

/** One API, spoken only through the neutral history and the converters under test. */
interface Api {
  name: string;
  wire: WireFormat;
  callId: (position: number) => string;
  ask(url: string, history: ConversationMessage[]): Promise<ConversationMessage[]>;
  /** The second request's history as the provider spells it. */
  sentHistory(body: Record<string, unknown>): unknown;
  expectedSentHistory: unknown;
}

const openAI = (url: string) =>
  new OpenAI({ apiKey: 'offline', baseURL: `${url}/v1`, maxRetries: 0 });

const apis: Api[] = [
  {
    name: 'Chat Completions',
    wire: openAIChatWire,
    callId: (position) => `call_0_${position}`,
    async ask(url, history) {
      const completion = await openAI(url).chat.completions.create({
        model: 'scripted',
        messages: toChatCompletionsMessages(history, { instructions: 'Be brief.' }),
      });
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('no choice');
      return [fromChatCompletionsMessage(message)];
    },
    sentHistory: (body) => body.messages,
    expectedSentHistory: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Why did the build fail?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0_0',
            type: 'function',
            function: { name: 'run_build', arguments: '{"target":"all"}' },
          },
          { id: 'call_0_1', type: 'function', function: { name: 'run_tests', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0_0', content: 'result of run_build' },
      { role: 'tool', tool_call_id: 'call_0_1', content: 'result of run_tests' },
    ],
  },
  {
    name: 'Responses',
    wire: openAIResponsesWire,
    callId: (position) => `call_0_${position}`,
    async ask(url, history) {
      const response = await openAI(url).responses.create({
        model: 'scripted',
        input: toResponsesInput(history),
      });
      return fromResponsesOutputItems(response.output);
    },
    sentHistory: (body) => body.input,
    expectedSentHistory: [
      { type: 'message', role: 'user', content: 'Why did the build fail?' },
      {
        type: 'function_call',
        call_id: 'call_0_0',
        name: 'run_build',
        arguments: '{"target":"all"}',
      },
      { type: 'function_call', call_id: 'call_0_1', name: 'run_tests', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_0_0', output: 'result of run_build' },
      { type: 'function_call_output', call_id: 'call_0_1', output: 'result of run_tests' },
    ],
  },
  {
    name: 'Anthropic Messages',
    wire: anthropicWire,
    callId: (position) => `toolu_0_${position}`,
    async ask(url, history) {
      const client = new Anthropic({ apiKey: 'offline', baseURL: url, maxRetries: 0 });
      const message = await client.messages.create({
        model: 'scripted',
        max_tokens: 1_024,
        messages: toAnthropicMessages(history),
      });
      return [fromAnthropicMessage(message)];
    },
    sentHistory: (body) => body.messages,
    expectedSentHistory: [
      { role: 'user', content: 'Why did the build fail?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_0_0', name: 'run_build', input: { target: 'all' } },
          { type: 'tool_use', id: 'toolu_0_1', name: 'run_tests', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'result of run_build' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_0_1',
            content: 'result of run_tests',
            is_error: true,
          },
        ],
      },
    ],
  },
];

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.each(apis)('$name: an agent loop kept as a neutral history', (api) => {
  it('round-trips calls and results through the real client, and continues after compaction', async () => {
    model = await startScriptedModel({ wires: [api.wire], script });
    const history: ConversationMessage[] = [{ role: 'user', content: 'Why did the build fail?' }];
    const reply = await api.ask(model.url, history);
    const calls = [
      { id: api.callId(0), name: 'run_build', arguments: '{"target":"all"}' },
      { id: api.callId(1), name: 'run_tests', arguments: '{}' },
    ];
    expect(reply).toEqual([{ role: 'assistant', content: '', toolCalls: calls }]);
    history.push(...reply);
    for (const call of calls) {
      history.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: `result of ${call.name}`,
        ...(call.name === 'run_tests' ? { isError: true } : {}),
      });
    }
    const answer = await api.ask(model.url, history);
    expect(answer).toEqual([
      { role: 'assistant', content: 'Saw: result of run_build | result of run_tests' },
    ]);
    expect(api.sentHistory(model.requests[1]?.body ?? {})).toEqual(api.expectedSentHistory);
    history.push(...answer);

    // The provider's messages are rebuilt from the compacted history; the server accepts them.
    const summarise = async () => '<summary>Build checked.</summary>';
    const compacted = await compact(history, { summarise, retainLastTurns: 0 });
    compacted.history.push({ role: 'user', content: 'Anything else?' });
    expect(await api.ask(model.url, compacted.history)).toEqual([
      { role: 'assistant', content: 'Still here.' },
    ]);
    expect(model.rejected).toEqual([]);
  });
});

describe('toChatCompletionsMessages', () => {
  it('sends text-only assistant messages as text, and no system message without instructions', () => {
    expect(
      toChatCompletionsMessages([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [{ id: 'call_1', name: 'run', arguments: '{}' }],
        },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'run', arguments: '{}' } },
        ],
      },
    ]);
  });

  it('reads a refusal as the assistant text', () => {
    const message = { role: 'assistant', content: null, refusal: 'I cannot.' } as const;
    expect(fromChatCompletionsMessage(message)).toEqual({
      role: 'assistant',
      content: 'I cannot.',
    });
  });
});

describe('fromResponsesOutputItems', () => {
  it('joins message text and calls into one assistant message; reasoning alone is nothing', () => {
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
      },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'run',
        arguments: '{}',
        status: 'completed',
      },
    ] as Response['output'];
    expect(fromResponsesOutputItems(output)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [{ id: 'call_1', name: 'run', arguments: '{}' }],
      },
    ]);
    expect(fromResponsesOutputItems(output.slice(0, 1))).toEqual([]);
  });

  it('sends assistant text beside its calls as a message item', () => {
    expect(
      toResponsesInput([
        {
          role: 'assistant',
          content: 'Checking.',
          toolCalls: [{ id: 'call_1', name: 'run', arguments: '{}' }],
        },
      ]),
    ).toEqual([
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'run', arguments: '{}' },
    ]);
  });
});

describe('toAnthropicMessages', () => {
  it('merges each side into one message so roles alternate, and leaves out empty text', () => {
    const messages = toAnthropicMessages([
      { role: 'user', content: 'Summary of the conversation so far: …' },
      { role: 'user', content: 'Go on.' },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'Checking.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'toolu_1', name: 'run', arguments: 'not json' }],
      },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'run', content: '', isError: true },
      { role: 'user', content: 'And?' },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summary of the conversation so far: …' },
          { type: 'text', text: 'Go on.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'run', input: { arguments: 'not json' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true },
          { type: 'text', text: 'And?' },
        ],
      },
    ]);
  });

  it('reads text and tool_use blocks back, input as JSON text', () => {
    const content = [
      { type: 'text', text: 'Let me ', citations: null },
      { type: 'text', text: 'check.', citations: null },
      { type: 'tool_use', id: 'toolu_1', name: 'run', input: { target: 'all' }, caller: null },
    ] as unknown as Anthropic.Message['content'];
    expect(fromAnthropicMessage({ content })).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [{ id: 'toolu_1', name: 'run', arguments: '{"target":"all"}' }],
    });
  });
});

describe('usage readers', () => {
  it('read each API into the neutral usage', () => {
    const chat = { usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 } };
    expect(usageOfChatCompletion(chat as ChatCompletion)).toEqual<TokenUsage>({
      inputTokens: 900,
      outputTokens: 40,
      totalTokens: 940,
    });
    expect(usageOfChatCompletion({})).toEqual({});
    const response = { usage: { input_tokens: 700, output_tokens: 30 } } as Response;
    expect(usageOfResponse(response)).toEqual({
      inputTokens: 700,
      outputTokens: 30,
      totalTokens: 730,
    });
    const message = {
      usage: {
        input_tokens: 10,
        output_tokens: 20,
        cache_creation_input_tokens: 300,
        cache_read_input_tokens: null,
      },
    } as Anthropic.Message;
    expect(usageOfAnthropicMessage(message)).toEqual({
      inputTokens: 10,
      outputTokens: 20,
      cacheCreationInputTokens: 300,
      cacheReadInputTokens: 0,
      totalTokens: 330,
    });
  });

  it('totalTokens adds input, cache creation, cache read and output', () => {
    expect(
      totalTokens({
        inputTokens: 1,
        cacheCreationInputTokens: 20,
        cacheReadInputTokens: 300,
        outputTokens: 4_000,
      }),
    ).toBe(4_321);
    expect(totalTokens({})).toBe(0);
  });
});
