import OpenAI from 'openai';
import { defineTool, type Tool } from 'spoolforge';
import { OpenAIToolSession } from 'spoolforge/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAIChatWire } from '../../examples/support/openai-chat-wire.js';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import {
  callIdsOf,
  type OfferedTool,
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  startScriptedModel,
  type WireFormat,
} from '../../examples/support/scripted-model.js';
import {
  converseChatCompletions,
  converseResponses,
  type LoopTurn,
} from '../helpers/provider-loops.js';

// A 20 MiB build log, streamed in 1 MiB string chunks: every 10th line a warning, one error last.
const chunk = Array.from({ length: 16_384 }, (_, line) =>
  line % 10 === 9
    ? `WARN deprecated API in module-${line}.ts\n`
    : `compiling module-${line}.ts … ok ${'.'.repeat(20)}\n`,
).join('');
const errorLine = "ERROR linker: undefined reference to 'spool_open'";
const produceLog = defineTool({
  name: 'produce_log',
  description: 'Runs the build and returns its full log.',
  inputSchema: z.object({}),
  handler: async function* () {
    for (let written = 0; written < 20 * 1024 * 1024; written += chunk.length) yield chunk;
    yield `${errorLine}\n`;
  },
});

/** What a strict-mode model sends: every property, `null` for those it leaves out. */
function strictArguments(tool: OfferedTool | undefined, given: Record<string, unknown>) {
  const properties = Object.keys((tool?.parameters.properties as object | undefined) ?? {});
  return { ...Object.fromEntries(properties.map((name) => [name, null])), ...given };
}
const toolNamed = (turn: ScriptedTurn, name: string) =>
  turn.tools.find((tool) => tool.name === name);

/** One OpenAI API as the spec drives it: the wire, a conversation, and how a body shows tools. */
interface Api {
  name: string;
  wire: WireFormat;
  converse(client: OpenAI, loop: OpenAIToolSession): Promise<{ answer: string; turns: LoopTurn[] }>;
  offeredTools(
    body: Record<string, unknown>,
  ): { name: string; strict?: unknown; parameters: Record<string, unknown> }[];
}
const maxTurns = 8;

const chatCompletions: Api = {
  name: 'Chat Completions',
  wire: openAIChatWire,
  converse: (client, loop) => converseChatCompletions(client, loop, 'Why did it fail?', maxTurns),
  offeredTools: (body) =>
    (body.tools as { function: ReturnType<Api['offeredTools']>[number] }[]).map(
      (tool) => tool.function,
    ),
};

const responses: Api = {
  name: 'Responses',
  wire: openAIResponsesWire,
  converse: (client, loop) => converseResponses(client, loop, 'Why did it fail?', maxTurns),
  offeredTools: (body) => body.tools as ReturnType<Api['offeredTools']>,
};

let model: ScriptedModel | undefined;
let loop: OpenAIToolSession | undefined;
afterEach(async () => {
  await loop?.close();
  await model?.close();
});

async function start(api: Api, script: (turn: ScriptedTurn) => ScriptedReply, tools: Tool[]) {
  model = await startScriptedModel({ wires: [rawArgumentsWire(api.wire)], script });
  loop = new OpenAIToolSession({ tools });
  const client = new OpenAI({ apiKey: 'test', baseURL: `${model.url}/v1`, maxRetries: 0 });
  return { model, ...(await api.converse(client, loop)) };
}
const resultsOf = (api: Api, requests: ScriptedModel['requests'], index: number) =>
  api.wire.parse(requests[index]?.body ?? {}).results;

for (const api of [chatCompletions, responses]) {
  describe(`spoolforge/openai with the real client: ${api.name}`, () => {
    it('spools a 20 MiB log into a handle, forges artifact tools, breaks recursion, prunes on ack', async () => {
      const { model, answer, turns } = await start(
        api,
        (turn) => {
          const grep = toolNamed(turn, 'artifact_grep');
          const [logCallId] = callIdsOf(grep);
          const call = (arguments_: Record<string, unknown>) => ({
            toolCalls: [{ name: 'artifact_grep', arguments: strictArguments(grep, arguments_) }],
          });
          if (turn.results.length === 0)
            return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
          if (turn.results.length === 1) return call({ callId: logCallId, pattern: 'WARN' });
          // The grep's own call id: an artifact tool's call is never offered (recursion break).
          if (turn.results.length === 2)
            return call({ callId: turn.results[1]?.callId, pattern: 'WARN' });
          if (turn.results.length === 3) return call({ callId: logCallId, pattern: '^ERROR' });
          return { text: `Found: ${turn.results.at(-1)?.text.split('\n')[0]}` };
        },
        [produceLog],
      );
      const bodies = model.requests.map((request) => request.body);
      expect(bodies).toHaveLength(5);
      expect(api.offeredTools(bodies[0] ?? {}).map((tool) => tool.name)).toEqual(['produce_log']);

      // The log stayed out: the request after the call carries a handle of a few hundred bytes.
      const [handle] = resultsOf(api, model.requests, 1);
      const logCallId = handle?.callId ?? '';
      expect(Buffer.byteLength(handle?.text ?? '')).toBeLessThan(2_000);
      expect(handle?.text).toContain(logCallId);
      expect(handle?.text).toContain('artifact_grep');
      expect(JSON.stringify(bodies[1]).length).toBeLessThan(30_000);

      // Forged tools: strict schemas, callId enum = the spooled call only, never the grep's own.
      for (const body of bodies.slice(1)) {
        const offered = api.offeredTools(body);
        expect(offered.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(['produce_log', 'artifact_grep', 'artifact_read']),
        );
        for (const tool of offered) {
          expect(tool.strict).toBe(true);
          expect(tool.parameters.type).toBe('object');
          expectStrictSchema(tool.parameters);
          expect(JSON.stringify(tool.parameters)).not.toContain('{"not":{}}');
        }
        const grep = offered.find((tool) => tool.name === 'artifact_grep');
        expect(callIdsOf(grep)).toEqual([logCallId]);
      }

      // A bounded, numbered answer, cut at 50 KiB with the call that continues it.
      const grepResult = resultsOf(api, model.requests, 2)[1];
      expect(grepResult?.isError).toBe(false);
      expect(Buffer.byteLength(grepResult?.text ?? '')).toBeLessThanOrEqual(50 * 1024);
      expect(grepResult?.text).toMatch(/^10:WARN deprecated API in module-9\.ts$/m);
      expect(grepResult?.text.match(/^\d+:WARN/gm)?.length).toBeGreaterThan(500);
      expect(grepResult?.text).toContain('Continue with artifact_grep');

      // Querying the grep's own call id is an error the model reads; the loop goes on.
      const [, grepCall, recursion, lastGrep] = resultsOf(api, model.requests, 4);
      expect(recursion?.isError).toBe(true);
      expect(recursion?.text).toContain('E_INVALID_TOOL_ARGS');
      expect(grepCall?.callId).not.toBe(logCallId);
      expect(recursion?.text).toContain(`callId must be one of "${logCallId}":`);
      expect(lastGrep?.text).toMatch(new RegExp(`^\\d+:${errorLine}$`, 'm'));
      expect(answer).toMatch(/^Found: \d+:ERROR linker/);

      // Every dispatch offered the forged tools it had; ack pruned them from its registry.
      expect(turns[1]?.offered).toContain('artifact_grep');
      for (const { dispatch } of turns) {
        expect(dispatch.state).toBe('acked');
        expect(dispatch.tools?.list().map((tool) => tool.name)).toEqual(['produce_log']);
      }
    });

    it('answers malformed JSON and a negative last with error results, and keeps going', async () => {
      const { model, answer } = await start(
        api,
        (turn) => {
          const read = toolNamed(turn, 'artifact_read');
          const [callId] = callIdsOf(read);
          if (turn.results.length === 0)
            return { toolCalls: [{ name: 'produce_log', arguments: {} }] };
          if (turn.results.length === 1) {
            return {
              toolCalls: [
                {
                  name: 'artifact_read',
                  arguments: { [rawArguments]: `{"callId":"${callId}", end: 3` },
                },
                { name: 'artifact_read', arguments: strictArguments(read, { callId, last: -5 }) },
                { name: 'artifact_read', arguments: strictArguments(read, { callId, end: 2 }) },
              ],
            };
          }
          return { text: `errors: ${turn.results.filter((result) => result.isError).length}` };
        },
        [produceLog],
      );
      const [, malformed, negative, valid] = resultsOf(api, model.requests, 2);
      expect(malformed?.isError).toBe(true);
      expect(malformed?.text).toMatch(/E_INVALID_TOOL_ARGS.*not valid JSON/);
      expect(negative?.isError).toBe(true);
      expect(negative?.text).toContain('E_INVALID_TOOL_ARGS');
      expect(negative?.text).toMatch(/\blast\b/);
      expect(valid?.text).toMatch(/^1:compiling module-0\.ts/m);
      expect(answer).toBe('errors: 2');
    });
  });
}

/** The scripted replies serialise `arguments`; this key lets a script send raw, broken JSON. */
const rawArguments = '__rawArguments';
function rawArgumentsWire(wire: WireFormat): WireFormat {
  const substitute = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(substitute);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, substitute(item)]),
      );
    if (typeof value === 'string' && value.startsWith(`{"${rawArguments}":`))
      return (JSON.parse(value) as Record<string, string>)[rawArguments];
    return value;
  };
  return { ...wire, format: (reply, index, body) => substitute(wire.format(reply, index, body)) };
}

/** OpenAI strict mode: every object schema, at any depth, requires all its properties, no others. */
function expectStrictSchema(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) expectStrictSchema(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.type === 'object' || schema.properties) {
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys((schema.properties as object | undefined) ?? {}));
  }
  for (const value of Object.values(schema)) expectStrictSchema(value);
}
