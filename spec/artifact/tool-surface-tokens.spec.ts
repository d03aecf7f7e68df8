// What the forged tool surface costs on every request: o200k tokens of the definitions exactly
// as each provider adapter sends them (the AI SDK's read from the request its real client sent),
// and of the handle a model sees instead of an output.
import { createHash } from 'node:crypto';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  DispatchContext,
  defaultArtifactKinds,
  defineTool,
  type SpooledArtifact,
  spool,
  ToolCall,
  type ToolRegistry,
} from 'spoolforge';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { toAnthropicTools } from 'spoolforge/anthropic';
import { forgeArtifactTools, renderHandle } from 'spoolforge/engine';
import { toChatCompletionsTools, toResponsesTools } from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { type ScriptedModel, startScriptedModel } from '../../examples/support/scripted-model.js';

type Kind = 'text' | 'json' | 'markdown';

/** A few KiB of each kind: well past the inline threshold, so each is spooled. */
const outputs: Record<Kind, string> = {
  text: Array.from(
    { length: 200 },
    (_, line) => `2026-11-21T10:00:${String(line % 60).padStart(2, '0')}Z INFO request ${line} ok`,
  ).join('\n'),
  json: JSON.stringify(
    Array.from({ length: 100 }, (_, id) => ({
      id,
      status: id % 7 ? 200 : 500,
      path: `/api/${id}`,
    })),
  ),
  markdown: Array.from(
    { length: 40 },
    (_, section) =>
      `## Section ${section}\n\nSome text with a [link](https://example.com/${section}).\n`,
  ).join('\n'),
};

const oneOfEach: Kind[] = ['text', 'json', 'markdown'];
const twentyMixed: Kind[] = Array.from({ length: 20 }, (_, index) => oneOfEach[index % 3] as Kind);

/** Call ids as the providers make them: `call_` + 24 characters, `toolu_01` + 22. */
const providerId = (prefix: string, length: number) => (index: number) =>
  prefix + createHash('sha256').update(String(index)).digest('base64url').slice(0, length);
const openAIId = providerId('call_', 24);
const anthropicId = providerId('toolu_01', 22);

const opened: SpooledArtifact[] = [];
const running: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((artifact) => artifact.close()));
  await Promise.all(running.splice(0).map((model) => model.close()));
});

async function forgedFor(kinds: Kind[], idOf: (index: number) => string): Promise<ToolRegistry> {
  const calls = await Promise.all(
    kinds.map(async (kind, index) => {
      const call = new ToolCall({ id: idOf(index), name: `fetch_${kind}`, arguments: {} });
      const artifact = await spool(outputs[kind], { kind });
      opened.push(artifact);
      call.results = artifact;
      return call;
    }),
  );
  return forgeArtifactTools(defaultArtifactKinds, new DispatchContext({ turnToolCalls: calls }));
}

const tokensOf = (definitions: unknown[]) =>
  definitions.reduce<number>((sum, each) => sum + countTokens(JSON.stringify(each)), 0);

/** Each adapter's definitions of the forged tools for `kinds`, in tokens. */
async function adapterTokens(kinds: Kind[]): Promise<Record<string, number>> {
  const openAI = await forgedFor(kinds, openAIId);
  const anthropic = await forgedFor(kinds, anthropicId);
  return {
    'Chat Completions': tokensOf(toChatCompletionsTools(openAI)),
    Responses: tokensOf(toResponsesTools(openAI)),
    Anthropic: tokensOf(toAnthropicTools(anthropic)),
    'AI SDK': await aiSdkTokens(kinds, false),
    'AI SDK (strict)': await aiSdkTokens(kinds, true),
  };
}

/**
 * The forged tools of the AI SDK's second request, as its real Chat Completions client sent
 * them: the first step runs one tool per output, the second is offered the forged tools.
 */
async function aiSdkTokens(kinds: Kind[], strict: boolean): Promise<number> {
  const model = await startScriptedModel({
    wires: [openAIChatWire],
    script: (turn) =>
      turn.index === 0
        ? { toolCalls: kinds.map((kind) => ({ name: `fetch_${kind}`, arguments: {} })) }
        : { text: 'done' },
  });
  running.push(model);
  const tools = oneOfEach.map((kind) =>
    defineTool({
      name: `fetch_${kind}`,
      description: `Fetches a ${kind} document.`,
      inputSchema: z.object({}),
      kind,
      handler: () => outputs[kind],
    }),
  );
  await using spoolforge = spoolforgeToolSet({ tools, strict });
  await generateText({
    model: createOpenAI({ apiKey: 'test', baseURL: `${model.url}/v1` }).chat('scripted'),
    prompt: 'Look.',
    tools: spoolforge.tools,
    prepareStep: spoolforge.prepareStep,
    onStepFinish: spoolforge.onStepFinish,
    stopWhen: stepCountIs(3),
  });
  const sent = (model.requests[1]?.body.tools ?? []) as { function: { name: string } }[];
  const forged = sent.filter((tool) => tool.function.name.startsWith('artifact_'));
  expect(forged.length).toBeGreaterThan(0);
  return tokensOf(forged);
}

describe('the forged tool surface, in o200k tokens per request', () => {
  it('one text output: artifact_read, artifact_grep, artifact_list within 450 tokens', async () => {
    const registry = await forgedFor(['text'], openAIId);
    expect(registry.list().map((tool) => tool.name)).toEqual([
      'artifact_read',
      'artifact_grep',
      'artifact_list',
    ]);
    const tokens = await adapterTokens(['text']);
    for (const [adapter, count] of Object.entries(tokens))
      expect(count, adapter).toBeLessThanOrEqual(450);
  });

  it('one text + one JSON + one Markdown output: all forged tools within 1,100 tokens', async () => {
    const tokens = await adapterTokens(oneOfEach);
    for (const [adapter, count] of Object.entries(tokens))
      expect(count, adapter).toBeLessThanOrEqual(1_100);
  });

  it('twenty outputs of mixed kinds: within 1,500 tokens (the callId enum is not repeated into the cost)', async () => {
    const tokens = await adapterTokens(twentyMixed);
    for (const [adapter, count] of Object.entries(tokens))
      expect(count, adapter).toBeLessThanOrEqual(1_500);
  });

  it.each(oneOfEach)(
    'the handle of a %s output: within 300 tokens, naming the tools that query it',
    async (kind) => {
      const call = new ToolCall({ id: openAIId(0), name: `fetch_${kind}`, arguments: {} });
      // Long lines of many short tokens: the preview is trimmed to stay in budget.
      const artifact = await spool(
        kind === 'text'
          ? Array.from({ length: 50 }, () => '0.1,'.repeat(400)).join('\n')
          : outputs[kind],
        { kind },
      );
      opened.push(artifact);
      const handle = await renderHandle(call, artifact);
      expect(countTokens(handle)).toBeLessThanOrEqual(300);
      const names = defaultArtifactKinds.toolMethodsOf(artifact).map((method) => method.name);
      // The base tools, then the one tool of the kind (named by the kind's own tool methods).
      const own = { text: [], json: ['artifact_json'], markdown: ['artifact_md'] }[kind];
      expect(names).toEqual(['artifact_read', 'artifact_grep', ...own]);
      expect(handle).toContain(`Query it with ${names.join(', ')} (callId "${call.id}")`);
      expect(handle).toContain('artifact_list shows');
    },
  );
});
