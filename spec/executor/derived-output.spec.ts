// A tool method of any kind can make a new output: here a custom kind's query that keeps a line
// range of a text log as a text output of its own. The session spools it as the result of the
// call that made it, so it is offered, queried and listed like any spooled output.
import {
  type ArtifactKind,
  ArtifactStore,
  baseToolMethods,
  DerivedOutput,
  defaultArtifactKinds,
  defineTool,
  keepDerived,
  SpooledArtifact,
  type ToolMethodDescriptor,
  ToolSession,
  type ToolSessionOptions,
} from 'spoolforge';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDirectory } from '../helpers/temp-files.js';

const keepLinesArgs = {
  start: z.number().int().min(1),
  end: z.number().int().min(1),
  name: z.string().nullish(),
};

async function* lineBytes(artifact: SpooledArtifact, start: number, end: number) {
  for await (const line of artifact.lines(start, end)) yield Buffer.from(`${line.text}\n`);
}

const keepLines: ToolMethodDescriptor<SpooledArtifact, typeof keepLinesArgs> = {
  name: 'artifact_keep_lines',
  description: 'Lines START..END (1-based) of a log as a new output.',
  args: keepLinesArgs,
  run: (artifact, { start, end, name }, context) =>
    keepDerived(
      context,
      new DerivedOutput({
        bytes: lineBytes(artifact, start - 1, end),
        kind: 'text',
        name,
        summary: `Lines ${start}-${end} of ${context.callId}, as a new output:`,
      }),
      'artifact_keep_lines',
    ),
};

const logKind: ArtifactKind = {
  name: 'log',
  mediaType: 'text/x-log',
  artifactClass: SpooledArtifact,
  toolMethods: [...baseToolMethods, keepLines as unknown as ToolMethodDescriptor<SpooledArtifact>],
};

const log = Array.from({ length: 2_000 }, (_, line) => `10:00:${line} request ${line} ok`).join(
  '\n',
);

const sessions: ToolSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

const fetchLog = defineTool({
  name: 'fetch_log',
  description: 'Fetches the log.',
  inputSchema: z.object({}),
  kind: 'log',
  handler: () => log,
});

/** A session that fetched the log (`call_log`), then kept its lines `start`..`end` (`call_keep`). */
async function keptLines(
  options: Omit<ToolSessionOptions, 'tools'>,
  lines: { start: number; end: number; name: string },
) {
  const session = new ToolSession({ tools: [fetchLog], ...options });
  sessions.push(session);
  await session.run([{ id: 'call_log', name: 'fetch_log', arguments: {} }], session.dispatch());
  const keep = {
    id: 'call_keep',
    name: 'artifact_keep_lines',
    arguments: { callId: 'call_log', ...lines },
  };
  const [kept] = await session.run([keep], session.dispatch());
  return { session, kept };
}

describe('a derived output of a custom tool method', () => {
  it('is spooled as the result of its call, named, and offered to the next dispatch', async () => {
    const { session, kept } = await keptLines(
      { kinds: defaultArtifactKinds.with(logKind) },
      { start: 11, end: 20, name: 'ten lines' },
    );
    expect(kept?.isError).toBe(false);
    expect(kept?.content[0]).toMatchObject({
      text: expect.stringMatching(
        /^Lines 11-20 of call_log, as a new output:\nOutput of artifact_keep_lines "ten lines" \(call_keep\) was spooled, not inlined: text, /,
      ),
    });
    const artifact = kept?.call.results as SpooledArtifact;
    expect(artifact.name).toBe('ten lines');
    expect(await artifact.asString()).toBe(`${log.split('\n').slice(10, 20).join('\n')}\n`);
    // The new output is text: the text queries are forged for it, the log's own query is not.
    const dispatch = session.dispatch();
    const read = dispatch.tools.get('artifact_read')?.inputSchema;
    expect(read?.safeParse({ callId: 'call_keep' }).success).toBe(true);
    const [first] = await session.run(
      [{ id: 'q', name: 'artifact_read', arguments: { callId: 'call_keep', last: 1 } }],
      dispatch,
    );
    expect(first?.content[0]).toMatchObject({
      text: 'lines 10–10 of 10:\n10:10:00:19 request 19 ok\n',
    });
    // Forgotten like any output: no longer offered.
    await session.forget(['call_keep']);
    const after = session.dispatch().tools.get('artifact_read')?.inputSchema;
    expect(after?.safeParse({ callId: 'call_keep' }).success).toBe(false);
  });

  it("goes into the session's store, named, with the call that made it", async () => {
    const kinds = defaultArtifactKinds.with(logKind);
    const store = await ArtifactStore.open(await tempDirectory(), { kinds });
    const lines = { start: 1, end: 1000, name: 'first half' };
    const { kept } = await keptLines({ store }, lines);
    expect(kept?.ref).toBeDefined();
    const record = await store.info(kept?.ref as string);
    expect(record).toMatchObject({
      name: 'first half',
      kind: 'text',
      lineCount: 1000,
      metadata: { toolCallId: 'call_keep', toolName: 'artifact_keep_lines' },
    });
  });

  it('where the host keeps no new outputs, the method refuses with a message the model reads', async () => {
    await using artifact = SpooledArtifact.fromFile(new URL(import.meta.url).pathname);
    const run = keepLines.run(
      artifact,
      { start: 1, end: 2, name: null },
      { callId: 'call_log', limits: {}, signal: new AbortController().signal },
    );
    await expect(run).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message:
        'artifact_keep_lines makes a new output, which is not kept here; the queries that show text still work',
    });
  });
});
