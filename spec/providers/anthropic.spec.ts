import Anthropic from '@anthropic-ai/sdk';
import { defineTool, Media, SpooledArtifact, ToolSession } from 'spoolforge';
import {
  AnthropicToolSession,
  fromAnthropicContent,
  toAnthropicToolResults,
  toAnthropicTools,
} from 'spoolforge/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicWire } from '../../examples/support/anthropic-wire.js';
import {
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';
import { converseAnthropic } from '../helpers/provider-loops.js';
import {
  errorLineNumber,
  investigationScript,
  logBytes,
  mistakesScript,
  pdf,
  png,
  produceLog,
} from '../helpers/service-log.js';

type Body = Record<string, unknown>;
interface SentTool {
  name: string;
  input_schema: { type: string; properties?: Record<string, { enum?: string[] }> };
}
interface SentResult {
  tool_use_id: string;
  is_error?: boolean;
  content?: { type: string; text?: string; source?: Record<string, string> }[];
}
const toolsOf = (body: Body | undefined) => (body?.tools ?? []) as SentTool[];
/** The tool_result blocks of the request's last (user) message. */
const resultsOf = (body: Body | undefined): SentResult[] => {
  const messages = (body?.messages ?? []) as { content: unknown }[];
  const content = messages.at(-1)?.content;
  return Array.isArray(content) ? (content as SentResult[]) : [];
};
const textOf = (result: SentResult | undefined) =>
  (result?.content ?? []).map((block) => block.text ?? '').join('\n');

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function start(script: (turn: ScriptedTurn) => ScriptedReply) {
  model = await startScriptedModel({ wires: [anthropicWire], script });
  const client = new Anthropic({ apiKey: 'test', baseURL: model.url, maxRetries: 0 });
  return { model, client };
}

describe('spoolforge/anthropic with the real @anthropic-ai/sdk client', () => {
  it('runs the full loop: 20 MB log → handle → grep → recursion break → final answer', async () => {
    const { model, client } = await start(
      investigationScript({
        // The grep's id, from its result in the request: never offered, so an error result.
        grepId: (turn) => turn.results.at(-2)?.callId,
        idPattern: /"(toolu_[^"]+)"/,
      }),
    );
    await using agent = new AnthropicToolSession({ tools: [produceLog] });
    const { message, dispatches } = await converseAnthropic(
      agent,
      client,
      'Why did checkout fail?',
    );

    const bodies = model.requests.map((request) => request.body);
    expect(model.requests.every((request) => request.path === '/v1/messages')).toBe(true);
    expect(bodies).toHaveLength(5);

    // 1. Nothing spooled yet: only the agent's own tool, with an object input_schema.
    expect(toolsOf(bodies[0]).map((tool) => tool.name)).toEqual(['produce_log']);
    expect(toolsOf(bodies[0])[0]?.input_schema.type).toBe('object');

    // 2. The 20 MB log went into the spool; the request carries only the handle…
    const [produceCall] = agent.session.toolCalls;
    const produceId = produceCall?.id ?? '';
    const spooled = produceCall?.results;
    expect(spooled).toBeInstanceOf(SpooledArtifact);
    expect(await (spooled as SpooledArtifact).byteLength()).toBe(logBytes);
    const [handle] = resultsOf(bodies[1]);
    expect(handle?.tool_use_id).toBe(produceId);
    expect(handle?.is_error).toBeUndefined();
    expect(Buffer.byteLength(JSON.stringify(handle?.content))).toBeLessThan(2_000);
    expect(textOf(handle)).toContain(produceId);
    expect(textOf(handle)).toContain('artifact_grep');
    expect(Buffer.byteLength(JSON.stringify(bodies[1]))).toBeLessThan(50_000);
    // …and the forged tools, whose callId enum is exactly that call.
    const forged = toolsOf(bodies[1]).filter((tool) => tool.name.startsWith('artifact_'));
    expect(forged.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['artifact_read', 'artifact_grep', 'artifact_list']),
    );
    for (const tool of forged) {
      expect(tool.input_schema.type).toBe('object');
      if (tool.name !== 'artifact_list') {
        expect(tool.input_schema.properties?.callId?.enum).toEqual([produceId]);
      }
    }

    // 3. Grep answers are bounded and numbered; a frequent pattern is cut with a continuation.
    const [rare, frequent] = resultsOf(bodies[2]);
    expect(textOf(rare)).toMatch(new RegExp(`^${errorLineNumber}:ERROR upstream timeout`, 'm'));
    const [numbered = '', cutNote = ''] = textOf(frequent).split('[cut at');
    expect(Buffer.byteLength(numbered)).toBeLessThanOrEqual(50 * 1024);
    const unnumbered = numbered
      .trimEnd()
      .split('\n')
      .filter((line) => !/^\d+:/.test(line));
    expect(unnumbered).toEqual([]);
    // The whole result, cut note included, stays within maxResultBytes.
    expect(
      Buffer.byteLength(numbered) + Buffer.byteLength(`[cut at${cutNote}`),
    ).toBeLessThanOrEqual(50 * 1024);
    expect(textOf(frequent)).toMatch(/^1:INFO GET/m);
    expect(textOf(frequent)).toMatch(/Continue with artifact_grep/);
    // Grep calls are marked as artifact-tool calls and never offered as callIds themselves.
    const greps = agent.session.toolCalls.filter((call) => call.name === 'artifact_grep');
    expect(greps.map((call) => call.fromArtifactTool)).toEqual([true, true, true]);
    const grepTool = toolsOf(bodies[2]).find((tool) => tool.name === 'artifact_grep');
    expect(grepTool?.input_schema.properties?.callId?.enum).toEqual([produceId]);

    // 4. The recursion break: querying a grep's own id is an is_error result naming the valid ids.
    const [refused] = resultsOf(bodies[3]);
    expect(refused?.is_error).toBe(true);
    expect(textOf(refused)).toContain('E_INVALID_TOOL_ARGS');
    expect(textOf(refused)).toContain(`"${produceId}"`);

    // 5. The loop went on: the model read around the error line and answered.
    const [cat] = resultsOf(bodies[4]);
    expect(cat?.is_error).toBeUndefined();
    expect(textOf(cat)).toContain(`${errorLineNumber}:ERROR upstream timeout`);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]).toMatchObject({ type: 'text' });

    // Ack pruned the ephemeral forged tools from every dispatch's registry.
    for (const dispatch of dispatches) {
      expect(dispatch.context.state).toBe('acked');
      expect(dispatch.context.tools?.list().map((tool) => tool.name)).toEqual(['produce_log']);
    }
    expect(dispatches[1]?.tools.some((tool) => tool.name === 'artifact_grep')).toBe(true);
  });

  it('turns bad arguments into is_error results and the loop recovers', async () => {
    const { model, client } = await start(mistakesScript());
    // The converters and a plain ToolSession, without the wrapper.
    await using session = new ToolSession({ tools: [produceLog] });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'look at the log' }];
    for (let turn = 0; turn < 5; turn++) {
      const dispatch = session.dispatch();
      const message = await client.messages.create({
        model: 'claude-scripted',
        max_tokens: 1024,
        messages,
        tools: toAnthropicTools(dispatch.tools ?? session.registry),
      });
      dispatch.ack();
      const requests = fromAnthropicContent(message.content);
      if (requests.length === 0) break;
      const outcomes = await session.run(requests, dispatch);
      messages.push({ role: 'assistant', content: message.content });
      messages.push({ role: 'user', content: toAnthropicToolResults(outcomes) });
    }
    const bodies = model.requests.map((request) => request.body);
    expect(bodies).toHaveLength(4);
    const errors = resultsOf(bodies[2]);
    expect(errors.map((result) => result.is_error)).toEqual([true, true, true, true, true]);
    const texts = errors.map(textOf);
    expect(texts[0]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*\blast\b/);
    expect(texts[1]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*pattern/);
    expect(texts[2]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*start/);
    expect(texts[3]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*lines/);
    expect(texts[4]).toMatch(/E_UNKNOWN_TOOL[\s\S]*no_such_tool/);
    const [recovered] = resultsOf(bodies[3]);
    expect(recovered?.is_error).toBeUndefined();
    expect(textOf(recovered)).toMatch(/^1:INFO GET[\s\S]*^2:INFO GET/m);
  });

  it('sends images as image blocks and PDFs as document blocks, never base64 in text', async () => {
    const screenshot = defineTool({
      name: 'take_screenshot',
      description: 'A screenshot of the failing page.',
      inputSchema: z.object({}),
      handler: () => new Media(png, { mediaType: 'image/png', name: 'checkout.png' }),
    });
    const report = defineTool({
      name: 'export_report',
      description: 'The incident report as a PDF.',
      inputSchema: z.object({}),
      handler: () => new Media(pdf, { mediaType: 'application/pdf', name: 'incident.pdf' }),
    });
    const { model, client } = await start((turn) =>
      turn.index === 0
        ? {
            toolCalls: [
              { name: 'take_screenshot', arguments: {} },
              { name: 'export_report', arguments: {} },
            ],
          }
        : { text: 'I see a blank page.' },
    );
    await using agent = new AnthropicToolSession({ tools: [screenshot, report] });
    await converseAnthropic(agent, client, 'What does the page show?');

    const body = model.requests[1]?.body;
    const [image, document] = resultsOf(body);
    const pngBase64 = Buffer.from(png).toString('base64');
    const pdfBase64 = Buffer.from(pdf).toString('base64');
    expect(image?.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: pngBase64 },
    });
    expect(document?.content).toContainEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: pdfBase64 },
      title: 'incident.pdf',
    });
    for (const block of [...(image?.content ?? []), ...(document?.content ?? [])]) {
      if (block.type === 'text') expect(block.text?.length).toBeLessThan(200);
    }
    // Each payload is in the request exactly once: in its block's source.
    const sent = JSON.stringify(body);
    expect(sent.split(pngBase64)).toHaveLength(2);
    expect(sent.split(pdfBase64)).toHaveLength(2);
  });
});
