// A derived output through a provider adapter and its real client: a scripted model fetches a
// 300 KB page, inserts a row with artifact_json, then queries the new output by the id its
// handle names, over Chat Completions with the OpenAI SDK and over Messages with Anthropic's.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { defineTool, type SpooledArtifact, type ToolSession } from 'spoolforge';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { OpenAIToolSession } from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicWire } from '../../examples/support/anthropic-wire.js';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import {
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';
import { adfRow, confluencePage, minifiedPage } from '../helpers/confluence-page.js';
import { converseAnthropic, converseChatCompletions } from '../helpers/provider-loops.js';

const page = minifiedPage();
const getPage = defineTool({
  name: 'get_page',
  description: 'Fetches a wiki page.',
  inputSchema: z.object({}),
  handler: () => page,
});
const row = adfRow(620, 'Priya Nair', 'green');
const tablePath = '$.body.atlas_doc_format.value.content[?(@.type == "table")].content';

/** The id the last result's handle names. */
const handleId = (turn: ScriptedTurn) =>
  /callId "([^"]+)"/.exec(turn.results.at(-1)?.text ?? '')?.[1] ?? 'none';

function script(turn: ScriptedTurn): ScriptedReply {
  if (turn.index === 0) return { toolCalls: [{ name: 'get_page', arguments: {} }] };
  if (turn.index === 1) {
    const args = {
      callId: handleId(turn),
      op: 'insert',
      path: tablePath,
      value: JSON.stringify(row),
    };
    return {
      toolCalls: [{ name: 'artifact_json', arguments: { ...args, name: 'page-with-row' } }],
    };
  }
  if (turn.index === 2) {
    const args = { callId: handleId(turn), op: 'length', path: tablePath };
    return { toolCalls: [{ name: 'artifact_json', arguments: args }] };
  }
  return { text: turn.results.at(-1)?.text ?? '' };
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((each) => each.close()));
});

async function expectRoundTrip(model: ScriptedModel, session: ToolSession, answer: string) {
  expect(answer.trim()).toBe(
    "$['body']['atlas_doc_format']['value']['content'][2]['content']: 621 elements",
  );
  const derived = session.toolCalls.find((call) => call.name === 'artifact_json')?.results;
  const value = structuredClone(confluencePage());
  (value.body.atlas_doc_format.value.content[2] as { content: unknown[] }).content.push(row);
  expect(await (derived as SpooledArtifact).asString()).toBe(JSON.stringify(value));
  expect((derived as SpooledArtifact).name).toBe('page-with-row');
  expect(model.requests).toHaveLength(4);
}

describe('a derived output through a provider adapter', () => {
  it('Chat Completions (OpenAI SDK): insert, then query the new output by its id', async () => {
    const model = await startScriptedModel({ wires: [openAIChatWire], script });
    const loop = new OpenAIToolSession({ tools: [getPage] });
    running.push(model, { close: () => loop.close() });
    const client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const { answer } = await converseChatCompletions(client, loop, 'Add the row.');
    await expectRoundTrip(model, loop.session, answer);
  });

  it('Messages (Anthropic SDK): insert, then query the new output by its id', async () => {
    const model = await startScriptedModel({ wires: [anthropicWire], script });
    const loop = new AnthropicToolSession({ tools: [getPage] });
    running.push(model, { close: () => loop.close() });
    const client = new Anthropic({ apiKey: 'test', baseURL: model.url, maxRetries: 0 });
    const { message } = await converseAnthropic(loop, client, 'Add the row.');
    const answer = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    await expectRoundTrip(model, loop.session, answer);
  });
});
