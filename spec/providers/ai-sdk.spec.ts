// The real `ai` generateText and `@ai-sdk/openai` Chat Completions client against a loopback
// model that answers with scripted replies; every assertion on what the model was sent reads
// the request bodies the client actually sent.
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { defineTool, Media, SpooledArtifact, SpoolforgeError } from 'spoolforge';
import { type SpoolforgeToolOutput, spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import {
  callIdsOf,
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';

const logBytes = 20 * 1024 * 1024;
/** 0-based lines that report the failure; the rest is routine traffic. */
const failureLines = [50_000, 150_000, 250_000];

const failureText = (line: number) =>
  `2026-05-01T12:00:00.000Z ERROR worker-3 disk quota exceeded on /var/data (request ${line})`;

/** A service log of about `size` bytes, produced the way a tool streams one. */
async function* serviceLog(size: number): AsyncGenerator<string> {
  const failures = new Set(failureLines);
  let chunk = '';
  let produced = 0;
  for (let line = 0; produced < size; line++) {
    const text = failures.has(line)
      ? failureText(line)
      : `2026-05-01T12:00:00.000Z INFO worker-${line % 8} request ${line} served in ${line % 97}ms`;
    chunk += `${text}\n`;
    if (chunk.length >= 64 * 1024) {
      produced += chunk.length;
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

const produceLog = (size: number) =>
  defineTool({
    name: 'produce_log',
    description: 'Returns the full log of the storage service.',
    inputSchema: z.object({}),
    handler: () => serviceLog(size),
  });

const running: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((scripted) => scripted.close()));
});

/** A scripted model answering with `script`, and the real AI SDK client pointed at it. */
async function start(script: (turn: ScriptedTurn) => ScriptedReply) {
  const model = await startScriptedModel({ wires: [openAIChatWire], script });
  running.push(model);
  const provider = createOpenAI({ apiKey: 'test', baseURL: `${model.url}/v1` });
  return { model, chat: provider.chat('scripted') };
}

/** What request `index` carried, as the model reads it: offered tools and tool results. */
const sent = (scripted: ScriptedModel, index: number) => {
  const body = scripted.requests[index]?.body ?? {};
  return { ...openAIChatWire.parse(body), body };
};
const toolNames = (turn: { tools: { name: string }[] }) => turn.tools.map((tool) => tool.name);
const forgedNames = (turn: { tools: { name: string }[] }) =>
  toolNames(turn).filter((name) => name.startsWith('artifact_'));

describe('spoolforge/ai-sdk with generateText', () => {
  it('spools a 20 MB log, offers forged tools per step, breaks recursion, prunes on ack', async () => {
    const { model, chat } = await start((turn) => {
      const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
      if (turn.index === 0) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
      if (turn.index === 1 && spooledId) {
        const grep = { callId: spooledId, pattern: 'disk quota', maxCount: 2 };
        return { toolCalls: [{ name: 'artifact_grep', arguments: grep }] };
      }
      if (turn.index === 2) {
        // Query the grep's own answer: an artifact tool's call is never a callId.
        const grepCallId = turn.results.at(-1)?.callId ?? '';
        return {
          toolCalls: [{ name: 'artifact_grep', arguments: { callId: grepCallId, pattern: 'x' } }],
        };
      }
      return { text: 'The disk quota on /var/data was exceeded.' };
    });
    await using spoolforge = spoolforgeToolSet({ tools: [produceLog(logBytes)] });

    const result = await generateText({
      model: chat,
      prompt: 'Why does the storage service fail?',
      tools: spoolforge.tools,
      prepareStep: spoolforge.prepareStep,
      onStepFinish: spoolforge.onStepFinish,
      stopWhen: stepCountIs(6),
    });

    expect(result.text).toBe('The disk quota on /var/data was exceeded.');
    expect(model.requests).toHaveLength(4);

    // Request 1: nothing spooled yet, so no forged tool is offered.
    expect(toolNames(sent(model, 0))).toEqual(['produce_log']);

    // Request 2: the 20 MB output is only a handle; the forged tools carry the callId enum.
    const second = sent(model, 1);
    const handle = second.results.find((result) => result.callId === 'call_0_0');
    expect(handle?.isError).toBe(false);
    expect(Buffer.byteLength(handle?.text ?? '')).toBeLessThan(2_000);
    expect(handle?.text).toContain('call_0_0');
    expect(handle?.text).toContain('artifact_grep');
    expect(JSON.stringify(second.body).length).toBeLessThan(20_000);
    expect(forgedNames(second)).toEqual(
      expect.arrayContaining(['artifact_read', 'artifact_grep', 'artifact_list']),
    );
    for (const tool of second.tools.filter((offered) => offered.name !== 'artifact_list')) {
      if (tool.name.startsWith('artifact_')) expect(callIdsOf(tool)).toEqual(['call_0_0']);
    }
    const spooled = spoolforge.session.toolCalls[0]?.results;
    expect(spooled).toBeInstanceOf(SpooledArtifact);
    expect(await (spooled as SpooledArtifact).byteLength()).toBeGreaterThanOrEqual(logBytes);

    // Request 3: the grep answer is bounded and numbered 1-based; the grep call is not offered.
    const third = sent(model, 2);
    const grep = third.results.find((result) => result.callId === 'call_1_0');
    expect(grep?.isError).toBe(false);
    expect(grep?.text.split('\n')).toEqual([
      `${(failureLines[0] ?? 0) + 1}:${failureText(failureLines[0] ?? 0)}`,
      `${(failureLines[1] ?? 0) + 1}:${failureText(failureLines[1] ?? 0)}`,
      '2 matching lines (stopped at maxCount).',
      '',
    ]);
    expect(callIdsOf(third.tools.find((tool) => tool.name === 'artifact_grep'))).toEqual([
      'call_0_0',
    ]);

    // Request 4: querying the grep's own call id is a tool error the model reads; the loop went on.
    const fourth = sent(model, 3);
    const refused = fourth.results.find((result) => result.callId === 'call_2_0');
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toMatch(
      /^Error \(E_INVALID_TOOL_ARGS\): Invalid arguments for artifact_grep/,
    );
    expect(refused?.text).toContain('callId must be one of "call_0_0"');
    const toolError = result.steps[2]?.content.find((part) => part.type === 'tool-error');
    expect(toolError?.toolName).toBe('artifact_grep');
    const error = toolError?.error;
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_INVALID_TOOL_ARGS');

    // Every call ran through the session; the artifact tools' calls are marked as such.
    expect(
      spoolforge.session.toolCalls.map((call) => [
        call.id,
        call.fromArtifactTool,
        call.error?.code,
      ]),
    ).toEqual([
      ['call_0_0', false, undefined],
      ['call_1_0', true, undefined],
      ['call_2_0', true, 'E_INVALID_TOOL_ARGS'],
    ]);

    // The last step finished: its dispatch is acked and its ephemeral tools are pruned.
    expect(spoolforge.dispatch?.state).toBe('acked');
    expect(spoolforge.dispatch?.tools?.list().map((tool) => tool.name)).toEqual(['produce_log']);
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
      tools: spoolforge.tools,
      prepareStep: spoolforge.prepareStep,
      onStepFinish: spoolforge.onStepFinish,
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
    await spoolforge.tools.produce_log?.execute?.({}, { toolCallId: 'call_1', messages: [] });
    spoolforge.onStepFinish();

    const { activeTools } = spoolforge.prepareStep({ stepNumber: 1 });
    expect(activeTools).toEqual(expect.arrayContaining(['artifact_grep', 'artifact_list']));
    for (const name of activeTools)
      expect([name, descriptionOf(name)]).toEqual([name, declared.get(name)]);
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
      tools: spoolforge.tools,
      prepareStep: spoolforge.prepareStep,
      onStepFinish: spoolforge.onStepFinish,
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

  it('media results: native parts in the output, or only a note for Chat Completions', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const screenshot = defineTool({
      name: 'screenshot',
      description: 'Takes a screenshot.',
      inputSchema: z.object({}),
      handler: () => new Media(png, { mediaType: 'image/png', name: 'screen.png' }),
    });
    const run = async (mediaResults: 'native' | 'note') => {
      const { model, chat } = await start((turn) =>
        turn.index === 0
          ? { toolCalls: [{ name: 'screenshot', arguments: {} }] }
          : { text: 'seen' },
      );
      await using spoolforge = spoolforgeToolSet({ tools: [screenshot], mediaResults });
      const result = await generateText({
        model: chat,
        prompt: 'Look.',
        tools: spoolforge.tools,
        prepareStep: spoolforge.prepareStep,
        onStepFinish: spoolforge.onStepFinish,
        stopWhen: stepCountIs(3),
      });
      const output = result.steps[0]?.toolResults[0]?.output as SpoolforgeToolOutput;
      return { output, shown: sent(model, 1).results[0]?.text ?? '' };
    };

    const native = await run('native');
    expect(native.output.media).toEqual([
      { mediaType: 'image/png', data: Buffer.from(png).toString('base64'), name: 'screen.png' },
    ]);
    const note = await run('note');
    expect(note.output.media).toEqual([]);
    expect(note.shown).toBe('screenshot returned image/png "screen.png" (11 bytes).');
  });
});
