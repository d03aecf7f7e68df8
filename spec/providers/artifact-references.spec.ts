// A scripted model passes a spooled JSON page on by reference through each adapter (OpenAI Chat
// Completions and Responses, the AI SDK, Anthropic, Google Gen AI, the OpenAI Agents SDK) with its real
// client: the second tool (strict types, a number among them) receives the values, never the
// model's retyping, and a bad reference comes back as an error result the model reads.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import OpenAI from 'openai';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { GoogleToolSession } from 'spoolforge/google';
import { OpenAIToolSession } from 'spoolforge/openai';
import { spoolforgeAgentTools } from 'spoolforge/openai-agents';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicWire } from '../../examples/support/anthropic-wire.js';
import { geminiWire } from '../../examples/support/gemini-wire.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';
import { startAiSdkModel } from '../helpers/ai-sdk-scripted.js';
import { htmlPage, pageTools } from '../helpers/page-tools.js';
import {
  converseAnthropic,
  converseChatCompletions,
  converseGoogle,
  converseResponses,
} from '../helpers/provider-loops.js';

/**
 * Fetch the page; pass its body and version by reference (then a bad reference, whose error the
 * model reads, when `bad`); answer with the last result.
 */
function script(bad: boolean) {
  return (turn: ScriptedTurn): ScriptedReply => {
    const pageId = turn.results[0]?.callId ?? '';
    const update = (args: Record<string, unknown>) => ({
      toolCalls: [{ name: 'update_page', arguments: args }],
    });
    if (turn.results.length === 0) return { toolCalls: [{ name: 'fetch_page', arguments: {} }] };
    if (turn.results.length === 1) {
      return update({
        body: { $artifact: pageId, json: '$.body' },
        version: { $artifact: pageId, json: '$.version' },
      });
    }
    if (turn.results.length === 2 && bad) {
      return update({ body: { $artifact: pageId, json: '$.*' }, version: 1 });
    }
    return { text: turn.results.map((result) => result.text).join('\n---\n') };
  };
}

let model: ScriptedModel | undefined;
let loop: OpenAIToolSession | undefined;
afterEach(async () => {
  await loop?.close();
  await model?.close();
});

for (const api of [
  { name: 'Chat Completions', wire: openAIChatWire, converse: converseChatCompletions },
  { name: 'Responses', wire: openAIResponsesWire, converse: converseResponses },
]) {
  it(`spoolforge/openai, ${api.name}: the page reaches update_page by reference`, async () => {
    const { list, received } = pageTools();
    model = await startScriptedModel({ wires: [api.wire], script: script(true) });
    loop = new OpenAIToolSession({ tools: list });
    const client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const { answer } = await api.converse(client, loop, 'Update the page.');
    expect(received).toEqual([{ body: htmlPage.body, version: 17 }]);
    const [handle, updated, refused] = answer.split('\n---\n');
    expect(handle).toContain('Pass it to a tool as the argument value {"$artifact":"');
    expect(updated).toBe('updated');
    expect(refused).toMatch(/E_BAD_REFERENCE.*selects more than one value/);
    // What the model wrote to pass 300 KB on.
    const sent = JSON.stringify(model.requests.map((request) => request.body).at(-1));
    expect(sent).toContain('"$artifact');
  });
}

describe('spoolforge/ai-sdk with the real client', () => {
  it('the page reaches update_page by reference; a bad one is an error the model reads', async () => {
    const { list, received } = pageTools();
    const { chat, model: scripted } = await startAiSdkModel(script(true));
    await using spoolforge = spoolforgeToolSet({ tools: list });
    const result = await generateText({
      model: chat,
      prompt: 'Update the page.',
      tools: spoolforge.tools,
      prepareStep: spoolforge.prepareStep,
      onStepFinish: spoolforge.onStepFinish,
      stopWhen: stepCountIs(6),
    });
    expect(received).toEqual([{ body: htmlPage.body, version: 17 }]);
    const parts = result.text.split('\n---\n');
    expect(parts[1]).toBe('updated');
    expect(parts[2]).toMatch(/E_BAD_REFERENCE.*selects more than one value/);
    expect(scripted.requests).toHaveLength(4);
  });
});

describe('spoolforge/anthropic with the real client', () => {
  it('the page reaches update_page by reference; a bad one is an error the model reads', async () => {
    const { list, received } = pageTools();
    model = await startScriptedModel({ wires: [anthropicWire], script: script(true) });
    await using agent = new AnthropicToolSession({ tools: list });
    const client = new Anthropic({ apiKey: 'test', baseURL: model.url, maxRetries: 0 });
    const { message } = await converseAnthropic(agent, client, 'Update the page.');
    expect(received).toEqual([{ body: htmlPage.body, version: 17 }]);
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const parts = text.split('\n---\n');
    expect(parts[1]).toBe('updated');
    expect(parts[2]).toMatch(/E_BAD_REFERENCE.*selects more than one value/);
  });
});

describe('spoolforge/google with the real client', () => {
  it('the page reaches update_page by reference; a bad one is an error the model reads', async () => {
    const { list, received } = pageTools();
    model = await startScriptedModel({
      wires: [geminiWire({ callIds: true })],
      script: script(true),
    });
    await using agent = new GoogleToolSession({ tools: list });
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: model.url } });
    const { response } = await converseGoogle(agent, ai, 'Update the page.', 6);
    const answer = response.text ?? '';
    expect(received).toEqual([{ body: htmlPage.body, version: 17 }]);
    const parts = answer.split('\n---\n');
    expect(parts[1]).toBe('updated');
    expect(parts[2]).toMatch(/E_BAD_REFERENCE.*selects more than one value/);
  });
});

describe('spoolforge/openai-agents with the Agents SDK Runner', () => {
  it('the page reaches update_page by reference; a bad one is an error the model reads', async () => {
    setTracingDisabled(true);
    const { list, received } = pageTools();
    model = await startScriptedModel({ wires: [openAIResponsesWire], script: script(true) });
    const modelProvider = new OpenAIProvider({ apiKey: 'test', baseURL: `${model.url}/v1` });
    const runner = new Runner({ modelProvider, tracingDisabled: true });
    await using spoolforge = spoolforgeAgentTools({ tools: list });
    const agent = new Agent({
      name: 'Editor',
      instructions: 'Edit pages.',
      tools: spoolforge.tools,
    });
    const result = await runner.run(agent, 'Update the page.', { maxTurns: 6 });
    expect(received).toEqual([{ body: htmlPage.body, version: 17 }]);
    const parts = String(result.finalOutput).split('\n---\n');
    expect(parts[1]).toBe('updated');
    expect(parts[2]).toMatch(/E_BAD_REFERENCE.*selects more than one value/);
  });
});
