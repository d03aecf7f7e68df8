// Outputs over the inline threshold with 1 to 4 lines (the shape of most real API responses)
// through every provider adapter with its real client: the model must get a handle that
// previews every line, never an error, and artifact_read must answer each of them.
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, stepCountIs } from 'ai';
import OpenAI from 'openai';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { OpenAIToolSession } from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicWire } from '../../examples/support/anthropic-wire.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
  type WireFormat,
} from '../../examples/support/scripted-model.js';
import {
  expectFewLineHandle,
  expectWholeOutput,
  fewLineCalls,
  fewLineTools,
} from '../helpers/few-line-outputs.js';
import {
  converseAnthropic,
  converseChatCompletions,
  converseResponses,
} from '../helpers/provider-loops.js';

/** Calls every (kind, lines) tool at once, then artifact_read on each handle, then answers. */
function script(turn: ScriptedTurn): ScriptedReply {
  if (turn.results.length === 0) {
    return {
      toolCalls: fewLineCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    };
  }
  if (turn.results.length === fewLineCalls.length) {
    return {
      toolCalls: turn.results.map((result) => ({
        name: 'artifact_read',
        arguments: { callId: result.callId },
      })),
    };
  }
  return { text: 'done' };
}

const running: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((model) => model.close()));
});

async function start(wire: WireFormat) {
  const model = await startScriptedModel({ wires: [wire], script });
  running.push(model);
  return model;
}

/** What the model read: request 2's handles, request 3's artifact_read answers. */
function expectModelRead(model: ScriptedModel, wire: WireFormat) {
  expect(model.requests).toHaveLength(3);
  expect(model.rejected).toEqual([]);
  const handles = wire.parse(model.requests[1]?.body ?? {}).results;
  expect(handles).toHaveLength(fewLineCalls.length);
  for (const [index, call] of fewLineCalls.entries()) {
    expect(handles[index]?.isError, `${call.kind} with ${call.lines} lines`).toBe(false);
    expectFewLineHandle(handles[index]?.text ?? '', call.kind, call.lines);
  }
  const answers = wire.parse(model.requests[2]?.body ?? {}).results.slice(fewLineCalls.length);
  for (const [index, call] of fewLineCalls.entries()) {
    expect(answers[index]?.isError).toBe(false);
    expectWholeOutput(answers[index]?.text ?? '', call.kind, call.lines);
  }
}

describe('1- to 4-line outputs over the threshold through every adapter', () => {
  it('OpenAI Chat Completions', async () => {
    const model = await start(openAIChatWire);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    await using loop = new OpenAIToolSession({ tools: fewLineTools });
    await converseChatCompletions(client, loop, 'Read them all.');
    expectModelRead(model, openAIChatWire);
  });

  it('OpenAI Responses', async () => {
    const model = await start(openAIResponsesWire);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    await using loop = new OpenAIToolSession({ tools: fewLineTools });
    await converseResponses(client, loop, 'Read them all.');
    expectModelRead(model, openAIResponsesWire);
  });

  it('Anthropic Messages', async () => {
    const model = await start(anthropicWire);
    const client = new Anthropic({ apiKey: 'test', baseURL: model.url, maxRetries: 0 });
    await using agent = new AnthropicToolSession({ tools: fewLineTools });
    await converseAnthropic(agent, client, 'Read them all.');
    expectModelRead(model, anthropicWire);
  });

  it('Vercel AI SDK generateText', async () => {
    const model = await start(openAIChatWire);
    const chat = createOpenAI({ apiKey: 'test', baseURL: `${model.url}/v1` }).chat('scripted');
    await using spoolforge = spoolforgeToolSet({ tools: fewLineTools });
    const result = await generateText({
      model: chat,
      prompt: 'Read them all.',
      tools: spoolforge.tools,
      prepareStep: spoolforge.prepareStep,
      onStepFinish: spoolforge.onStepFinish,
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toBe('done');
    expectModelRead(model, openAIChatWire);
  });
});
