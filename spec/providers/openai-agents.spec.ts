// The real `@openai/agents` Runner (its OpenAI Responses model) against a loopback model that
// answers with scripted replies; every assertion on what the model was sent reads the request
// bodies the SDK actually sent.
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { defineTool, Media, type SpooledArtifact, ToolSession } from 'spoolforge';
import { mcpTools } from 'spoolforge/mcp';
import { spoolforgeAgentTools } from 'spoolforge/openai-agents';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  callIdsOf,
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';
import { connectInMemoryTestServer, needle, pngBase64 } from '../helpers/mcp-test-server.js';
import {
  expectServiceLogRequests,
  logBytes,
  produceLog,
  serviceLogAnswer,
  serviceLogScript,
} from '../helpers/service-log-scenario.js';

setTracingDisabled(true);

const running: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((scripted) => scripted.close()));
});

/** A scripted model answering with `script`, and a Runner whose OpenAI provider talks to it. */
async function start(script: (turn: ScriptedTurn) => ScriptedReply) {
  const model = await startScriptedModel({ wires: [openAIResponsesWire], script });
  running.push(model);
  const modelProvider = new OpenAIProvider({ apiKey: 'test', baseURL: `${model.url}/v1` });
  return { model, runner: new Runner({ modelProvider, tracingDisabled: true }) };
}

/** What request `index` carried, as the model reads it: offered tools and tool results. */
const sent = (scripted: ScriptedModel, index: number) => {
  const body = scripted.requests[index]?.body ?? {};
  return { ...openAIResponsesWire.parse(body), body };
};
/** The `output` of the `function_call_output` item for `callId` in request `index`. */
const outputOf = (scripted: ScriptedModel, index: number, callId: string) => {
  const input = (scripted.requests[index]?.body.input ?? []) as Record<string, unknown>[];
  return input.find((item) => item.type === 'function_call_output' && item.call_id === callId)
    ?.output;
};
const toolNames = (turn: { tools: { name: string }[] }) => turn.tools.map((tool) => tool.name);

describe('spoolforge/openai-agents with the Agents SDK Runner', () => {
  it('spools a 20 MB log, offers forged tools per model call, breaks recursion, prunes on ack', async () => {
    const { model, runner } = await start(serviceLogScript);
    await using spoolforge = spoolforgeAgentTools({ tools: [produceLog(logBytes)] });
    const agent = new Agent({
      name: 'Investigator',
      instructions: 'Find why the storage service fails.',
      tools: spoolforge.tools,
    });
    const states: (string | undefined)[] = [];
    agent.on('agent_tool_end', () => states.push(spoolforge.dispatch?.state));

    const result = await runner.run(agent, 'Why does the storage service fail?', { maxTurns: 6 });

    expect(result.finalOutput).toBe(serviceLogAnswer);
    expect(model.rejected).toEqual([]);
    const requests = model.requests.map((_, index) => sent(model, index));
    await expectServiceLogRequests(requests, spoolforge.session);
    // Strict function tools, as the SDK's own `tool()` makes them.
    const offered = (requests[1]?.body.tools ?? []) as Record<string, unknown>[];
    const grepTool = offered.find((tool) => tool.name === 'artifact_grep');
    expect(grepTool?.strict).toBe(true);
    expect(grepTool?.parameters).toMatchObject({ additionalProperties: false });

    // Each call ran after its response arrived: its dispatch was acked by then. The last model
    // call (the answer) is acked by the agent's end, and its ephemeral tools are pruned.
    expect(states).toEqual(['acked', 'acked', 'acked']);
    expect(spoolforge.dispatch?.state).toBe('acked');
    expect(spoolforge.dispatch?.tools.list().map((tool) => tool.name)).toEqual(['produce_log']);
  });

  it('answers model mistakes with outputs the model reads, and the run goes on', async () => {
    const { model, runner } = await start((turn) => {
      if (turn.index === 0) {
        return {
          toolCalls: [
            // Nothing is spooled yet: the SDK has no artifact_grep in this model call.
            { name: 'artifact_grep', arguments: { callId: 'call_0_9', pattern: 'x' } },
            { name: 'count_lines', arguments: { path: 42 } },
            { name: 'flaky', arguments: {} },
          ],
        };
      }
      return { text: 'I could not read the disk.' };
    });
    const countLines = defineTool({
      name: 'count_lines',
      description: 'Counts the lines of a file.',
      inputSchema: z.object({ path: z.string() }),
      handler: ({ path }) => `${path}: 3 lines`,
    });
    const flaky = defineTool({
      name: 'flaky',
      description: 'Reads the disk, which fails.',
      inputSchema: z.object({}),
      handler: () => {
        throw new Error('EIO: disk unreadable');
      },
    });
    await using spoolforge = spoolforgeAgentTools({ tools: [countLines, flaky] });
    const agent = new Agent({ name: 'Reader', tools: spoolforge.tools });

    const result = await runner.run(agent, 'Read the disk.', {
      toolNotFoundBehavior: 'return_error_to_model',
    });

    expect(result.finalOutput).toBe('I could not read the disk.');
    expect(toolNames(sent(model, 0))).toEqual(['count_lines', 'flaky']);
    const outputs = sent(model, 1).results;
    const [notOffered, badArguments, thrown] = ['call_0_0', 'call_0_1', 'call_0_2'].map((id) =>
      outputs.find((output) => output.callId === id),
    );
    expect(notOffered?.text).toBe("Tool 'artifact_grep' not found.");
    expect(badArguments?.text).toMatch(
      /^Error \(E_INVALID_TOOL_ARGS\): Invalid arguments for count_lines/,
    );
    expect(thrown?.text).toMatch(/^Error \(E_TOOL_FAILED\): .*EIO: disk unreadable/);
    for (const output of [badArguments, thrown]) expect(output?.text).not.toMatch(/\n\s+at /);
    // The SDK answered the tool it did not have; the other two ran through the session.
    expect(spoolforge.session.toolCalls.map((call) => [call.name, call.error?.code])).toEqual([
      ['count_lines', 'E_INVALID_TOOL_ARGS'],
      ['flaky', 'E_TOOL_FAILED'],
    ]);
  });

  it('sends images and PDFs as input_image / input_file parts, never base64 in text', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
    const screenshot = defineTool({
      name: 'screenshot',
      description: 'Takes a screenshot.',
      inputSchema: z.object({}),
      handler: () => new Media(png, { mediaType: 'image/png', name: 'screen.png' }),
    });
    const report = defineTool({
      name: 'report',
      description: 'Returns the incident report.',
      inputSchema: z.object({}),
      handler: () => new Media(pdf, { mediaType: 'application/pdf' }),
    });
    const { model, runner } = await start((turn) =>
      turn.index === 0
        ? {
            toolCalls: [
              { name: 'screenshot', arguments: {} },
              { name: 'report', arguments: {} },
            ],
          }
        : { text: 'seen' },
    );
    await using spoolforge = spoolforgeAgentTools({ tools: [screenshot, report] });
    const agent = new Agent({ name: 'Viewer', tools: spoolforge.tools });

    await runner.run(agent, 'Look.');

    expect(outputOf(model, 1, 'call_0_0')).toEqual([
      { type: 'input_text', text: 'screenshot returned image/png "screen.png" (11 bytes).' },
      {
        type: 'input_image',
        image_url: `data:image/png;base64,${Buffer.from(png).toString('base64')}`,
      },
    ]);
    expect(outputOf(model, 1, 'call_0_1')).toEqual([
      { type: 'input_text', text: 'report returned application/pdf (35 bytes).' },
      {
        type: 'input_file',
        file_data: `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}`,
        filename: 'call_0_1.pdf',
      },
    ]);
  });

  it('nacks a model call whose request failed; the next run goes on from the session', async () => {
    let failing = true;
    const { model, runner } = await start((turn) => {
      const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
      if (!spooledId) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
      if (failing) throw new Error('the model is overloaded');
      if (turn.results.length === 0) {
        return { toolCalls: [{ name: 'artifact_read', arguments: { callId: spooledId, end: 1 } }] };
      }
      return { text: `read ${spooledId}` };
    });
    await using spoolforge = spoolforgeAgentTools({ tools: [produceLog(300_000)] });
    const agent = new Agent({ name: 'Investigator', tools: spoolforge.tools });

    await expect(runner.run(agent, 'Look at the log.')).rejects.toThrow(/overloaded/);
    const failed = spoolforge.dispatch;
    // The SDK tells nothing of a failed request: its dispatch waits for the next model call.
    expect(failed?.state).toBe('pending');
    expect(failed?.tools.has('artifact_grep')).toBe(true);

    failing = false;
    const result = await runner.run(agent, 'Look at the log again.');

    expect(failed?.state).toBe('nacked');
    // The new run's first model call already offers what the failed run spooled.
    expect(callIdsOf(sent(model, 2).tools.find((tool) => tool.name === 'artifact_read'))).toEqual([
      'call_0_0',
    ]);
    expect(result.finalOutput).toBe('read call_0_0');
    expect(sent(model, 3).results.at(-1)?.text).toMatch(
      /^lines 1–1 of \d+:\n1:2026-05-01T12:00:00.000Z INFO/,
    );
    expect(spoolforge.dispatch?.state).toBe('acked');
  });

  it('closes only a session it made', async () => {
    const { runner } = await start((turn) =>
      turn.results.length === 0
        ? { toolCalls: [{ name: 'produce_log', arguments: {} }] }
        : { text: 'ok' },
    );
    const run = async (tools: ReturnType<typeof spoolforgeAgentTools>) => {
      await runner.run(new Agent({ name: 'A', tools: tools.tools }), 'Go.');
      await tools.close();
      return tools.session.toolCalls.at(-1)?.results as SpooledArtifact;
    };
    const made = await run(spoolforgeAgentTools({ tools: [produceLog(300_000)] }));
    await expect(made.head(1)).rejects.toThrow();

    await using session = new ToolSession({ tools: [produceLog(300_000)] });
    const yours = await run(spoolforgeAgentTools({ session }));
    expect(await yours.head(1)).toHaveLength(1);
  });

  it('runs the tools of an MCP server (mcpTools) inside the Agent, spooled and queryable', async () => {
    const client = await connectInMemoryTestServer();
    const { model, runner } = await start((turn) => {
      const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
      if (turn.index === 0) {
        return {
          toolCalls: [
            { name: 'big_text', arguments: { megabytes: 2 } },
            { name: 'image', arguments: {} },
          ],
        };
      }
      if (turn.index === 1 && spooledId) {
        return {
          toolCalls: [
            { name: 'artifact_grep', arguments: { callId: spooledId, pattern: 'NEEDLE' } },
          ],
        };
      }
      return { text: 'found it' };
    });
    try {
      await using spoolforge = spoolforgeAgentTools({ tools: await mcpTools(client) });
      const agent = new Agent({ name: 'Investigator', tools: spoolforge.tools });

      const result = await runner.run(agent, 'Where did the build fail?');

      expect(result.finalOutput).toBe('found it');
      expect(toolNames(sent(model, 0))).toEqual(expect.arrayContaining(['big_text', 'image']));
      expect(JSON.stringify(sent(model, 1).body).length).toBeLessThan(20_000);
      expect(outputOf(model, 1, 'call_0_1')).toContainEqual({
        type: 'input_image',
        image_url: `data:image/png;base64,${pngBase64}`,
      });
      expect(callIdsOf(sent(model, 1).tools.find((tool) => tool.name === 'artifact_grep'))).toEqual(
        ['call_0_0'],
      );
      const grep = sent(model, 2).results.find((output) => output.callId === 'call_1_0');
      expect(grep?.text).toMatch(new RegExp(`^\\d+:${needle}\n1 matching line`));
    } finally {
      await client.close();
    }
  });

  it('works in a streamed run: forged tools per model call, the answer streamed', async () => {
    const { model, runner } = await start(serviceLogScript);
    await using spoolforge = spoolforgeAgentTools({ tools: [produceLog(logBytes)] });
    const agent = new Agent({ name: 'Investigator', tools: spoolforge.tools });

    const stream = await runner.run(agent, 'Why does the storage service fail?', { stream: true });
    const deltas: string[] = [];
    for await (const event of stream.toTextStream()) deltas.push(event);
    await stream.completed;

    expect(model.requests.every((request) => request.body.stream === true)).toBe(true);
    expect(deltas.join('')).toBe(serviceLogAnswer);
    expect(deltas.length).toBeGreaterThan(1);
    expect(stream.finalOutput).toBe(serviceLogAnswer);
    const requests = model.requests.map((_, index) => sent(model, index));
    await expectServiceLogRequests(requests, spoolforge.session);
    expect(spoolforge.dispatch?.state).toBe('acked');
  });

  it("goes on from a stored response (previousResponseId) with the session's outputs", async () => {
    const { model, runner } = await start((turn) => {
      const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
      if (turn.index === 0) return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
      if (turn.index === 1) return { text: 'The log is spooled.' };
      if (turn.index === 2 && spooledId) {
        const grep = { callId: spooledId, pattern: 'disk quota', maxCount: 1 };
        return { toolCalls: [{ name: 'artifact_grep', arguments: grep }] };
      }
      return { text: turn.results.at(-1)?.text.split('\n')[0] ?? 'nothing' };
    });
    await using spoolforge = spoolforgeAgentTools({ tools: [produceLog(logBytes)] });
    const agent = new Agent({ name: 'Investigator', tools: spoolforge.tools });

    const first = await runner.run(agent, 'Fetch the log.');
    const previousResponseId = first.lastResponseId;
    if (previousResponseId === undefined) throw new Error('the first run has no response id');
    const second = await runner.run(agent, 'Now find the failure.', { previousResponseId });

    expect(model.rejected).toEqual([]);
    expect(second.finalOutput).toMatch(/^50001:.*disk quota exceeded/);
    // The continued run sends only what is new: the API holds the rest, the session the outputs.
    const [third, fourth] = [sent(model, 2), sent(model, 3)];
    expect(third.body.previous_response_id).toBe(first.lastResponseId);
    expect(third.body.input).toEqual([{ role: 'user', content: 'Now find the failure.' }]);
    expect(callIdsOf(third.tools.find((tool) => tool.name === 'artifact_grep'))).toEqual([
      'call_0_0',
    ]);
    expect((fourth.body.input as { type?: string }[]).map((item) => item.type)).toEqual([
      'function_call_output',
    ]);
  });
});
