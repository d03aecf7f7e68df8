import { type Content, GoogleGenAI } from '@google/genai';
import { defineTool, Media, SpooledArtifact, ToolSession } from 'spoolforge';
import {
  fromGeminiCalls,
  GoogleToolSession,
  toGeminiFunctionResponses,
  toGeminiTools,
  usageOfGeminiResponse,
} from 'spoolforge/google';
import { mcpTools } from 'spoolforge/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type GeminiWireOptions, geminiWire } from '../../examples/support/gemini-wire.js';
import {
  callIdsOf,
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
} from '../../examples/support/scripted-model.js';
import { connectInMemoryTestServer, needle, pngBase64 } from '../helpers/mcp-test-server.js';
import { converseGoogle } from '../helpers/provider-loops.js';
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
interface SentSchema {
  type?: string;
  nullable?: boolean;
  enum?: string[];
  properties?: Record<string, SentSchema>;
}
interface SentDeclaration {
  name: string;
  parameters?: SentSchema;
  parametersJsonSchema?: unknown;
}
interface SentAnswer {
  id?: string;
  name: string;
  response: { output?: string; error?: string };
  parts?: { inlineData: { mimeType: string; data: string } }[];
}
interface SentPart {
  functionResponse?: SentAnswer;
  inlineData?: { mimeType: string; data: string };
}
const declarationsOf = (body: Body | undefined) =>
  ((body?.tools ?? []) as { functionDeclarations: SentDeclaration[] }[]).flatMap(
    (tool) => tool.functionDeclarations,
  );
/** The parts of the request's last (user) content. */
const lastPartsOf = (body: Body | undefined): SentPart[] =>
  ((body?.contents ?? []) as { parts: SentPart[] }[]).at(-1)?.parts ?? [];
const answersOf = (body: Body | undefined): SentAnswer[] =>
  lastPartsOf(body).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
const textOf = (answer: SentAnswer | undefined) =>
  answer?.response.output ?? answer?.response.error ?? '';

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function start(script: (turn: ScriptedTurn) => ScriptedReply, wire: GeminiWireOptions = {}) {
  model = await startScriptedModel({ wires: [geminiWire(wire)], script });
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: model.url } });
  return { model, ai };
}

describe.each([
  { generation: 'Gemini 2 (calls without ids)', callIds: false, produceId: 'fc_1_0' },
  { generation: 'Gemini 3 (call ids, thought signatures)', callIds: true, produceId: 'call_0_0' },
])(
  'spoolforge/google with the real @google/genai client, $generation',
  ({ callIds, produceId }) => {
    it('runs the full loop: 20 MB log → handle → grep → recursion break → final answer', async () => {
      await using agent = new GoogleToolSession({ tools: [produceLog] });
      const { model, ai } = await start(
        investigationScript({
          // The model cannot see a grep's made id; it names the one the session gave it.
          grepId: () => agent.session.toolCalls.find((call) => call.name === 'artifact_grep')?.id,
          idPattern: /"((?:fc|call)_[^"]+)"/,
        }),
        { callIds },
      );
      const { response, dispatches } = await converseGoogle(agent, ai, 'Why did checkout fail?');

      expect(model.rejected).toEqual([]);
      const bodies = model.requests.map((request) => request.body);
      expect(
        model.requests.every(
          (request) => request.path === '/v1/models/gemini-2.5-flash:generateContent',
        ),
      ).toBe(true);
      expect(bodies).toHaveLength(5);

      // 1. Nothing spooled yet: only the agent's own tool, in Gemini's schema dialect.
      expect(declarationsOf(bodies[0])).toEqual([
        {
          name: 'produce_log',
          description: 'Returns the service log (large).',
          parameters: {
            type: 'OBJECT',
            properties: { lines: { type: 'INTEGER', minimum: 1 } },
          },
        },
      ]);

      // 2. The 20 MB log went into the spool under the call's id; the request carries the handle…
      const [produceCall] = agent.session.toolCalls;
      expect(produceCall?.id).toBe(produceId);
      const spooled = produceCall?.results;
      expect(spooled).toBeInstanceOf(SpooledArtifact);
      expect(await (spooled as SpooledArtifact).byteLength()).toBe(logBytes);
      const [handle] = answersOf(bodies[1]);
      // …answering the call by name, and by id only when the model gave one.
      expect(handle?.name).toBe('produce_log');
      expect(handle?.id).toBe(callIds ? produceId : undefined);
      expect(handle?.response.error).toBeUndefined();
      expect(Buffer.byteLength(JSON.stringify(handle))).toBeLessThan(2_000);
      expect(textOf(handle)).toContain(produceId);
      expect(textOf(handle)).toContain('artifact_grep');
      expect(Buffer.byteLength(JSON.stringify(bodies[1]))).toBeLessThan(50_000);
      // …and the forged tools, whose callId enum (a string enum) is exactly that call.
      const forged = declarationsOf(bodies[1]).filter((tool) => tool.name.startsWith('artifact_'));
      expect(forged.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['artifact_read', 'artifact_grep', 'artifact_list']),
      );
      for (const tool of forged) {
        if (tool.name === 'artifact_list') expect(tool.parameters).toBeUndefined();
        else {
          expect(tool.parameters?.type).toBe('OBJECT');
          expect(tool.parameters?.properties?.callId).toEqual({
            type: 'STRING',
            enum: [produceId],
          });
        }
      }

      // 3. Grep answers are bounded and numbered; a frequent pattern is cut with a continuation.
      const [rare, frequent] = answersOf(bodies[2]);
      expect(textOf(rare)).toMatch(new RegExp(`^${errorLineNumber}:ERROR upstream timeout`, 'm'));
      expect(Buffer.byteLength(textOf(frequent))).toBeLessThanOrEqual(50 * 1024);
      expect(textOf(frequent)).toMatch(/^1:INFO GET/m);
      expect(textOf(frequent)).toMatch(/Continue with artifact_grep/);
      const greps = agent.session.toolCalls.filter((call) => call.name === 'artifact_grep');
      expect(greps.map((call) => call.fromArtifactTool)).toEqual([true, true, true]);
      expect(greps[0]?.id).toBe(callIds ? 'call_1_0' : 'fc_2_0');
      const grepTool = declarationsOf(bodies[2]).find((tool) => tool.name === 'artifact_grep');
      expect(grepTool?.parameters?.properties?.callId?.enum).toEqual([produceId]);

      // 4. The recursion break: querying a grep's own id is an error the model reads.
      const [refused] = answersOf(bodies[3]);
      expect(refused?.response.output).toBeUndefined();
      expect(refused?.response.error).toContain('E_INVALID_TOOL_ARGS');
      expect(refused?.response.error).toContain(`"${produceId}"`);

      // 5. The loop went on: the model read around the error line and answered.
      const [read] = answersOf(bodies[4]);
      expect(textOf(read)).toContain(`${errorLineNumber}:ERROR upstream timeout`);
      expect(response.text).toMatch(/^Root cause: \d+:ERROR upstream timeout/);
      // The last request's tokens, as the model billed them (the wire bills ~4 bytes a token).
      const billed = Math.ceil(JSON.stringify(bodies[4]).length / 4);
      const outputTokens = response.usageMetadata?.candidatesTokenCount ?? 0;
      expect(usageOfGeminiResponse(response)).toEqual({
        inputTokens: billed,
        outputTokens,
        totalTokens: billed + outputTokens,
      });

      // Ack pruned the ephemeral forged tools from every dispatch's registry.
      for (const dispatch of dispatches) {
        expect(dispatch.context.state).toBe('acked');
        expect(dispatch.context.tools?.list().map((tool) => tool.name)).toEqual(['produce_log']);
      }
    });
  },
);

describe('spoolforge/google: mistakes, media and MCP tools', () => {
  it('turns bad arguments, an unknown callId and an unknown tool into { error } responses, and the loop recovers', async () => {
    const { model, ai } = await start(mistakesScript({ grepCallId: 'fc_9_9' }));
    // The converters and a plain ToolSession, without the wrapper.
    await using session = new ToolSession({ tools: [produceLog] });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'look at the log' }] }];
    for (let turn = 1; turn <= 5; turn++) {
      const dispatch = session.dispatch();
      const response = await ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents,
        config: { tools: toGeminiTools(dispatch.tools ?? session.registry) },
      });
      dispatch.ack();
      const requests = fromGeminiCalls(response, { turn });
      if (requests.length === 0) break;
      const outcomes = await session.run(requests, dispatch);
      contents.push(response.candidates?.[0]?.content ?? {});
      contents.push({ role: 'user', parts: toGeminiFunctionResponses(outcomes, { requests }) });
    }
    expect(model.rejected).toEqual([]);
    const bodies = model.requests.map((request) => request.body);
    expect(bodies).toHaveLength(4);
    const errors = answersOf(bodies[2]);
    expect(errors.map((answer) => answer.name)).toEqual([
      'artifact_read',
      'artifact_grep',
      'artifact_read',
      'produce_log',
      'no_such_tool',
    ]);
    expect(errors.map((answer) => Object.keys(answer.response))).toEqual(Array(5).fill(['error']));
    expect(errors.every((answer) => answer.id === undefined)).toBe(true);
    const texts = errors.map(textOf);
    expect(texts[0]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*\blast\b/);
    expect(texts[1]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*callId[\s\S]*"fc_1_0"/);
    expect(texts[2]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*start/);
    expect(texts[3]).toMatch(/E_INVALID_TOOL_ARGS[\s\S]*lines/);
    expect(texts[4]).toMatch(/E_UNKNOWN_TOOL[\s\S]*no_such_tool/);
    const [recovered] = answersOf(bodies[3]);
    expect(recovered?.response.error).toBeUndefined();
    expect(textOf(recovered)).toMatch(/^1:INFO GET[\s\S]*^2:INFO GET/m);
  });

  const mediaTools = [
    defineTool({
      name: 'take_screenshot',
      description: 'A screenshot of the failing page.',
      inputSchema: z.object({}),
      handler: () => new Media(png, { mediaType: 'image/png', name: 'checkout.png' }),
    }),
    defineTool({
      name: 'export_report',
      description: 'The incident report as a PDF.',
      inputSchema: z.object({}),
      handler: () => new Media(pdf, { mediaType: 'application/pdf', name: 'incident.pdf' }),
    }),
    defineTool({
      name: 'record_alarm',
      description: 'The alarm sound.',
      inputSchema: z.object({}),
      handler: () => new Media(new Uint8Array(64), { mediaType: 'audio/wav', name: 'alarm.wav' }),
    }),
  ];
  const askForMedia = (turn: ScriptedTurn): ScriptedReply =>
    turn.index === 0
      ? { toolCalls: mediaTools.map((tool) => ({ name: tool.name, arguments: {} })) }
      : { text: 'I see a blank page.' };
  const pngBase64Sent = Buffer.from(png).toString('base64');
  const pdfBase64Sent = Buffer.from(pdf).toString('base64');

  it('sends images and PDFs as inlineData inside the functionResponse (multimodal function responses), never base64 in text', async () => {
    const { model, ai } = await start(askForMedia, { callIds: true });
    await using agent = new GoogleToolSession({ tools: mediaTools });
    await converseGoogle(agent, ai, 'What does the page show?');
    expect(model.rejected).toEqual([]);
    const body = model.requests[1]?.body;
    const [image, document, audio] = answersOf(body);
    expect(image?.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: pngBase64Sent } }]);
    expect(document?.parts).toEqual([
      { inlineData: { mimeType: 'application/pdf', data: pdfBase64Sent } },
    ]);
    expect(audio?.parts).toBeUndefined();
    expect(audio?.response.output).toContain(
      '[audio/wav "alarm.wav" (64 B) not attached: it is not a type Gemini takes inline]',
    );
    expect(image?.response.output).toMatch(/^take_screenshot returned image\/png "checkout.png"/);
    expect(lastPartsOf(body)).toHaveLength(3);
    // Each payload is in the request exactly once: in its inlineData.
    const sent = JSON.stringify(body);
    expect(sent.split(pngBase64Sent)).toHaveLength(2);
    expect(sent.split(pdfBase64Sent)).toHaveLength(2);
  });

  it("with media: 'content', sends them as inlineData parts after the function responses", async () => {
    const { model, ai } = await start(askForMedia);
    await using agent = new GoogleToolSession({ tools: mediaTools, media: 'content' });
    await converseGoogle(agent, ai, 'What does the page show?');
    expect(model.rejected).toEqual([]);
    const parts = lastPartsOf(model.requests[1]?.body);
    expect(parts.slice(0, 3).map((part) => part.functionResponse?.name)).toEqual(
      mediaTools.map((tool) => tool.name),
    );
    expect(parts.slice(0, 3).every((part) => part.functionResponse?.parts === undefined)).toBe(
      true,
    );
    expect(parts.slice(3)).toEqual([
      { inlineData: { mimeType: 'image/png', data: pngBase64Sent } },
      { inlineData: { mimeType: 'application/pdf', data: pdfBase64Sent } },
    ]);
  });

  it("declares an MCP server's tools (mcpTools) and spools, queries and shows their results", async () => {
    const mcp = await connectInMemoryTestServer();
    try {
      const tools = await mcpTools(mcp);
      const { model, ai } = await start((turn) => {
        const [callId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
        if (turn.index === 0) {
          return {
            toolCalls: [
              { name: 'big_text', arguments: { megabytes: 2 } },
              { name: 'image', arguments: {} },
              { name: 'fail', arguments: { reason: 'no disk' } },
            ],
          };
        }
        if (turn.index === 1) {
          return {
            toolCalls: [
              { name: 'artifact_grep', arguments: { callId, pattern: 'NEEDLE', fixed: true } },
            ],
          };
        }
        return { text: turn.results.at(-1)?.text ?? '' };
      });
      await using agent = new GoogleToolSession({ tools });
      const { response } = await converseGoogle(agent, ai, 'Find the needle.');
      expect(model.rejected).toEqual([]);
      const declarations = declarationsOf(model.requests[0]?.body);
      expect(declarations.find((tool) => tool.name === 'big_text')?.parameters).toMatchObject({
        type: 'OBJECT',
        properties: { megabytes: { type: 'INTEGER', minimum: 1 } },
        required: ['megabytes'],
      });
      expect(declarations.find((tool) => tool.name === 'image')?.parameters).toBeUndefined();
      const [big, image, failed] = answersOf(model.requests[1]?.body);
      expect(textOf(big)).toContain('fc_1_0');
      expect(image?.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: pngBase64 } }]);
      expect(failed?.response.error).toMatch(/E_TOOL_FAILED[\s\S]*cannot: no disk/);
      expect(response.text).toMatch(new RegExp(`^\\d+:${needle}`));
    } finally {
      await mcp.close();
    }
  });
});
