// The real `ai` generateText and `@ai-sdk/openai` Chat Completions client against a loopback
// model that answers with scripted replies; every assertion on what the model was sent reads
// the request bodies the client actually sent.
import { spawnSync } from 'node:child_process';
import { generateText, stepCountIs } from 'ai';
import { defineTool, Media } from 'spoolforge';
import { type SpoolforgeToolOutput, spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import { callIdsOf } from '../../examples/support/scripted-model.js';
import { logScenario } from '../helpers/ai-sdk-log-scenario.js';
import {
  aiSdkMajor,
  produceLog,
  sentChat as sent,
  startAiSdkModel as start,
  stepOptionsOf,
  toolNames,
} from '../helpers/ai-sdk-scripted.js';

describe('spoolforge/ai-sdk with generateText', () => {
  it('spools a 20 MB log, offers forged tools per step, breaks recursion, prunes on ack', async () => {
    const { model, chat } = await start(logScenario.script);
    await using spoolforge = spoolforgeToolSet({ tools: [produceLog(logScenario.bytes)] });

    const result = await generateText({
      model: chat,
      prompt: 'Why does the storage service fail?',
      ...stepOptionsOf(spoolforge),
      stopWhen: stepCountIs(6),
    });

    await logScenario.expect({ model, spoolforge, text: result.text, steps: result.steps });
  });

  it('offers no forged tool while nothing is spooled; a premature call is an error', async () => {
    const { model, chat } = await start((turn) => {
      if (turn.index === 0) {
        return {
          toolCalls: [
            { name: 'small_status', arguments: {} },
            { name: 'artifact_grep', arguments: { callId: 'call_0_0', pattern: 'ok' } },
          ],
        };
      }
      return { text: 'All is well.' };
    });
    const smallStatus = defineTool({
      name: 'small_status',
      description: 'A one-line status.',
      inputSchema: z.object({}),
      handler: () => 'status: ok',
    });
    await using spoolforge = spoolforgeToolSet({ tools: [smallStatus] });

    const result = await generateText({
      model: chat,
      prompt: 'Status?',
      ...stepOptionsOf(spoolforge),
      stopWhen: stepCountIs(4),
    });

    expect(result.text).toBe('All is well.');
    const second = sent(model, 1);
    expect(toolNames(second)).toEqual(['small_status']);
    expect(second.results.find((result) => result.callId === 'call_0_0')?.text).toBe('status: ok');
    // The SDK refuses a tool the step did not offer; it never reaches the session.
    const refused = second.results.find((result) => result.callId === 'call_0_1');
    expect(refused?.text).toContain('artifact_grep');
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(spoolforge.session.toolCalls.map((call) => call.name)).toEqual(['small_status']);
  });

  it('declares every forged tool up front as its steps offer it', async () => {
    await using spoolforge = spoolforgeToolSet({ tools: [produceLog(100_000)] });
    const descriptionOf = (name: string) => spoolforge.tools[name]?.description;
    const declared = new Map(
      Object.keys(spoolforge.tools).map((name) => [name, descriptionOf(name)]),
    );
    spoolforge.prepareStep({ stepNumber: 0 });
    await spoolforge.tools.produce_log?.execute?.(
      {},
      { toolCallId: 'call_1', messages: [], context: undefined },
    );
    spoolforge.onStepFinish();

    const { activeTools } = spoolforge.prepareStep({ stepNumber: 1 });
    expect(activeTools).toEqual(expect.arrayContaining(['artifact_grep', 'artifact_list']));
    for (const name of activeTools)
      expect([name, descriptionOf(name)]).toEqual([name, declared.get(name)]);
  });

  it('loads, declares its tools and renders their schemas without resolving ai', () => {
    // A child process whose module resolution throws for the AI SDK: the adapter must not need
    // it at run time, so it works with whichever copy (and major) of the SDK the app has.
    const hooks = `export async function resolve(specifier, context, next) {
      if (/^(ai|@ai-sdk\\/.*)(\\/|$)/.test(specifier)) throw new Error('resolved ' + specifier);
      return next(specifier, context);
    }`;
    const register = `import { register } from 'node:module';
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    const entry = new URL('../../dist/providers/ai-sdk/index.js', import.meta.url).href;
    const program = `const { spoolforgeToolSet } = await import(${JSON.stringify(entry)});
      const spoolforge = spoolforgeToolSet();
      spoolforge.prepareStep({ stepNumber: 0 });
      const schema = spoolforge.tools.artifact_grep.inputSchema();
      console.log(JSON.stringify(Object.keys(schema.jsonSchema.properties)));
      await spoolforge.close();`;
    const child = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module'],
      { input: program, encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual(expect.arrayContaining(['callId', 'pattern']));
  });

  it('strict mode: all properties required, nulls read as left out', async () => {
    const { model, chat } = await start((turn) => {
      const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
      if (turn.index === 0) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
      if (turn.index === 1 && spooledId) {
        // What OpenAI strict mode sends: every optional field present as null.
        const grep = {
          callId: spooledId,
          pattern: 'request 42 served',
          fixed: true,
          ignoreCase: null,
          invert: null,
          context: null,
          maxCount: 1,
          startLine: null,
        };
        return { toolCalls: [{ name: 'artifact_grep', arguments: grep }] };
      }
      return { text: 'done' };
    });
    await using spoolforge = spoolforgeToolSet({ tools: [produceLog(200_000)], strict: true });

    await generateText({
      model: chat,
      prompt: 'Look at the log.',
      ...stepOptionsOf(spoolforge),
      stopWhen: stepCountIs(4),
    });

    const offered = (sent(model, 1).body.tools as { function: Record<string, unknown> }[]).map(
      (tool) => tool.function,
    );
    const grepTool = offered.find((tool) => tool.name === 'artifact_grep');
    expect(grepTool?.strict).toBe(true);
    const parameters = grepTool?.parameters as { required: string[]; additionalProperties: false };
    expect(parameters.additionalProperties).toBe(false);
    expect(parameters.required).toEqual(expect.arrayContaining(['callId', 'pattern', 'maxCount']));
    const answer = sent(model, 2).results.find((result) => result.callId === 'call_1_0');
    expect(answer?.text).toBe(
      '43:2026-05-01T12:00:00.000Z INFO worker-2 request 42 served in 42ms\n' +
        '1 matching line (stopped at maxCount).\n',
    );
  });

  it('media results: native file parts over Responses, or only a note for Chat Completions', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const base64 = Buffer.from(png).toString('base64');
    const screenshot = defineTool({
      name: 'screenshot',
      description: 'Takes a screenshot.',
      inputSchema: z.object({}),
      handler: () => new Media(png, { mediaType: 'image/png', name: 'screen.png' }),
    });
    const script = (turn: { index: number }) =>
      turn.index === 0 ? { toolCalls: [{ name: 'screenshot', arguments: {} }] } : { text: 'seen' };
    const run = async (mediaResults: 'native' | 'note', api: 'responses' | 'chat') => {
      const wire = api === 'responses' ? openAIResponsesWire : undefined;
      const { model, provider } = await start(script, wire ? { wire } : {});
      await using spoolforge = spoolforgeToolSet({ tools: [screenshot], mediaResults });
      const result = await generateText({
        model: provider[api]('scripted'),
        prompt: 'Look.',
        ...stepOptionsOf(spoolforge),
        stopWhen: stepCountIs(3),
      });
      const output = result.steps[0]?.toolResults[0]?.output as SpoolforgeToolOutput;
      return { output, body: model.requests[1]?.body ?? {} };
    };
    // The SDK's own warnings (deprecated shapes among them), caught instead of printed.
    const warnings: unknown[] = [];
    const sdkGlobals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    sdkGlobals.AI_SDK_LOG_WARNINGS = (logged: { warnings: unknown[] }) => {
      warnings.push(...logged.warnings);
    };
    onTestFinished(() => {
      delete sdkGlobals.AI_SDK_LOG_WARNINGS;
    });

    const native = await run('native', 'responses');
    expect(native.output.media).toEqual([
      { mediaType: 'image/png', data: base64, name: 'screen.png' },
    ]);
    // The image reaches the model as an image part of the function call's output, not as text.
    const input = native.body.input as { type: string; output?: unknown }[];
    const returned = input.find((item) => item.type === 'function_call_output')?.output;
    expect(returned).toEqual([
      { type: 'input_text', text: 'screenshot returned image/png "screen.png" (11 bytes).' },
      { type: 'input_image', image_url: `data:image/png;base64,${base64}` },
    ]);
    // Spelled in the running major's own shape: no deprecation warning.
    expect(warnings).toEqual([]);

    const note = await run('note', 'chat');
    expect(note.output.media).toEqual([]);
    const messages = note.body.messages as { role: string; content: unknown }[];
    expect(messages.find((message) => message.role === 'tool')?.content).toBe(
      'screenshot returned image/png "screen.png" (11 bytes).',
    );
  });

  it('a failed request nacks its step; the next run offers the spooled output again', async () => {
    const { model, chat } = await start((turn) => {
      if (turn.index === 0) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
      if (turn.index === 1) throw new Error('the scripted model is down');
      return { text: 'recovered' };
    });
    await using spoolforge = spoolforgeToolSet({ tools: [produceLog(100_000)] });
    const options = { model: chat, ...stepOptionsOf(spoolforge), stopWhen: stepCountIs(4) };

    await expect(generateText({ ...options, prompt: 'Look at the log.' })).rejects.toThrow(
      /the scripted model is down/,
    );
    // AI SDK 7 reports the failure (onStepError); under AI SDK 6 the next run's first step nacks.
    const failed = spoolforge.dispatch;
    expect(failed?.state).toBe(aiSdkMajor === 7 ? 'nacked' : 'pending');

    const retried = await generateText({ ...options, prompt: 'Try again.' });
    expect(retried.text).toBe('recovered');
    expect(failed?.state).toBe('nacked');
    const [, , again] = model.requests.map((_, index) => sent(model, index));
    expect(callIdsOf(again?.tools.find((tool) => tool.name === 'artifact_grep'))).toEqual([
      'call_0_0',
    ]);
    expect(spoolforge.dispatch?.state).toBe('acked');
  });
});
