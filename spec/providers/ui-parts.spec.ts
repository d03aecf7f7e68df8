// UI-only parts (withUiParts) through the real OpenAI client and the real AI SDK against a
// loopback model: they stay on the session's calls and never appear in a request body.
import { generateText, stepCountIs } from 'ai';
import OpenAI from 'openai';
import { defineTool, type ToolEvent, ToolSession, withUiParts } from 'spoolforge';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { OpenAIToolSession } from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  type ScriptedModel,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';
import { startAiSdkModel, stepOptionsOf } from '../helpers/ai-sdk-scripted.js';
import { converseChatCompletions, converseResponses } from '../helpers/provider-loops.js';

const uiMarker = 'UI-ONLY session log: ssh deploy@10.0.0.7';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the service.',
  inputSchema: z.object({}),
  handler: () => withUiParts('deployed v2', { text: uiMarker, telemetry: { exitCode: 17 } }),
});

const buildLog = defineTool({
  name: 'build_log',
  description: 'Returns the build log.',
  inputSchema: z.object({}),
  handler: () =>
    withUiParts(
      (async function* () {
        for (let line = 1; line <= 5_000; line++) yield `step ${line} ok\n`;
      })(),
      { text: Promise.resolve(`${uiMarker} (build)`), telemetry: { exitCode: 0 } },
    ),
});

const script = (turn: ScriptedTurn) =>
  turn.index === 0
    ? {
        toolCalls: [
          { name: 'deploy', arguments: {} },
          { name: 'build_log', arguments: {} },
        ],
      }
    : { text: 'Deployed.' };

/** The UI parts kept on a session's calls, and no trace of them in what the model was sent. */
function expectUiOnly(session: ToolSession, bodies: unknown[]) {
  const sent = JSON.stringify(bodies);
  expect(sent).toContain('deployed v2');
  expect(sent).toContain('build_log');
  expect(sent).not.toContain('UI-ONLY');
  expect(sent).not.toContain('exitCode');
  const [deployed, built] = session.toolCalls;
  expect(deployed?.ui).toMatchObject({
    text: uiMarker,
    telemetry: { exitCode: 17, byteLength: 11 },
  });
  expect(built?.ui).toMatchObject({
    text: `${uiMarker} (build)`,
    telemetry: { exitCode: 0, byteLength: expect.any(Number) },
  });
  expect(built?.ui?.telemetry.byteLength).toBeGreaterThan(50_000);
}

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
});

describe('UI-only parts never reach the model', () => {
  it.each([
    ['Chat Completions', openAIChatWire, converseChatCompletions],
    ['Responses', openAIResponsesWire, converseResponses],
  ] as const)('OpenAI %s', async (_name, wire, converse) => {
    model = await startScriptedModel({ wires: [wire], script });
    const client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const events: ToolEvent[] = [];
    await using loop = new OpenAIToolSession({
      tools: [deploy, buildLog],
      onEvent: (event) => events.push(event),
    });
    const { answer } = await converse(client, loop, 'Deploy it.');
    expect(answer).toBe('Deployed.');
    expectUiOnly(
      loop.session,
      model.requests.map((request) => request.body),
    );
    const completes = events.filter((event) => event.type === 'complete');
    expect(completes.map((event) => event.ui?.text)).toEqual([uiMarker, `${uiMarker} (build)`]);
  });

  it('AI SDK generateText, and its recorded response messages', async () => {
    const started = await startAiSdkModel(script);
    model = started.model;
    const events: ToolEvent[] = [];
    await using spoolforge = spoolforgeToolSet({
      tools: [deploy, buildLog],
      onEvent: (event) => events.push(event),
    });
    const result = await generateText({
      model: started.chat,
      prompt: 'Deploy it.',
      ...stepOptionsOf(spoolforge),
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toBe('Deployed.');
    expectUiOnly(
      spoolforge.session,
      started.model.requests.map((request) => request.body),
    );
    // What an app stores of the conversation carries no UI part either.
    expect(JSON.stringify(result.response.messages)).not.toContain('UI-ONLY');
    // The tool set's session reports its calls' events like any session.
    const completes = events.filter((event) => event.type === 'complete');
    expect(completes.map((event) => event.ui?.telemetry.exitCode).sort()).toEqual([0, 17]);
  });

  it('UI text is cut to 64 KiB with a note; a rejected part is left out', async () => {
    const long = defineTool({
      name: 'long',
      description: 'A long UI log.',
      inputSchema: z.object({}),
      handler: () =>
        withUiParts('ok', {
          text: `${'é'.repeat(40_000)}`,
          telemetry: Promise.reject(new Error('no exit code')),
        }),
    });
    await using session = new ToolSession({ tools: [long] });
    const [outcome] = await session.run(
      [{ id: 'call_1', name: 'long', arguments: {} }],
      session.dispatch(),
    );
    expect(outcome?.isError).toBe(false);
    const ui = session.toolCalls[0]?.ui;
    expect(ui?.text).toBe(`${'é'.repeat(32_768)}\n[ui text cut: ${80_000 - 65_536} bytes]`);
    expect(Object.keys(ui?.telemetry ?? {}).sort()).toEqual(['byteLength', 'durationMs']);
  });
});
