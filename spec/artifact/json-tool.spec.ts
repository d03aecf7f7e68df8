import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  DispatchContext,
  defaultArtifactKinds,
  defineTool,
  type SpooledJsonArtifact,
  ToolCall,
  ToolSession,
} from 'spoolforge';
import { artifactJson, forgeArtifactTools } from 'spoolforge/engine';
import { toChatCompletionsTools } from 'spoolforge/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeOnArtifact } from '../helpers/forged-tools.js';
import { failure } from '../helpers/http-reader.js';
import { jsonArtifact } from '../helpers/json-artifacts.js';

const rows = Array.from({ length: 6 }, (_, id) => ({
  id,
  status: id % 3 ? 200 : 500,
  user: { name: `u${id}` },
  ...(id === 4 ? { tags: ['x'] } : {}),
}));

/** `value` as JSON, spooled in memory. */
const valueArtifact = (value: unknown) =>
  jsonArtifact(JSON.stringify(value), { memoryThreshold: 4 << 20 });

/** `artifact_json` as forged for the spooled call `call_json`, with a small result budget. */
async function askWith(artifact: SpooledJsonArtifact, input: Record<string, unknown>) {
  const limits = { maxResultBytes: 1_200 };
  return (await invokeOnArtifact(artifact, 'artifact_json', input, { limits })).trimEnd();
}

/** The ops, in the order the definition lists them. */
const jsonOps = {
  shape: 0,
  type: 0,
  keys: 0,
  length: 0,
  get: 0,
  filter: 0,
  pluck: 0,
  slice: 0,
  set: 0,
  insert: 0,
  delete: 0,
  extract: 0,
};

describe('artifact_json: each op through the forged tool', () => {
  it('shape, type, keys and length describe what is at a path', async () => {
    const artifact = await valueArtifact(rows);
    const ask = (input: Record<string, unknown>) => askWith(artifact, input);
    const shape = await ask({ op: 'shape', path: '$[*].user' });
    expect(shape.split('\n')).toEqual([
      expect.stringMatching(/^\$\[\*\]\.user: 6 values; 6 values scanned in [\d.]+ s\.$/),
      '$[*].user: object 6',
      '$[*].user.name: string 6 (in 100% of parents); e.g. "u0"',
    ]);
    expect(await ask({ op: 'type', path: '$[0].user' })).toBe("$[0]['user']: object (1 keys)");
    expect(await ask({ op: 'type' })).toBe('$: array (6 elements)');
    expect(await ask({ op: 'keys' })).toBe(
      [
        '$[*]: 6 objects, 4 distinct keys (key: types, objects that have it)',
        '"id": number, 6',
        '"status": number, 6',
        '"user": object, 6',
        '"tags": array, 1',
      ].join('\n'),
    );
    expect(await ask({ op: 'length', path: '$[4].tags' })).toBe("$[4]['tags']: 1 element");
    expect(await ask({ op: 'length', path: '$[0].user.name' })).toBe(
      "$[0]['user']['name']: 2 characters",
    );
  });

  it('get, filter, pluck and slice show values as `path = JSON` lines', async () => {
    const artifact = await valueArtifact(rows);
    const ask = (input: Record<string, unknown>) => askWith(artifact, input);
    expect(await ask({ op: 'get', path: '$[4].tags' })).toBe(`$[4]['tags'] = ["x"]\n1 match.`);
    expect(await ask({ op: 'filter', path: '@.status == 500' })).toBe(
      [
        '$[0] = {"id":0,"status":500,"user":{"name":"u0"}}',
        '$[3] = {"id":3,"status":500,"user":{"name":"u3"}}',
        '2 matches in all, 2 shown.',
      ].join('\n'),
    );
    // A full path filters as the condition does.
    expect(await ask({ op: 'filter', path: '$[?(@.status == 500)].id' })).toBe(
      "$[0]['id'] = 0\n$[3]['id'] = 3\n2 matches in all, 2 shown.",
    );
    const plucked = await ask({ op: 'pluck', path: 'user.name' });
    expect(plucked.split('\n')).toEqual([
      ...rows.map(({ id }) => `$[${id}]['user']['name'] = "u${id}"`),
      '6 matches.',
    ]);
    expect(await ask({ op: 'slice', start: 1, end: 3 })).toBe(
      [
        '$: array (6 elements)',
        '$[1] = {"id":1,"status":200,"user":{"name":"u1"}}',
        '$[2] = {"id":2,"status":200,"user":{"name":"u2"}}',
      ].join('\n'),
    );
    expect(await ask({ op: 'slice', path: '$[4].user' })).toBe(
      `$[4]['user']: object (1 keys)\n$[4]['user']['name'] = "u4"`,
    );
  });
});

describe('artifact_json: continuations name the artifact_json call that goes on', () => {
  it('a cut scan names op, path and startIndex; the call it names continues it', async () => {
    const artifact = await valueArtifact(rows);
    const ask = (input: Record<string, unknown>) => askWith(artifact, input);
    const first = await ask({ op: 'get', path: '$[*]' });
    expect(first.split('\n').at(-1)).toBe(
      '[cut at 1.2 KiB before entry 3; continue with artifact_json {"callId":"call_json","op":"get","path":"$[*]","startIndex":3}]',
    );
    expect(await ask({ op: 'get', path: '$[*]', startIndex: 3 })).toMatch(/^\$\[3\] = \{"id":3,/);
    const filtered = await ask({ op: 'filter', path: '@.id >= 0' });
    expect(filtered).toContain('6 matches in all, 3 shown.');
    expect(filtered).toContain(
      'continue with artifact_json {"callId":"call_json","op":"filter","path":"@.id >= 0","startIndex":3}]',
    );
    const wide = await valueArtifact(rows.map((row) => ({ ...row, pad: 'p'.repeat(300) })));
    const plucked = await askWith(wide, { op: 'pluck', path: 'pad' });
    expect(plucked).toMatch(
      /continue with artifact_json \{"callId":"call_json","op":"pluck","path":"pad","startIndex":\d\}\]$/,
    );
  });

  it('a cut slice, and a value cut to fit a line, name op "slice" with the next start', async () => {
    const artifact = await valueArtifact(rows);
    const sliced = await askWith(artifact, { op: 'slice' });
    expect(sliced.split('\n').at(-1)).toBe(
      '[cut: continue with artifact_json {"callId":"call_json","op":"slice","path":"$","start":3}]',
    );
    const long = await valueArtifact({ items: Array.from({ length: 500 }, (_, index) => index) });
    const input = { op: 'get', path: '$.items' };
    const value = await invokeOnArtifact(long, 'artifact_json', input, {
      limits: { maxLineChars: 100 },
    });
    const note =
      /continue with artifact_json (\{"callId":"call_json","op":"slice","path":"\$\['items'\]","start":(\d+)\})\]/;
    const [, call, start] = note.exec(value) ?? [];
    expect(value).toContain(`,${Number(start) - 1},…] [cut: array (500 elements)`);
    const next = await askWith(long, JSON.parse(String(call)));
    expect(next.split('\n')[1]).toBe(`$['items'][${start}] = ${start}`);
  });

  it('a tool that runs it under another name spells the continuation its own way', async () => {
    const artifact = await valueArtifact(rows);
    const text = await artifactJson.run(
      artifact,
      { op: 'slice', path: null, start: null, end: null, startIndex: null } as never,
      {
        callId: 'ref_1',
        limits: { maxResultBytes: 1_200 },
        signal: new AbortController().signal,
        continuation: (name, args) => `${name}!${JSON.stringify(args)}`,
      },
    );
    expect(text).toContain(
      'continue with artifact_json!{"callId":"ref_1","op":"slice","path":"$","start":3}',
    );
  });
});

describe('artifact_json: arguments', () => {
  it('names the arguments an op reads when it gets another, and asks for a missing path', async () => {
    const artifact = await valueArtifact(rows);
    const cases: [Record<string, unknown>, string][] = [
      [{ op: 'shape', startIndex: 3 }, 'artifact_json op "shape" takes path, not startIndex'],
      [
        { op: 'slice', startIndex: 3 },
        'artifact_json op "slice" takes path, start, end, not startIndex',
      ],
      [
        { op: 'get', path: '$', start: 1, end: 2 },
        'artifact_json op "get" takes path, startIndex, not start, end',
      ],
      [{ op: 'keys', end: 2 }, 'artifact_json op "keys" takes path, startIndex, not end'],
      [{ op: 'get' }, 'artifact_json op "get" needs a path'],
      [{ op: 'filter', path: null }, 'artifact_json op "filter" needs a path'],
      [{ op: 'pluck' }, 'artifact_json op "pluck" needs a path'],
      [{ op: 'slice', start: 3, end: 1 }, 'end (1) is before start (3)'],
    ];
    for (const [input, message] of cases) {
      const error = await failure(askWith(artifact, input), 'E_INVALID_TOOL_ARGS');
      expect(error.message).toBe(message);
    }
  });

  it('comes back to the model as a readable error: a stray argument, an unknown op', async () => {
    const listRows = defineTool({
      name: 'list_rows',
      description: 'Lists rows.',
      inputSchema: z.object({}),
      handler: () => Array.from({ length: 2_000 }, (_, id) => ({ id })),
    });
    await using session = new ToolSession({ tools: [listRows] });
    await session.run([{ id: 'call_1', name: 'list_rows', arguments: {} }], session.dispatch());
    const dispatch = session.dispatch();
    const outcomes = await session.run(
      [
        { id: 'q_1', name: 'artifact_json', arguments: { callId: 'call_1', op: 'count' } },
        {
          id: 'q_2',
          name: 'artifact_json',
          arguments: { callId: 'call_1', op: 'type', start: 5 },
        },
        { id: 'q_3', name: 'artifact_json', arguments: { callId: 'call_1', op: 'length' } },
      ],
      dispatch,
    );
    const texts = outcomes.map((outcome) =>
      outcome.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    );
    expect(outcomes.map((outcome) => outcome.isError)).toEqual([true, true, false]);
    expect(texts[0]).toContain(
      'op must be one of "shape", "type", "keys", "length", "get", "filter", "pluck", "slice"',
    );
    expect(texts[1]).toContain('artifact_json op "type" takes path, startIndex, not start');
    expect(texts[2]).toBe('$: array (2,000 elements)');
  });

  it('notes with no result name artifact_json ops, never an old tool name', async () => {
    const artifact = await valueArtifact(rows);
    expect(await askWith(artifact, { op: 'get', path: '$.nope' })).toBe(
      'No match for $.nope. artifact_json op "shape" shows the paths that exist.',
    );
    expect(await askWith(artifact, { op: 'type', path: '$[9]' })).toBe(
      'No match for $[9]. artifact_json op "shape" shows the paths that exist.',
    );
    expect(await askWith(artifact, { op: 'keys', path: '$[0].id' })).toBe(
      'No object at $[0].id: see artifact_json op "type".',
    );
  });
});

describe('artifact_json: its definition', () => {
  it('is one short strict function with the ops as an enum, within 280 o200k tokens but for the callId enum', async () => {
    const artifact = await valueArtifact(rows);
    const call = new ToolCall({ id: 'call_1', name: 'list_rows', arguments: {} });
    call.results = artifact;
    const forged = forgeArtifactTools(
      defaultArtifactKinds,
      new DispatchContext({ turnToolCalls: [call] }),
    );
    const json = toChatCompletionsTools(forged).filter((tool) =>
      tool.function.name.startsWith('artifact_json'),
    );
    expect(json.map((tool) => tool.function.name)).toEqual(['artifact_json']);
    const definition = structuredClone(json[0]?.function);
    const parameters = definition?.parameters as {
      properties: Record<string, { enum?: string[] }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(definition?.strict).toBe(true);
    expect(parameters.additionalProperties).toBe(false);
    expect(parameters.required).toEqual([
      'callId',
      'op',
      'path',
      'start',
      'end',
      'startIndex',
      'value',
      'name',
    ]);
    expect(parameters.properties.op?.enum).toEqual(Object.keys(jsonOps));
    expect(parameters.properties.callId?.enum).toEqual(['call_1']);
    // The enum grows with the outputs spooled; the rest is what this tool costs every request.
    delete parameters.properties.callId?.enum;
    expect(
      countTokens(JSON.stringify({ type: 'function', function: definition })),
    ).toBeLessThanOrEqual(280);
  });
});
