// The real `@ai-sdk/openai` client pointed at a scripted model on 127.0.0.1, and what the AI SDK
// specs share: the service log of every adapter's scenario, the tool set's step callbacks, and
// what a request carried.
// The vitest project "ai@6" runs the specs that use it with `ai` and `@ai-sdk/openai` mapped to
// the previous majors.
import { createOpenAI } from '@ai-sdk/openai';
import type { SpoolforgeToolSet } from 'spoolforge/ai-sdk';
import { afterEach } from 'vitest';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import {
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
  type WireFormat,
} from '../../examples/support/scripted-model.js';

/** The AI SDK major the spec runs with (the vitest project "ai@6" says 6). */
export const aiSdkMajor = process.env.SPOOLFORGE_SPEC_AI_SDK_MAJOR === '6' ? 6 : 7;

export { failureLines, failureText, produceLog } from './service-log-scenario.js';

/**
 * What `generateText` / `streamText` take from a tool set: its tools and step callbacks, under
 * both majors' names (AI SDK 7 calls `onStepEnd` and `onStepError`, AI SDK 6 `onStepFinish`).
 */
export const stepOptionsOf = (spoolforge: SpoolforgeToolSet) => ({
  tools: spoolforge.tools,
  prepareStep: spoolforge.prepareStep,
  onStepEnd: spoolforge.onStepEnd,
  onStepFinish: spoolforge.onStepFinish,
  onStepError: spoolforge.onStepError,
});

const running: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((scripted) => scripted.close()));
});

/**
 * A scripted model answering with `script`, and the real AI SDK OpenAI provider pointed at it.
 * With `stream`, the scripted answer reaches the client as the API streams it (server-sent
 * `chat.completion.chunk` events) whenever the client asked for a stream.
 */
export async function startAiSdkModel(
  script: (turn: ScriptedTurn) => ScriptedReply,
  options: { wire?: WireFormat } = {},
) {
  const model = await startScriptedModel({ wires: [options.wire ?? openAIChatWire], script });
  running.push(model);
  const provider = createOpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, fetch: streaming });
  return { model, provider, chat: provider.chat('scripted') };
}

/** What request `index` carried, as the model reads it: offered tools and tool results. */
export function sentChat(scripted: ScriptedModel, index: number) {
  const body = scripted.requests[index]?.body ?? {};
  const turn = openAIChatWire.parse(body);
  return { ...turn, results: turn.results.map(unwrapChatError), body };
}

/**
 * `@ai-sdk/openai` 4 sends a tool error as the JSON `{"error": text}` (Chat Completions and
 * Responses alike); earlier majors sent the text alone. Either way the model reads the
 * session's error text: this is it, or undefined for an output that is no such envelope.
 */
export function errorEnvelopeText(output: string): string | undefined {
  const envelope = /^\{"error":/.test(output) ? JSON.parse(output) : undefined;
  return typeof envelope?.error === 'string' ? envelope.error : undefined;
}

function unwrapChatError(result: ScriptedTurn['results'][number]) {
  const text = errorEnvelopeText(result.text);
  return text === undefined ? result : { ...result, text, isError: true };
}

export const toolNames = (turn: { tools: { name: string }[] }) =>
  turn.tools.map((tool) => tool.name);

/** A Chat Completions answer as the stream the client asked for (one chunk a message part). */
const streaming: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const asked = JSON.parse(String(init?.body ?? '{}')) as { stream?: boolean };
  if (!asked.stream || !response.ok) return response;
  const completion = (await response.json()) as ChatCompletion;
  const { id, created, model } = completion;
  const chunk = (fields: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, ...fields })}\n\n`;
  const events = completion.choices.flatMap(({ index, message, finish_reason }) => [
    chunk({ choices: [{ index, delta: deltaOf(message), finish_reason: null }] }),
    chunk({ choices: [{ index, delta: {}, finish_reason }] }),
  ]);
  events.push(chunk({ choices: [], usage: completion.usage }), 'data: [DONE]\n\n');
  return new Response(events.join(''), { headers: { 'content-type': 'text/event-stream' } });
};

interface ChatCompletion {
  id: string;
  created: number;
  model: string;
  usage: unknown;
  choices: {
    index: number;
    finish_reason: string;
    message: { content: string | null; tool_calls?: { id: string; function: unknown }[] };
  }[];
}

const deltaOf = ({ content, tool_calls }: ChatCompletion['choices'][number]['message']) => ({
  role: 'assistant',
  content,
  ...(tool_calls
    ? { tool_calls: tool_calls.map((call, index) => ({ index, type: 'function', ...call })) }
    : {}),
});
