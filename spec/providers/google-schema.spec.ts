import { type Content, GoogleGenAI } from '@google/genai';
import { defineTool, SpooledArtifact, SpoolforgeError, ToolSession } from 'spoolforge';
import {
  GoogleToolSession,
  toGeminiFunctionResponses,
  toGeminiSchema,
  toGeminiTools,
  usageOfGeminiResponse,
} from 'spoolforge/google';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geminiWire } from '../../examples/support/gemini-wire.js';
import { type ScriptedModel, startScriptedModel } from '../../examples/support/scripted-model.js';
import { toJsonSchema } from '../../src/providers/json-schema.js';
import { produceLog } from '../helpers/service-log.js';

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** A client against a scripted model that calls each offered tool once, then answers. */
async function start(options: { callIds?: boolean } = {}) {
  model = await startScriptedModel({
    wires: [geminiWire(options)],
    script: (turn) =>
      turn.results.length === 0
        ? { toolCalls: [{ name: 'produce_log', arguments: { lines: 100 } }] }
        : { text: 'done' },
  });
  return { model, ai: new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: model.url } }) };
}

/** What `ai.models.generateContent` rejected with: the API error's status and message. */
async function rejection(request: Promise<unknown>) {
  const error = await request.then(
    () => undefined,
    (caught: unknown) => caught as { status?: number; message?: string },
  );
  return { status: error?.status, message: error?.message ?? '' };
}

const user: Content = { role: 'user', parts: [{ text: 'hi' }] };

describe('toGeminiSchema: JSON Schema into the OpenAPI subset of Gemini parameters', () => {
  it('translates what has an equivalent and leaves out what the dialect refuses', () => {
    const schema = toGeminiSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Query',
      additionalProperties: false,
      properties: {
        level: { const: 'error', description: 'Only errors.' },
        code: { const: 502 },
        limit: { type: ['integer', 'null'], exclusiveMinimum: 0, default: 10 },
        ratio: { type: 'number', exclusiveMaximum: 1, multipleOf: 0.1 },
        id: {
          oneOf: [
            { type: 'string', format: 'uuid' },
            { type: 'integer', format: 'int64' },
          ],
        },
        since: { type: 'string', format: 'date-time', minLength: 1 },
        email: { type: 'string', format: 'email', pattern: '^\\S+@\\S+$' },
        status: { enum: ['open', 'closed', null] },
        priority: { type: 'integer', enum: [1, 2, 3] },
        either: { type: ['string', 'boolean'] },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        anything: { type: 'array', description: 'Free-form.' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5, uniqueItems: true },
        not: { not: { type: 'string' } },
        mixed: { anyOf: [{ type: 'string' }, { type: 'integer' }], enum: ['a', 1] },
        pick: { anyOf: [{ type: 'string' }, { type: 'integer' }], enum: ['a', 'b'] },
      },
      required: ['level', 'ghost'],
    });
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: {
        level: { description: 'Only errors.', type: 'STRING', enum: ['error'] },
        code: {},
        limit: { nullable: true, type: 'INTEGER', minimum: 1 },
        ratio: { type: 'NUMBER' },
        id: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER', format: 'int64' }] },
        since: { type: 'STRING', format: 'date-time', minLength: '1' },
        email: { type: 'STRING', pattern: '^\\S+@\\S+$' },
        status: { nullable: true, type: 'STRING', enum: ['open', 'closed'] },
        priority: { type: 'INTEGER' },
        either: { anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }] },
        labels: {},
        anything: { description: 'Free-form.' },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: '5' },
        not: {},
        mixed: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
        pick: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
      },
      required: ['level'],
    });
  });

  it('inlines local $refs, cuts a recursive one where it closes, and reads anyOf with null as nullable', () => {
    const node = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    };
    const schema = toGeminiSchema({
      type: 'object',
      properties: {
        owner: { $ref: '#/$defs/person', description: 'Who owns it.' },
        backup: { anyOf: [{ $ref: '#/definitions/legacy' }, { type: 'null' }] },
        root: { $ref: '#/$defs/node' },
        missing: { $ref: '#/$defs/nowhere', description: 'Kept as any value.' },
      },
      $defs: {
        person: { type: 'object', properties: { email: { type: 'string' } } },
        node: {
          ...node,
          properties: {
            ...node.properties,
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      definitions: { legacy: { type: 'string', description: 'Old id.' } },
    });
    expect(schema.properties?.owner).toEqual({
      description: 'Who owns it.',
      type: 'OBJECT',
      properties: { email: { type: 'STRING' } },
    });
    expect(schema.properties?.backup).toEqual({
      nullable: true,
      description: 'Old id.',
      type: 'STRING',
    });
    expect(schema.properties?.root).toEqual({
      type: 'OBJECT',
      properties: { name: { type: 'STRING' }, children: { type: 'ARRAY', items: {} } },
      required: ['name'],
    });
    expect(schema.properties?.missing).toEqual({ description: 'Kept as any value.' });
  });
});

describe('Gemini tool declarations through the real @google/genai client', () => {
  const awkward = defineTool({
    name: 'awkward',
    description: 'Every zod shape the OpenAPI subset has no word for.',
    inputSchema: z.object({
      level: z.literal('error'),
      when: z.iso.datetime(),
      email: z.email().optional(),
      count: z.number().int().positive(),
      id: z.union([z.string(), z.number()]),
      labels: z.record(z.string(), z.string()).optional(),
      items: z.array(z.unknown()).optional(),
      mode: z.enum(['fast', 'full']).nullable(),
      nested: z.strictObject({ deep: z.string() }).optional(),
      tree: z
        .lazy((): z.ZodType => z.object({ name: z.string(), children: z.array(z.any()) }))
        .optional(),
    }),
    handler: () => 'ok',
  });

  it('the wire refuses a zod tool sent as raw JSON Schema in `parameters`, as the API does', async () => {
    const { ai } = await start();
    const raw = toJsonSchema(awkward.inputSchema);
    const refused = await rejection(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [user],
        config: { tools: [{ functionDeclarations: [{ name: 'awkward', parameters: raw }] }] },
      }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.message)).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringMatching(
          /Unknown name "const"|should be non-empty|only 'enum' and 'date-time'/,
        ),
      },
    });
  });

  it('declares the same tool, converted, and the request is accepted', async () => {
    const { model, ai } = await start();
    await using agent = new GoogleToolSession({ tools: [produceLog, awkward] });
    const dispatch = agent.dispatch();
    await dispatch.track(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [user],
        config: { tools: dispatch.tools },
      }),
    );
    expect(model.rejected).toEqual([]);
    const tools = model.requests[0]?.body.tools as {
      functionDeclarations: { parameters?: { properties?: Record<string, unknown> } }[];
    }[];
    const declared = tools[0]?.functionDeclarations[1]?.parameters?.properties ?? {};
    expect(declared).toMatchObject({
      level: { type: 'STRING', enum: ['error'] },
      when: { type: 'STRING', format: 'date-time' },
      count: { type: 'INTEGER', minimum: 1 },
      id: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      labels: {},
      mode: { type: 'STRING', nullable: true, enum: ['fast', 'full'] },
      nested: { type: 'OBJECT', properties: { deep: { type: 'STRING' } }, required: ['deep'] },
    });
  });

  it("with schema: 'json-schema', sends parametersJsonSchema as JSON Schema, and none for a tool without arguments", async () => {
    const { model, ai } = await start();
    const listAll = defineTool({
      name: 'list_all',
      description: 'Lists.',
      inputSchema: z.object({}),
      handler: () => 'x',
    });
    await using agent = new GoogleToolSession({ tools: [awkward, listAll], schema: 'json-schema' });
    const dispatch = agent.dispatch();
    await dispatch.track(
      ai.models.generateContent({
        model: 'gemini-3-pro',
        contents: [user],
        config: { tools: dispatch.tools },
      }),
    );
    expect(model.rejected).toEqual([]);
    expect(model.requests[0]?.body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'awkward',
            description: awkward.description,
            parametersJsonSchema: toJsonSchema(awkward.inputSchema),
          },
          { name: 'list_all', description: 'Lists.' },
        ],
      },
    ]);
  });

  it('refuses a tool whose input is not an object schema, naming it', () => {
    const scalar = defineTool({
      name: 'scalar',
      description: 'x',
      inputSchema: z.string(),
      handler: () => 'x',
    });
    expect(() => toGeminiTools([scalar])).toThrow(SpoolforgeError);
    expect(() => toGeminiTools([scalar])).toThrow(
      /Tool 'scalar': Gemini needs an object input schema/,
    );
    expect(toGeminiTools([])).toEqual([]);
  });

  it('refuses a tool name the API refuses, naming it, and keeps dots, colons and dashes', () => {
    const named = (name: string) =>
      defineTool({ name, description: 'x', inputSchema: z.object({}), handler: () => 'x' });
    for (const name of ['fetch log', '1st_tool', 'café', 'x'.repeat(65), '']) {
      expect(() => toGeminiTools([named(name)])).toThrow(
        expect.objectContaining({
          code: 'E_INVALID_ARGUMENT',
          message: expect.stringContaining(`'${name}'`),
        }),
      );
    }
    const accepted = ['mcp.server:read-file', '_private', 'x'.repeat(64)];
    expect(
      toGeminiTools(accepted.map(named))[0]?.functionDeclarations?.map((tool) => tool.name),
    ).toEqual(accepted);
  });
});

describe('Gemini options from untyped callers', () => {
  it('refuses a schema dialect or media placement it does not know, rather than dropping media', () => {
    const invalid = expect.objectContaining({ code: 'E_INVALID_ARGUMENT' });
    const media = 'inline' as 'content';
    const schema = 'openapi3' as 'openapi';
    expect(() => new GoogleToolSession({ media })).toThrow(invalid);
    expect(() => new GoogleToolSession({ schema })).toThrow(invalid);
    expect(() => toGeminiFunctionResponses([], { media })).toThrow(/media must be .* got "inline"/);
    expect(() => toGeminiTools([], { schema })).toThrow(/schema must be .* got "openapi3"/);
  });
});

describe('what the Gemini wire refuses in contents, as the API does', () => {
  const call = { role: 'model', parts: [{ functionCall: { name: 'produce_log', args: {} } }] };
  const answer = {
    role: 'user',
    parts: [{ functionResponse: { name: 'produce_log', response: { output: 'x' } } }],
  };

  it('a function response without the function call turn before it', async () => {
    const { ai } = await start();
    const refused = await rejection(
      ai.models.generateContent({ model: 'gemini-2.5-flash', contents: [user, answer] }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain(
      'function response turn comes immediately after a function call turn',
    );
  });

  it('fewer function responses than calls, and a response that is not an object', async () => {
    const { ai } = await start();
    const twoCalls = { role: 'model', parts: [...call.parts, ...call.parts] };
    const short = await rejection(
      ai.models.generateContent({ model: 'gemini-2.5-flash', contents: [user, twoCalls, answer] }),
    );
    expect(short.message).toContain(
      'number of function response parts is equal to the number of function call parts',
    );
    const text = {
      role: 'user',
      parts: [{ functionResponse: { name: 'produce_log', response: 'x' as never } }],
    };
    const notObject = await rejection(
      ai.models.generateContent({ model: 'gemini-2.5-flash', contents: [user, call, text] }),
    );
    expect(notObject.message).toContain('(type.googleapis.com/google.protobuf.Struct)');
  });

  it('Gemini 3: a function call turn sent back without its thought signature', async () => {
    const { ai } = await start({ callIds: true });
    const first = await ai.models.generateContent({ model: 'gemini-3-pro', contents: [user] });
    const content = first.candidates?.[0]?.content ?? {};
    const [part] = content.parts ?? [];
    expect(part?.thoughtSignature).toBeDefined();
    const respond = {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: part?.functionCall?.id ?? '',
            name: 'produce_log',
            response: { output: 'x' },
          },
        },
      ],
    };
    const stripped = { role: 'model', parts: [{ functionCall: part?.functionCall ?? {} }] };
    const refused = await rejection(
      ai.models.generateContent({ model: 'gemini-3-pro', contents: [user, stripped, respond] }),
    );
    expect(refused.message).toContain('Function call is missing a thought_signature');
    await ai.models.generateContent({ model: 'gemini-3-pro', contents: [user, content, respond] });
  });
});

describe('GoogleToolSession sessions', () => {
  it('closes only a session it made, and adapters sharing one never repeat a made call id', async () => {
    const { ai } = await start();
    await using session = new ToolSession({ tools: [produceLog] });
    const first = new GoogleToolSession({ session });
    const second = new GoogleToolSession({ session });
    for (const agent of [first, second]) {
      const dispatch = agent.dispatch();
      const response = await dispatch.track(
        ai.models.generateContent({
          model: 'gemini-2.5-flash',
          contents: [user],
          config: { tools: dispatch.tools },
        }),
      );
      await dispatch.run(response);
      await agent.close();
    }
    expect(session.toolCalls.map((call) => call.id)).toEqual(['fc_1_0', 'fc_2_0']);
    // Closing the adapters left the session's spooled outputs readable.
    for (const call of session.toolCalls) {
      expect(call.results).toBeInstanceOf(SpooledArtifact);
      expect(await (call.results as SpooledArtifact).head(1)).toHaveLength(1);
    }
  });
});

describe('usageOfGeminiResponse', () => {
  it('counts the prompt (cached content included) as input, candidates and thoughts as output', () => {
    const usageMetadata = {
      promptTokenCount: 1_200,
      cachedContentTokenCount: 1_000,
      candidatesTokenCount: 30,
      thoughtsTokenCount: 70,
    };
    expect(usageOfGeminiResponse({ usageMetadata })).toEqual({
      inputTokens: 1_200,
      outputTokens: 100,
      totalTokens: 1_300,
    });
    expect(usageOfGeminiResponse({})).toEqual({});
  });
});
