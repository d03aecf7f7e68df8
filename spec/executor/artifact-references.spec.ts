// References to spooled outputs in a tool's arguments, through ToolSession: what each selector
// substitutes, nested references, names, and every refusal (the tool is then not called).
import { createHash } from 'node:crypto';
import {
  ArtifactStore,
  artifactArgument,
  defineTool,
  SpooledArtifact,
  spool,
  type ToolCallOutcome,
  ToolSession,
} from 'spoolforge';
import { readerChunks } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDirectory } from '../helpers/temp-files.js';

/** 3,000 CRLF lines, an invalid UTF-8 byte on line 7. */
const log = Buffer.concat(
  Array.from({ length: 3_000 }, (_, index) => {
    const line = index + 1;
    const level = line % 500 === 0 ? 'ERROR' : 'INFO';
    const bytes = Buffer.from(`${line} ${level} request ${line}\r\n`);
    return line === 7 ? Buffer.concat([bytes.subarray(0, 2), Buffer.from([0xff]), bytes]) : bytes;
  }),
);
/** A 300 KB page as one minified line. */
const page = {
  id: 4812,
  version: 17,
  body: `<table>${Array.from({ length: 5_000 }, (_, row) => `<tr><td>${row}</td><td>row ${row}</td></tr>`).join('')}</table>`,
  labels: ['ops', 'q4'],
};

const fetchLog = defineTool({
  name: 'fetch_log',
  description: 'Fetches the build log.',
  inputSchema: z.object({}),
  handler: () => log,
});
const fetchPage = defineTool({
  name: 'fetch_page',
  description: 'Fetches a page.',
  inputSchema: z.object({ id: z.number() }),
  kind: 'json',
  outputName: ({ id }) => `page-${id}`,
  handler: () => JSON.stringify(page),
});

/** A tool that records what it was called with; strict types, a number among them. */
function recorder() {
  const received: unknown[] = [];
  const tool = defineTool({
    name: 'update_page',
    description: 'Updates a page.',
    inputSchema: z.strictObject({
      body: z.string(),
      version: z.number().int(),
      extras: z.array(z.object({ note: z.string() })).optional(),
    }),
    handler: (input) => {
      received.push(input);
      return 'updated';
    },
  });
  return { tool, received };
}

const textOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') ?? '';

/** A session whose first turn spooled the log (call_log) and the page (call_page). */
async function spooledSession(options: { maxReferenceBytes?: number } = {}) {
  const update = recorder();
  const session = new ToolSession({ tools: [fetchLog, fetchPage, update.tool], ...options });
  const first = session.dispatch();
  first.ack();
  await session.run(
    [
      { id: 'call_log', name: 'fetch_log', arguments: {} },
      { id: 'call_page', name: 'fetch_page', arguments: { id: 4812 } },
    ],
    first,
  );
  const call = async (args: unknown, name = 'update_page') => {
    const dispatch = session.dispatch();
    dispatch.ack();
    const [outcome] = await session.run(
      [{ id: `call_${Math.random()}`, name, arguments: args }],
      dispatch,
    );
    return outcome;
  };
  return { session, call, received: update.received };
}

describe('references in tool arguments (ToolSession)', () => {
  it('substitutes a JSONPath value as JSON, into a strict schema: a number into a number field', async () => {
    const { session, call, received } = await spooledSession();
    await using _ = session;
    const outcome = await call(
      JSON.stringify({
        body: { $artifact: 'call_page', json: '$.body' },
        version: { $artifact: 'page-4812', json: '$.version' },
      }),
    );
    expect(textOf(outcome)).toBe('updated');
    expect(received).toEqual([{ body: page.body, version: 17 }]);
    // The call keeps what the model sent.
    expect(outcome?.call.arguments).toMatchObject({ version: { $artifact: 'page-4812' } });
  });

  it('substitutes line ranges and grep matches as text, nested in arrays and objects', async () => {
    const { session, call, received } = await spooledSession();
    await using _ = session;
    const outcome = await call({
      body: { $artifact: 'call_log', lines: '2-3' },
      version: 1,
      extras: [
        { note: { $artifact: 'call_log', grep: 'ERROR' } },
        { note: { $artifact: 'call_log', lines: '7' } },
      ],
    });
    expect(textOf(outcome)).toBe('updated');
    expect(received).toEqual([
      {
        body: '2 INFO request 2\r\n3 INFO request 3\r',
        version: 1,
        extras: [
          {
            note: Array.from(
              { length: 6 },
              (_, index) => `${(index + 1) * 500} ERROR request ${(index + 1) * 500}\r`,
            ).join('\n'),
          },
          // Invalid UTF-8 arrives as U+FFFD, like every text a model is handed.
          { note: '7 \uFFFD7 INFO request 7\r' },
        ],
      },
    ]);
  });

  it('substitutes a whole output as its text, and a name reaches the newest output so named', async () => {
    const { session, call, received } = await spooledSession();
    await using _ = session;
    expect(textOf(await call({ body: { $artifact: 'call_log' }, version: 1 }))).toBe('updated');
    expect(received[0]).toEqual({ body: log.toString('utf8'), version: 1 });
    expect(textOf(await call({ body: { $artifact: 'page-4812' }, version: 2 }))).toBe('updated');
    expect(received[1]).toEqual({ body: JSON.stringify(page), version: 2 });
  });

  it('a handler names its output by returning the artifact it spooled; a stored output keeps its name', async () => {
    const update = recorder();
    const nightly = defineTool({
      name: 'nightly',
      description: 'The nightly log.',
      inputSchema: z.object({}),
      handler: async () => spool(log, { name: 'nightly-log' }),
    });
    const store = await ArtifactStore.open(await tempDirectory());
    await using session = new ToolSession({ tools: [nightly, fetchPage, update.tool], store });
    const first = session.dispatch();
    first.ack();
    const outcomes = await session.run(
      [
        { id: 'call_n', name: 'nightly', arguments: {} },
        { id: 'call_p', name: 'fetch_page', arguments: { id: 7 } },
      ],
      first,
    );
    expect(textOf(outcomes[0])).toContain('Output of nightly "nightly-log" (call_n)');
    expect((await store.info(outcomes[1]?.ref ?? ''))?.name).toBe('page-7');
    const second = session.dispatch();
    second.ack();
    const [outcome] = await session.run(
      [
        {
          id: 'call_u',
          name: 'update_page',
          arguments: {
            body: { $artifact: 'nightly-log', lines: '3000' },
            version: { $artifact: 'page-7', json: '$.version' },
          },
        },
      ],
      second,
    );
    expect(textOf(outcome)).toBe('updated');
    expect(update.received).toEqual([{ body: '3000 ERROR request 3000\r', version: 17 }]);
  });

  it('a name is a callId of the forged tools, and in their enum', async () => {
    const { session, call } = await spooledSession();
    await using _ = session;
    const outcome = await call(
      { callId: 'page-4812', op: 'get', path: '$.version' },
      'artifact_json',
    );
    expect(textOf(outcome)).toContain('= 17');
    const forged = session.dispatch().tools.get('artifact_read');
    const schema = z.toJSONSchema(forged?.inputSchema as z.ZodType) as unknown as {
      properties: { callId: { enum: string[] } };
    };
    expect(schema.properties.callId.enum).toEqual(['call_log', 'call_page', 'page-4812']);
  });

  it('the handle says in one line how to pass the output on', async () => {
    const { session } = await spooledSession();
    await using _ = session;
    const named = session.toolCalls[1]?.results as SpooledArtifact | undefined;
    expect(named?.name).toBe('page-4812');
    const dispatch = session.dispatch();
    dispatch.ack();
    const [outcome] = await session.run(
      [{ id: 'call_again', name: 'fetch_log', arguments: {} }],
      dispatch,
    );
    expect(textOf(outcome)).toContain(
      'Pass it to a tool as the argument value {"$artifact":"call_again"}',
    );
  });

  it.each([
    [
      'an unknown id',
      { $artifact: 'call_nope' },
      /No spooled output "call_nope".*"call_log", "call_page" \("page-4812"\)/,
    ],
    ['a path', { $artifact: '/etc/passwd' }, /No spooled output "\/etc\/passwd"/],
    ['a URL', { $artifact: 'https://example.com/x' }, /No spooled output/],
    ['a key it does not know', { $artifact: 'call_log', range: '1-2' }, /not "range"/],
    ['two selectors', { $artifact: 'call_log', lines: '1-2', grep: 'x' }, /one selector/],
    ['a malformed range', { $artifact: 'call_log', lines: '5-2' }, /"lines" must be "A-B"/],
    ['a range past the end', { $artifact: 'call_log', lines: '3001-3002' }, /has 3000 lines/],
    ['a grep that matches nothing', { $artifact: 'call_log', grep: 'NOTHERE' }, /matches no line/],
    ['a regex that does not compile', { $artifact: 'call_log', grep: '(' }, /E_BAD_REFERENCE/],
    [
      'a JSONPath of several values',
      { $artifact: 'call_page', json: '$.labels[*]' },
      /more than one value/,
    ],
    ['a JSONPath of none', { $artifact: 'call_page', json: '$.nope' }, /selects nothing/],
    ['json of a text output', { $artifact: 'call_log', json: '$' }, /is text/],
    ['a non-string $artifact', { $artifact: 3 }, /must be the callId or name/],
  ])(
    'refuses %s with E_BAD_REFERENCE, and the tool is not called',
    async (_, reference, message) => {
      const { session, call, received } = await spooledSession();
      await using _session = session;
      const outcome = await call({ body: reference, version: 1 });
      expect(outcome?.isError).toBe(true);
      expect(outcome?.call.error?.code).toBe('E_BAD_REFERENCE');
      expect(textOf(outcome)).toMatch(/^Error \(E_BAD_REFERENCE\)/);
      expect(textOf(outcome)).toMatch(message);
      expect(received).toEqual([]);
    },
  );

  it('refuses values over maxReferenceBytes, counting every reference of the call', async () => {
    const { session, call, received } = await spooledSession({ maxReferenceBytes: 64 * 1024 });
    await using _ = session;
    const whole = await call({ body: { $artifact: 'call_log' }, version: 1 });
    expect(whole?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(whole)).toMatch(/over the 64\.0 KiB .*maxReferenceBytes/);
    // Each half fits; both together do not.
    const half = { $artifact: 'call_log', lines: '1-1500' };
    const both = await call({ body: half, version: 1, extras: [{ note: half }] });
    expect(textOf(both)).toMatch(/maxReferenceBytes/);
    expect(received).toEqual([]);
    expect(textOf(await call({ body: half, version: 1 }))).toBe('updated');
  });

  it("reaches only its own session's outputs", async () => {
    const { session } = await spooledSession();
    await using _ = session;
    const other = recorder();
    await using stranger = new ToolSession({ tools: [other.tool] });
    const dispatch = stranger.dispatch();
    dispatch.ack();
    const [outcome] = await stranger.run(
      [
        {
          id: 'x',
          name: 'update_page',
          arguments: { body: { $artifact: 'call_log' }, version: 1 },
        },
      ],
      dispatch,
    );
    expect(outcome?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(outcome)).toMatch(/Nothing is spooled yet/);
    expect(other.received).toEqual([]);
  });
});

describe('artifactArgument()', () => {
  /** A tool that hashes the artifact it is given, streaming its bytes. */
  function uploader() {
    const seen: { sha256: string; bytes: number; isArtifact: boolean }[] = [];
    const tool = defineTool({
      name: 'upload_log',
      description: 'Uploads a log.',
      inputSchema: z.object({ incident: z.string(), log: artifactArgument() }),
      handler: async ({ log: artifact }, { signal }) => {
        const hash = createHash('sha256');
        let bytes = 0;
        for await (const chunk of readerChunks(artifact.reader, { signal })) {
          hash.update(chunk);
          bytes += chunk.length;
        }
        seen.push({
          sha256: hash.digest('hex'),
          bytes,
          isArtifact: artifact instanceof SpooledArtifact,
        });
        return `uploaded ${bytes} bytes`;
      },
    });
    return { tool, seen };
  }

  it('hands the handler a SpooledArtifact of 256 MiB, every byte, past maxReferenceBytes', async () => {
    const chunk = Buffer.alloc(1024 * 1024);
    for (let index = 0; index < chunk.length; index++)
      chunk[index] = index % 251 === 0 ? 10 : 97 + (index % 26);
    const expected = createHash('sha256');
    const produce = defineTool({
      name: 'produce',
      description: 'A big log.',
      inputSchema: z.object({}),
      handler: async function* () {
        for (let index = 0; index < 256; index++) {
          chunk[0] = index; // each MiB differs
          expected.update(chunk);
          yield Buffer.from(chunk);
        }
      },
    });
    const upload = uploader();
    await using session = new ToolSession({ tools: [produce, upload.tool] });
    const first = session.dispatch();
    first.ack();
    await session.run([{ id: 'call_big', name: 'produce', arguments: {} }], first);
    const second = session.dispatch();
    second.ack();
    const [outcome] = await session.run(
      [
        {
          id: 'call_up',
          name: 'upload_log',
          arguments: { incident: 'INC-1', log: { $artifact: 'call_big' } },
        },
      ],
      second,
    );
    expect(textOf(outcome)).toBe(`uploaded ${256 * 1024 * 1024} bytes`);
    expect(upload.seen).toEqual([
      { sha256: expected.digest('hex'), bytes: 256 * 1024 * 1024, isArtifact: true },
    ]);
  }, 120_000);

  it('a selector hands it a new artifact of the selection; text is refused', async () => {
    const upload = uploader();
    await using session = new ToolSession({ tools: [fetchLog, upload.tool] });
    const first = session.dispatch();
    first.ack();
    await session.run([{ id: 'call_log', name: 'fetch_log', arguments: {} }], first);
    const second = session.dispatch();
    second.ack();
    const [lines, text] = await session.run(
      [
        {
          id: 'a',
          name: 'upload_log',
          arguments: { incident: 'I', log: { $artifact: 'call_log', lines: '2-3' } },
        },
        { id: 'b', name: 'upload_log', arguments: { incident: 'I', log: 'the log' } },
      ],
      second,
    );
    const selected = Buffer.from('2 INFO request 2\r\n3 INFO request 3\r');
    expect(textOf(lines)).toBe(`uploaded ${selected.length} bytes`);
    expect(upload.seen[0]?.sha256).toBe(createHash('sha256').update(selected).digest('hex'));
    expect(text?.call.error?.code).toBe('E_INVALID_TOOL_ARGS');
    expect(textOf(text)).toContain('expects a spooled output by reference');
  });

  it('declares the reference form as its JSON Schema', () => {
    const schema = z.toJSONSchema(z.object({ log: artifactArgument() }), {
      io: 'input',
      unrepresentable: 'any',
    }) as unknown as {
      properties: { log: unknown };
    };
    expect(schema.properties.log).toMatchObject({
      type: 'object',
      properties: { $artifact: { type: 'string' } },
      required: ['$artifact'],
    });
  });
});
