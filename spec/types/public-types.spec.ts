// Type tests: `npm run typecheck` compiles this file, and an assertion that does not hold (a
// type that became `any`, say) is a compile error; at run time each test only runs its code.
import { type GenerateTextResult, tool } from 'ai';
import {
  artifactArgument,
  ConversationLog,
  compact,
  defineTool,
  Media,
  MemoryConversationLogBackend,
  type ModelCallRecord,
  SpooledArtifact,
  type Tool,
  type ToolCall,
  type ToolCallRequest,
  type ToolCallResults,
  type ToolEvent,
  ToolSession,
  type ToolUiParts,
  withUiParts,
} from 'spoolforge';
import { type SpoolforgeToolOutput, spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { chatCompletionsFormat } from 'spoolforge/openai';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  inputSchema: z.object({ text: z.string() }),
  handler: ({ text }) => text,
});

describe('public types', () => {
  it('a session call holds text, a SpooledArtifact or a Media, narrowed by instanceof', async () => {
    await using session = new ToolSession({ tools: [echo] });
    const dispatch = session.dispatch();
    const request: ToolCallRequest = { id: 'call_1', name: 'echo', arguments: { text: 'hi' } };
    const [outcome] = await session.run([request], dispatch);
    const call = session.toolCalls[0] as ToolCall<ToolCallResults>;
    expectTypeOf(session.toolCalls).items.toEqualTypeOf<ToolCall<ToolCallResults>>();
    expectTypeOf(outcome?.call.results).not.toBeAny();
    expectTypeOf(call.results).toEqualTypeOf<string | SpooledArtifact | Media | undefined>();
    expectTypeOf(call.name).toEqualTypeOf<string>();
    expectTypeOf(call.name).toEqualTypeOf<ToolCallRequest['name']>();
    const results = call.results;
    if (results instanceof SpooledArtifact) expectTypeOf(results).toEqualTypeOf<SpooledArtifact>();
    else if (Media.isInstance(results)) expectTypeOf(results).toEqualTypeOf<Media>();
    else expectTypeOf(results).toEqualTypeOf<string | undefined>();
  });

  it('an artifactArgument() reaches the handler as a SpooledArtifact', () => {
    const upload = defineTool({
      name: 'upload',
      description: 'Uploads a log.',
      inputSchema: z.object({ log: artifactArgument(), note: z.string().optional() }),
      outputName: ({ note }) => note,
      handler: ({ log }) => log.byteLength(),
    });
    expectTypeOf<Parameters<typeof upload.handler>[0]['log']>().toEqualTypeOf<SpooledArtifact>();
  });

  it('a registry lists tools whose input is unknown, not any', async () => {
    await using session = new ToolSession({ tools: [echo] });
    const [offered] = session.dispatch().tools.list();
    expectTypeOf(offered).toEqualTypeOf<Tool<unknown> | undefined>();
    expectTypeOf<Parameters<Tool<unknown>['handler']>[0]>().toBeUnknown();
    expectTypeOf(echo).toEqualTypeOf<Tool<{ text: string }>>();
  });

  it('spoolforgeToolSet keeps the AI SDK input and output types', async () => {
    await using plain = spoolforgeToolSet({ tools: [echo] });
    // AI SDK 7 types a result by its tools, its runtime context and its structured output.
    type RuntimeContext = Record<string, unknown>;
    // The SDK's results are its static (declared) tools' or dynamic ones (`unknown`).
    type Static<Part> = Extract<Part, { dynamic?: false | undefined }>;
    type PlainResult = GenerateTextResult<typeof plain.tools, RuntimeContext, never>;
    type PlainToolResult = Static<PlainResult['toolResults'][number]>;
    expectTypeOf<PlainToolResult['output']>().toEqualTypeOf<SpoolforgeToolOutput>();
    expectTypeOf<PlainToolResult['input']>().toBeUnknown();
    expectTypeOf<Static<PlainResult['toolCalls'][number]>['input']>().toBeUnknown();

    const weather = tool({
      description: 'The weather in a city.',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, celsius: 21 }),
    });
    await using mixed = spoolforgeToolSet({ tools: [echo], aiSdkTools: { weather } });
    expectTypeOf(mixed.tools.weather).toEqualTypeOf<typeof weather>();
    type MixedResult = GenerateTextResult<typeof mixed.tools, RuntimeContext, never>;
    type MixedToolResult = Static<MixedResult['toolResults'][number]>;
    expectTypeOf<MixedToolResult['output']>().not.toBeAny();
    expectTypeOf<MixedToolResult['input']>().not.toBeAny();
  });

  it('a call keeps its UI parts, and tool events narrow by type', async () => {
    const events: ToolEvent[] = [];
    const logged = defineTool({
      name: 'logged',
      description: 'Says ok, with a log for the UI.',
      inputSchema: z.object({}),
      handler: () => withUiParts('ok', { text: 'ran', telemetry: { exitCode: 0 } }),
    });
    await using session = new ToolSession({ tools: [logged], onEvent: (e) => events.push(e) });
    await session.run([{ id: 'call_1', name: 'logged', arguments: {} }], session.dispatch());
    expectTypeOf(session.toolCalls[0]?.ui).toEqualTypeOf<ToolUiParts | undefined>();
    const event = events.at(-1);
    if (event?.type === 'complete') {
      expectTypeOf(event.result).toEqualTypeOf<string | Uint8Array | SpooledArtifact | Media>();
      expectTypeOf(event.ui).toEqualTypeOf<ToolUiParts | undefined>();
    } else if (event?.type === 'output') expectTypeOf(event.text).toEqualTypeOf<string>();
  });

  it("a model call's format options are typed by its format", async () => {
    await using log = await ConversationLog.open({ backend: new MemoryConversationLogBackend() });
    const projection = { messages: [], trimmed: [] };
    const request = { model: 'm', messages: [{ role: 'system', content: 'Be brief.' }] };
    const recording = log.modelCalls.record({
      projection,
      request,
      format: chatCompletionsFormat,
      formatOptions: { instructions: 'Be brief.' },
      startedAt: 0,
    });
    expectTypeOf(recording).resolves.toEqualTypeOf<ModelCallRecord>();
    await recording;
    const wrong = () =>
      log.modelCalls.record({
        projection,
        request,
        format: chatCompletionsFormat,
        // @ts-expect-error Chat Completions takes instructions, not a system option.
        formatOptions: { system: 'Be brief.' },
        startedAt: 0,
      });
    expectTypeOf(wrong).returns.resolves.toEqualTypeOf<ModelCallRecord>();
  });

  it('compaction takes directives, not prompts of its own', async () => {
    const summarise = async () => '<summary>Nothing happened.</summary>';
    const history = [{ role: 'user' as const, content: 'hi' }];
    const directives = { summaryDirectives: ['Keep the error codes.'], retainDirectives: ['ids'] };
    await compact(history, { summarise, ...directives });
    // @ts-expect-error There is no summaryPrompt: the instruction is fixed, directives extend it.
    await compact(history, { summarise, summaryPrompt: 'Summarise.' });
    // @ts-expect-error There is no retainPrompt either.
    await compact(history, { summarise, retainPrompt: 'Keep ids.' });
  });
});
