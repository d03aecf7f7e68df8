// References against what a hostile review found: a grep selection weighed as it is read, a
// line range passed to an artifact argument in place (no copy on disk), the `$$artifact`
// escape, error texts bounded, and empty output names refused.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ArtifactStore,
  artifactArgument,
  defineTool,
  SpooledArtifact,
  SpoolforgeError,
  type SpoolSource,
  spool,
  type Tool,
  type ToolCallOutcome,
  ToolSession,
} from 'spoolforge';
import { readerChunks } from 'spoolforge/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const textOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n') ?? '';

/** Spools go under a directory of this file's own, so a spec can weigh what is on disk. */
let spools: string;
let previousTmpdir: string | undefined;
beforeAll(async () => {
  previousTmpdir = process.env.TMPDIR;
  spools = await mkdtemp(join(tmpdir(), 'reference-review-'));
  process.env.TMPDIR = spools;
});
afterAll(async () => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  await rm(spools, { recursive: true, force: true });
});

/** The bytes of every file under `directory`. */
async function bytesUnder(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** A session whose first call spooled `output` as call_out, and a way to call the next tool. */
async function sessionWith(output: () => SpoolSource, tools: Tool<never>[]) {
  const produce = defineTool({
    name: 'produce',
    description: 'Produces an output.',
    inputSchema: z.object({}),
    // Spooled whatever its size: small outputs show the shapes.
    handler: () => spool(output()),
  });
  const session = new ToolSession({ tools: [produce, ...(tools as Tool<unknown>[])] });
  const first = session.dispatch();
  first.ack();
  await session.run([{ id: 'call_out', name: 'produce', arguments: {} }], first);
  const call = async (name: string, args: unknown) => {
    const dispatch = session.dispatch();
    dispatch.ack();
    const [outcome] = await session.run([{ id: `call_${name}`, name, arguments: args }], dispatch);
    return outcome;
  };
  return { session, call };
}

/** A tool that records what it was given. */
function taker() {
  const received: unknown[] = [];
  const tool = defineTool({
    name: 'take',
    description: 'Takes a value.',
    inputSchema: z.object({ value: z.unknown() }),
    handler: ({ value }) => {
      received.push(value);
      return 'taken';
    },
  });
  return { tool, received };
}

describe('a grep selection is weighed as it is read', () => {
  it('stops at the first matching line past the bound, naming it and how to narrow', async () => {
    const big = `ERROR ${'x'.repeat(3 * 1024 * 1024)}`;
    const take = taker();
    const { session, call } = await sessionWith(
      () => ['INFO start', 'ERROR one', big, 'ERROR three'].join('\n'),
      [take.tool as Tool<never>],
    );
    await using _ = session;
    const over = await call('take', { value: { $artifact: 'call_out', grep: 'ERROR' } });
    expect(over?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(over)).toMatch(/over the 1\.0 MiB .*\(maxReferenceBytes\)/);
    expect(textOf(over)).toMatch(
      /its match on line 3 \(3\.0 MiB\) is past it after 1 line; narrow the regex, or select a "lines" range/,
    );
    expect(take.received).toEqual([]);
    const fits = await call('take', {
      value: { $artifact: 'call_out', grep: 'ERROR (one|three)' },
    });
    expect(textOf(fits)).toBe('taken');
    expect(take.received).toEqual(['ERROR one\nERROR three']);
  });

  it('counts invalid UTF-8 as the text it decodes to (U+FFFD is 3 bytes)', async () => {
    // 400,000 invalid bytes are 1.2 MB of text: over 1 MiB though the bytes are not.
    const line = Buffer.concat([Buffer.from('ERROR '), Buffer.alloc(400_000, 0xff)]);
    const take = taker();
    const { session, call } = await sessionWith(() => line, [take.tool as Tool<never>]);
    await using _ = session;
    const over = await call('take', { value: { $artifact: 'call_out', grep: 'ERROR' } });
    expect(over?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(over)).toMatch(/its match on line 1 \(390\.6 KiB\) is past it after 0 lines/);
  });
});

describe('artifactArgument() with a "lines" range', () => {
  /** A tool that hashes the artifact it is given and weighs the spools on disk meanwhile. */
  function uploader() {
    const seen: { sha256: string; bytes: number; onDisk: number }[] = [];
    const tool = defineTool({
      name: 'upload_log',
      description: 'Uploads a log.',
      inputSchema: z.object({ log: artifactArgument() }),
      handler: async ({ log }, { signal }) => {
        const hash = createHash('sha256');
        let bytes = 0;
        for await (const chunk of readerChunks(log.reader, { signal })) {
          hash.update(chunk);
          bytes += chunk.length;
        }
        seen.push({ sha256: hash.digest('hex'), bytes, onDisk: await bytesUnder(spools) });
        return `uploaded ${bytes} bytes`;
      },
    });
    return { tool, seen };
  }

  it('reads the range of the output in place: 64 MiB passed on, nothing more on disk', async () => {
    const line = `${'a'.repeat(1023)}\n`;
    const mib = Buffer.from(line.repeat(1024));
    const upload = uploader();
    const { session, call } = await sessionWith(
      async function* () {
        for (let index = 0; index < 64; index++) yield mib;
      },
      [upload.tool as Tool<never>],
    );
    await using _ = session;
    const spooled = await bytesUnder(spools);
    expect(spooled).toBeGreaterThanOrEqual(64 * 1024 * 1024); // the output, in a temp file
    const outcome = await call('upload_log', {
      log: { $artifact: 'call_out', lines: `2-${64 * 1024}` },
    });
    // Lines 2 to the last, without the last one's \n, as the inline value has them.
    const selected = 64 * 1024 * 1024 - 1024 - 1;
    expect(textOf(outcome)).toBe(`uploaded ${selected} bytes`);
    const expected = createHash('sha256').update(mib.subarray(1024));
    for (let index = 1; index < 63; index++) expected.update(mib);
    expected.update(mib.subarray(0, -1));
    const [seen] = upload.seen;
    expect(seen?.sha256).toBe(expected.digest('hex'));
    expect(seen?.onDisk).toBe(spooled);
  }, 120_000);

  it('keeps the bytes as they are: CRLF and invalid UTF-8, the last line without \\n', async () => {
    const log = Buffer.concat([
      Buffer.from('one\r\n'),
      Buffer.from([0x74, 0xff, 0x77, 0x6f, 0x0d, 0x0a]),
      Buffer.from('three'),
    ]);
    const upload = uploader();
    const { session, call } = await sessionWith(() => log, [upload.tool as Tool<never>]);
    await using _ = session;
    const hash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    await call('upload_log', { log: { $artifact: 'call_out', lines: '2' } });
    await call('upload_log', { log: { $artifact: 'call_out', lines: '2-9' } });
    expect(upload.seen.map(({ sha256, bytes }) => ({ sha256, bytes }))).toEqual([
      { sha256: hash(log.subarray(5, 10)), bytes: 5 },
      { sha256: hash(log.subarray(5)), bytes: 11 },
    ]);
  });

  it("reads in place from a store's output too", async () => {
    const log = Array.from({ length: 5_000 }, (_, line) => `${line + 1} INFO\r\n`).join('');
    const fetchLog = defineTool({
      name: 'fetch_log',
      description: 'The log.',
      inputSchema: z.object({}),
      handler: () => log,
    });
    const upload = uploader();
    const store = await ArtifactStore.open(await mkdtemp(join(spools, 'store-')));
    await using session = new ToolSession({ tools: [fetchLog, upload.tool], store });
    const [fetched] = await session.run(
      [{ id: 'call_log', name: 'fetch_log', arguments: {} }],
      session.dispatch(),
    );
    expect(fetched?.ref).toBeDefined(); // stored, not in a temp spool
    await session.run(
      [
        {
          id: 'up',
          name: 'upload_log',
          arguments: { log: { $artifact: 'call_log', lines: '4999-5000' } },
        },
      ],
      session.dispatch(),
    );
    const expected = Buffer.from('4999 INFO\r\n5000 INFO\r');
    expect(upload.seen.map(({ sha256, bytes }) => ({ sha256, bytes }))).toEqual([
      { sha256: createHash('sha256').update(expected).digest('hex'), bytes: expected.length },
    ]);
  });

  it('a grep selection is still gathered within maxReferenceBytes', async () => {
    const upload = uploader();
    const { session, call } = await sessionWith(
      () => `ERROR ${'x'.repeat(2 * 1024 * 1024)}\nERROR small`,
      [upload.tool as Tool<never>],
    );
    await using _ = session;
    const over = await call('upload_log', { log: { $artifact: 'call_out', grep: 'ERROR' } });
    expect(over?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(over)).toMatch(/maxReferenceBytes.*select a "lines" range/);
    expect(upload.seen).toEqual([]);
  });
});

describe('the $$artifact escape', () => {
  it('delivers {"$$artifact": …} as {"$artifact": …}, one $ stripped, beside a real reference', async () => {
    const take = taker();
    const { session, call } = await sessionWith(() => 'first\nsecond', [take.tool as Tool<never>]);
    await using _ = session;
    const outcome = await call('take', {
      value: {
        literal: { $$artifact: 'call_out', lines: '1' },
        twice: [{ $$$artifact: 'x' }],
        resolved: { $artifact: 'call_out', lines: '2' },
        inside: { $$artifact: { $artifact: 'call_out', lines: '1' } },
      },
    });
    expect(textOf(outcome)).toBe('taken');
    expect(take.received).toEqual([
      {
        literal: { $artifact: 'call_out', lines: '1' },
        twice: [{ $$artifact: 'x' }],
        resolved: 'second',
        inside: { $artifact: 'first' },
      },
    ]);
  });

  it('passes arguments with an escape alone through, with no output spooled', async () => {
    const take = taker();
    await using session = new ToolSession({ tools: [take.tool] });
    const dispatch = session.dispatch();
    dispatch.ack();
    await session.run(
      [{ id: 'c', name: 'take', arguments: { value: { $$artifact: 'call_1' } } }],
      dispatch,
    );
    expect(take.received).toEqual([{ $artifact: 'call_1' }]);
  });

  it('a malformed reference says how to send the object literally', async () => {
    const take = taker();
    const { session, call } = await sessionWith(() => 'a', [take.tool as Tool<never>]);
    await using _ = session;
    for (const value of [{ $artifact: 'call_out', note: 'x' }, { $artifact: { type: 'file' } }]) {
      const outcome = await call('take', { value });
      expect(outcome?.call.error?.code).toBe('E_BAD_REFERENCE');
      expect(textOf(outcome)).toContain('write "$$artifact"');
    }
  });
});

describe('reference errors are bounded', () => {
  it('a regex of 100,000 characters that does not compile is echoed in at most 2,000', async () => {
    const take = taker();
    const { session, call } = await sessionWith(() => 'a\nb', [take.tool as Tool<never>]);
    await using _ = session;
    const grep = `(${'a'.repeat(100_000)}`;
    const outcome = await call('take', { value: { $artifact: 'call_out', grep } });
    expect(outcome?.call.error?.code).toBe('E_BAD_REFERENCE');
    expect(textOf(outcome)).toMatch(/^Error \(E_BAD_REFERENCE\): \{"\$artifact"/);
    expect(textOf(outcome).length).toBeLessThanOrEqual(2_000 + 30);
    expect(textOf(outcome)).toMatch(/… \(\d{6} characters\)$/);
  });
});

describe('output names', () => {
  function named(outputName: (input: { slug: string }) => string | undefined) {
    let ran = 0;
    const tool = defineTool({
      name: 'report',
      description: 'A report.',
      inputSchema: z.object({ slug: z.string() }),
      outputName: ({ slug }) => outputName({ slug }),
      handler: () => {
        ran++;
        return 'row\n'.repeat(10_000);
      },
    });
    return { tool, runs: () => ran };
  }

  it('refuses an empty, blank or too long name from outputName before the tool runs', async () => {
    const report = named(({ slug }) => slug);
    await using session = new ToolSession({ tools: [report.tool] });
    const run = async (slug: string) => {
      const dispatch = session.dispatch();
      dispatch.ack();
      const [outcome] = await session.run(
        [{ id: `c${slug.length}`, name: 'report', arguments: { slug } }],
        dispatch,
      );
      return outcome;
    };
    for (const [slug, fault] of [
      ['', 'got "", which names nothing'],
      ['  \t', 'got "  \\t", which names nothing'],
      ['x'.repeat(101), 'got 101 characters'],
      ['two\nlines', 'with a control character'],
    ] as const) {
      const outcome = await run(slug);
      expect(outcome?.call.error?.code).toBe('E_INVALID_TOOL_ARGS');
      expect(textOf(outcome)).toContain("An output's name must be one line of 1 to 100 characters");
      expect(textOf(outcome)).toContain(fault);
    }
    expect(report.runs()).toBe(0);
    const good = await run('q4');
    expect(good?.call.results).toBeInstanceOf(SpooledArtifact);
    expect((good?.call.results as SpooledArtifact | undefined)?.name).toBe('q4');
    // undefined is no name.
    const unnamed = named(() => undefined);
    await using other = new ToolSession({ tools: [unnamed.tool] });
    const [outcome] = await other.run(
      [{ id: 'u', name: 'report', arguments: { slug: '' } }],
      other.dispatch(),
    );
    expect((outcome?.call.results as SpooledArtifact | undefined)?.name).toBeUndefined();
  });

  it('refuses a blank name the model gives a derived output; null is none', async () => {
    const fetchPage = defineTool({
      name: 'fetch_page',
      description: 'A page.',
      inputSchema: z.object({}),
      kind: 'json',
      handler: () => JSON.stringify({ rows: ['a'.repeat(30_000)] }),
    });
    await using session = new ToolSession({ tools: [fetchPage] });
    await session.run([{ id: 'call_1', name: 'fetch_page', arguments: {} }], session.dispatch());
    const extract = (name: string | null) => ({
      callId: 'call_1',
      op: 'extract',
      path: '$.rows[*]',
      name,
    });
    const [blank, none] = await session.run(
      [
        { id: 'call_2', name: 'artifact_json', arguments: extract(' ') },
        { id: 'call_3', name: 'artifact_json', arguments: extract(null) },
      ],
      session.dispatch(),
    );
    expect(blank?.call.error?.code).toBe('E_INVALID_TOOL_ARGS');
    expect(textOf(blank)).toContain('got " ", which names nothing');
    expect(none?.call.results).toBeInstanceOf(SpooledArtifact);
  });

  it('refuses an empty name given by code: spool() fails with E_INVALID_ARGUMENT', async () => {
    for (const name of ['', '   ']) {
      const failure = await spool('text', { name }).catch((error: unknown) => error);
      expect(SpoolforgeError.isInstance(failure) && failure.code).toBe('E_INVALID_ARGUMENT');
      expect((failure as Error).message).toContain('which names nothing');
    }
    await using artifact = await spool('text', { name: 'notes' });
    expect(artifact.name).toBe('notes');
  });

  it('refuses a blank name on an artifact a handler returns, made without spool()', async () => {
    const open = defineTool({
      name: 'open_file',
      description: 'Opens this file.',
      inputSchema: z.object({}),
      handler: () => SpooledArtifact.fromFile(new URL(import.meta.url).pathname, { name: ' ' }),
    });
    await using session = new ToolSession({ tools: [open] });
    const [outcome] = await session.run(
      [{ id: 'f', name: 'open_file', arguments: {} }],
      session.dispatch(),
    );
    expect(outcome?.call.error?.code).toBe('E_INVALID_ARGUMENT');
    expect(textOf(outcome)).toContain('which names nothing');
  });
});
