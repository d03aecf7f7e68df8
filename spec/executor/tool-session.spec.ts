import { randomBytes } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  baseToolMethods,
  defaultArtifactKinds,
  defineTool,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpoolforgeError,
  ToolSession,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

async function* hugeLog(lines: number, width = 80) {
  const batch: string[] = [];
  for (let line = 1; line <= lines; line++) {
    batch.push(`${line} ${line % 100_000 === 0 ? 'FATAL disk full' : 'INFO'} ${'x'.repeat(width)}`);
    if (batch.length === 10_000) yield `${batch.splice(0).join('\n')}\n`;
  }
  if (batch.length) yield `${batch.join('\n')}\n`;
}

const produceLog = defineTool({
  name: 'produce_log',
  description: 'Produces a big log.',
  inputSchema: z.object({ lines: z.number().int().min(1), width: z.number().int().optional() }),
  handler: ({ lines, width }) => hugeLog(lines, width),
});

const text = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content[0]?.text ?? '';

describe('ToolSession', () => {
  it('spools a 20 MB streamed result into a handle of at most ~300 o200k tokens', async () => {
    await using session = new ToolSession({ tools: [produceLog] });
    const dispatch = session.dispatch();
    dispatch.ack();
    const [outcome] = await session.run(
      [{ id: 'call_1', name: 'produce_log', arguments: { lines: 10_000, width: 2_000 } }],
      dispatch,
    );
    const handle = text(outcome ?? { content: [] });
    expect(outcome?.call.results).toBeInstanceOf(SpooledArtifact);
    expect(handle).toContain('call_1');
    expect(handle).toContain('10,000 lines');
    expect(handle).toContain('artifact_grep');
    expect(countTokens(handle)).toBeLessThanOrEqual(300);
  });

  it('keeps the handle within 300 tokens even for token-dense lines', async () => {
    const dense = defineTool({
      name: 'dense',
      description: '',
      inputSchema: z.object({}),
      // Random base64: about one token every two or three characters.
      handler: () =>
        Array.from({ length: 2_000 }, () => randomBytes(900).toString('base64')).join('\n'),
    });
    await using session = new ToolSession({ tools: [dense] });
    const [outcome] = await session.run(
      [{ id: 'call_d', name: 'dense', arguments: {} }],
      session.dispatch(),
    );
    const handle = text(outcome ?? { content: [] });
    expect(handle).toContain('call_d');
    expect(countTokens(handle)).toBeLessThanOrEqual(300);
  });

  it('keeps small results inline and shows plain values as JSON', async () => {
    const tools = [
      defineTool({
        name: 'small',
        description: '',
        inputSchema: z.object({}),
        handler: () => 'just this',
      }),
      defineTool({
        name: 'json',
        description: '',
        inputSchema: z.object({}),
        handler: () => ({ ok: true, n: 2 }),
      }),
      defineTool({
        name: 'nothing',
        description: '',
        inputSchema: z.object({}),
        handler: () => undefined,
      }),
    ];
    await using session = new ToolSession({ tools });
    const dispatch = session.dispatch();
    const outcomes = await session.run(
      tools.map((tool, index) => ({ id: `call_${index}`, name: tool.name, arguments: '{}' })),
      dispatch,
    );
    expect(outcomes.map(text)).toEqual([
      'just this',
      '{\n  "ok": true,\n  "n": 2\n}',
      '(no output)',
    ]);
    expect(outcomes.map((outcome) => outcome.isError)).toEqual([false, false, false]);
  });

  it('spools a web ReadableStream as the class of the tool’s declared kind', async () => {
    class BuildLog extends SpooledArtifact {
      override get kind() {
        return 'build-log';
      }
    }
    const stream = defineTool({
      name: 'stream',
      description: '',
      inputSchema: z.object({}),
      kind: 'build-log',
      handler: () => new Blob(['line\n'.repeat(10_000)]).stream(),
    });
    const kinds = defaultArtifactKinds.with({
      name: 'build-log',
      mediaType: 'text/plain',
      artifactClass: BuildLog,
      toolMethods: baseToolMethods,
    });
    await using session = new ToolSession({ tools: [stream], kinds });
    const [outcome] = await session.run(
      [{ id: 'c', name: 'stream', arguments: {} }],
      session.dispatch(),
    );
    expect(outcome?.call.results).toBeInstanceOf(BuildLog);
    expect(text(outcome ?? { content: [] })).toContain('build-log, 48.8 KiB, 10,000 lines');
    // A kind the session's registry lacks is refused when the session is made.
    const refused = (() => {
      try {
        return new ToolSession({ tools: [stream] });
      } catch (error) {
        return error;
      }
    })();
    expect(SpoolforgeError.isInstance(refused) && refused.code).toBe('E_INVALID_ARGUMENT');
    expect((refused as Error).message).toContain("declares kind 'build-log'");
  });

  it('turns everything a model can get wrong into error results, and the loop goes on', async () => {
    const failing = defineTool({
      name: 'failing',
      description: '',
      inputSchema: z.object({}),
      handler: () => {
        throw new Error('disk on fire');
      },
    });
    await using session = new ToolSession({ tools: [produceLog, failing] });
    const outcomes = await session.run(
      [
        { id: 'a', name: 'no_such_tool', arguments: {} },
        { id: 'b', name: 'produce_log', arguments: '{"lines": ' },
        { id: 'c', name: 'produce_log', arguments: { lines: -5 } },
        { id: 'd', name: 'failing', arguments: {} },
        { id: 'e', name: 'produce_log', arguments: { lines: 3, width: null } },
      ],
      session.dispatch(),
    );
    expect(outcomes.map((outcome) => outcome.call.error?.code)).toEqual([
      'E_UNKNOWN_TOOL',
      'E_INVALID_TOOL_ARGS',
      'E_INVALID_TOOL_ARGS',
      'E_TOOL_FAILED',
      undefined,
    ]);
    expect(text(outcomes[0] ?? { content: [] })).toMatch(
      /^Error \(E_UNKNOWN_TOOL\): No tool named 'no_such_tool'. Tools: produce_log, failing/,
    );
    expect(text(outcomes[2] ?? { content: [] })).toContain('lines');
    expect(text(outcomes[3] ?? { content: [] })).toBe(
      'Error (E_TOOL_FAILED): failing failed: disk on fire',
    );
  });

  it('keeps arguments that are not JSON as the text the model sent, the error in call.error', async () => {
    await using session = new ToolSession({ tools: [produceLog] });
    const [outcome] = await session.run(
      [
        { id: 'bad', name: 'produce_log', arguments: '{"lines": ' },
        { id: 'good', name: 'produce_log', arguments: '{"lines": 2}' },
      ],
      session.dispatch(),
    );
    expect(outcome?.isError).toBe(true);
    expect(outcome?.call.arguments).toBe('{"lines": ');
    expect(outcome?.call.error?.code).toBe('E_INVALID_TOOL_ARGS');
    expect(text(outcome ?? { content: [] })).toMatch(
      /^Error \(E_INVALID_TOOL_ARGS\): The arguments are not valid JSON: /,
    );
    expect(session.toolCalls.map((call) => call.arguments)).toEqual(['{"lines": ', { lines: 2 }]);
  });

  it('forges tools for the next dispatch, breaks recursion, and prunes them on ack', async () => {
    await using session = new ToolSession({ tools: [produceLog] });
    const first = session.dispatch();
    expect(first.tools.list().map((tool) => tool.name)).toEqual(['produce_log']);
    first.ack();
    await session.run(
      [{ id: 'call_1', name: 'produce_log', arguments: { lines: 300_000 } }],
      first,
    );

    const second = session.dispatch();
    expect(second.tools.has('artifact_grep')).toBe(true);
    second.ack();
    expect(second.tools.has('artifact_grep')).toBe(false);
    // Calls of an acked dispatch still run against what it offered.
    const [grep] = await session.run(
      [{ id: 'call_2', name: 'artifact_grep', arguments: { callId: 'call_1', pattern: 'FATAL' } }],
      second,
    );
    expect(text(grep ?? { content: [] })).toBe(
      '100000:100000 FATAL disk full xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n' +
        '200000:200000 FATAL disk full xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n' +
        '300000:300000 FATAL disk full xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n' +
        '3 matching lines.\n',
    );
    expect(grep?.call.fromArtifactTool).toBe(true);

    const third = session.dispatch();
    const [recursive] = await session.run(
      [{ id: 'call_3', name: 'artifact_grep', arguments: { callId: 'call_2', pattern: 'x' } }],
      third,
    );
    expect(recursive?.isError).toBe(true);
    expect(text(recursive ?? { content: [] })).toContain('callId must be one of "call_1"');
  });

  it('passes the abort signal to handlers', async () => {
    let seen: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow',
      description: '',
      inputSchema: z.object({}),
      handler: (_input, { signal }) => {
        seen = signal;
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
      },
    });
    await using session = new ToolSession({ tools: [slow] });
    const controller = new AbortController();
    const running = session.run([{ id: 's', name: 'slow', arguments: {} }], session.dispatch(), {
      signal: controller.signal,
    });
    controller.abort(new Error('user cancelled'));
    const [outcome] = await running;
    expect(seen?.aborted).toBe(true);
    expect(outcome?.isError).toBe(true);
  });
});

describe('ToolSession and kinds', () => {
  const rows = Array.from({ length: 5_000 }, (_, id) => ({ id, status: id % 100 ? 200 : 500 }));
  const listRows = defineTool({
    name: 'list_rows',
    description: 'Lists rows.',
    inputSchema: z.object({}),
    handler: () => rows,
  });
  const streamRecords = defineTool({
    name: 'stream_records',
    description: 'Streams records.',
    inputSchema: z.object({}),
    mediaType: 'application/x-ndjson',
    handler: async function* () {
      for (const row of rows) yield `${JSON.stringify(row)}\n`;
    },
  });

  it('sniffs JSON, honours a declared media type, and forges the JSON tools for them', async () => {
    await using session = new ToolSession({ tools: [listRows, streamRecords] });
    const [json, jsonl] = await session.run(
      [
        { id: 'call_j', name: 'list_rows', arguments: {} },
        { id: 'call_l', name: 'stream_records', arguments: {} },
      ],
      session.dispatch(),
    );
    expect(json?.call.results).toBeInstanceOf(SpooledJsonArtifact);
    expect(text(json ?? { content: [] })).toMatch(/spooled, not inlined: json,/);
    expect(text(jsonl ?? { content: [] })).toMatch(/spooled, not inlined: jsonl,/);
    expect(text(json ?? { content: [] })).toContain('artifact_json');
    const dispatch = session.dispatch();
    const [filtered] = await session.run(
      [
        {
          id: 'call_f',
          name: 'artifact_json',
          arguments: { callId: 'call_l', op: 'filter', path: '@.status == 500' },
        },
      ],
      dispatch,
    );
    expect(text(filtered ?? { content: [] })).toContain('50 matches in all');
    const [bad] = await session.run(
      [
        {
          id: 'call_g',
          name: 'artifact_json',
          arguments: { callId: 'call_l', op: 'get', path: '$[' },
        },
      ],
      dispatch,
    );
    expect(bad?.isError).toBe(true);
  });

  it('forgets calls: no longer offered as callIds, their artifacts closed', async () => {
    await using session = new ToolSession({ tools: [produceLog] });
    const first = session.dispatch();
    first.ack();
    const outcomes = await session.run(
      [
        { id: 'call_old', name: 'produce_log', arguments: { lines: 5_000 } },
        { id: 'call_new', name: 'produce_log', arguments: { lines: 5_000 } },
      ],
      first,
    );
    const old = outcomes[0]?.call.results as SpooledArtifact;
    await session.forget(['call_old', 'call_unknown']);
    expect(session.toolCalls.map((call) => call.id)).toEqual(['call_new']);
    expect(await old.head(1).catch((error: { code?: string }) => error.code)).toBe(
      'E_SPOOL_CLOSED',
    );
    const dispatch = session.dispatch();
    const [answer, refused] = await session.run(
      [
        { id: 'q1', name: 'artifact_read', arguments: { callId: 'call_new', last: 1 } },
        { id: 'q2', name: 'artifact_read', arguments: { callId: 'call_old', last: 1 } },
      ],
      dispatch,
    );
    expect(text(answer ?? { content: [] })).toContain('5000:5000 INFO');
    expect(refused?.isError).toBe(true);
    expect(text(refused ?? { content: [] })).toContain('callId must be one of "call_new"');
  });
});
