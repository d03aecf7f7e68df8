import {
  createArtifactHandler,
  createLinkSigner,
  spool,
  type ToolEvent,
  uiToolEvents,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { openStore } from '../store/store-helpers.js';

const bigLog = Array.from(
  { length: 5_000 },
  (_, index) => `line ${index + 1} ${'z'.repeat(300)}`,
).join('\n');

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

async function* emit(events: ToolEvent[]) {
  yield* events;
}

describe('uiToolEvents', () => {
  it('passes small results and other events unchanged, and turns large ones into linked references', async () => {
    const store = await openStore();
    const origin = await listen(createArtifactHandler(store));
    const baseUrl = `${origin}/artifacts/`;
    const stored = await store.put(bigLog, { name: 'build' });
    const storedArtifact = await store.get(stored.id);
    const start: ToolEvent = { type: 'start', toolCallId: 'a', toolName: 'build', arguments: {} };
    const progress: ToolEvent = { type: 'progress', toolCallId: 'a', bytes: 10 };
    const small: ToolEvent = { type: 'complete', toolCallId: 'a', toolName: 'build', result: 'ok' };
    const events = await collect(
      uiToolEvents(
        emit([
          start,
          progress,
          small,
          { type: 'complete', toolCallId: 'b', toolName: 'build', result: bigLog },
          {
            type: 'complete',
            toolCallId: 'c',
            toolName: 'build',
            result: storedArtifact,
            ref: stored.id,
          },
        ]),
        { store, baseUrl },
      ),
    );
    expect(events.slice(0, 3)).toEqual([start, progress, small]);
    const [, , , text, artifact] = events;
    expect(text).toMatchObject({
      type: 'complete',
      toolCallId: 'b',
      artifact: {
        byteLength: Buffer.byteLength(bigLog),
        lineCount: 5_000,
        kind: 'text',
        head: [
          `line 1 ${'z'.repeat(193)}…`,
          `line 2 ${'z'.repeat(193)}…`,
          `line 3 ${'z'.repeat(193)}…`,
        ],
      },
    });
    expect(text && 'result' in text).toBe(false);
    const reference = text && 'artifact' in text ? text.artifact : undefined;
    expect(reference?.tail.at(-1)).toBe(`line 5000 ${'z'.repeat(190)}…`);
    expect(reference?.url).toBe(`${origin}/artifacts/${reference?.ref}/view`);
    // The link opens the viewer on the stored copy.
    const page = await fetch(reference?.url ?? '');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('line 1 ');
    expect((await store.info(reference?.ref ?? ''))?.byteLength).toBe(Buffer.byteLength(bigLog));

    expect(artifact).toMatchObject({ artifact: { ref: stored.id, lineCount: 5_000 } });
    // The caller's artifact is left open.
    expect(await storedArtifact.lineCount()).toBe(5_000);
    await storedArtifact.close();
  });

  it('previews a short result without overlap, and reuses a known ref', async () => {
    const store = await openStore();
    const fourLines = `${'a'.repeat(3_000)}\nb\nc\nd`;
    const stored = await store.put(fourLines);
    const [event] = await collect(
      uiToolEvents(
        emit([
          { type: 'complete', toolCallId: 'y', toolName: 't', result: fourLines, ref: stored.id },
        ]),
        { store, maxInlineBytes: 1_024 },
      ),
    );
    expect(event).toMatchObject({
      artifact: { ref: stored.id, head: [`${'a'.repeat(200)}…`, 'b', 'c'], tail: ['d'] },
    });
    expect(await store.list()).toHaveLength(1);
  });

  it('describes a large result without a store, with no link, and never copies an artifact', async () => {
    const artifact = await spool(bigLog);
    const [event] = await collect(
      uiToolEvents(
        emit([
          { type: 'complete', toolCallId: 'x', toolName: 'build', result: artifact, isError: true },
        ]),
        { baseUrl: 'http://localhost/artifacts', previewLines: 1 },
      ),
    );
    expect(event).toEqual({
      type: 'complete',
      toolCallId: 'x',
      toolName: 'build',
      isError: true,
      artifact: {
        byteLength: Buffer.byteLength(bigLog),
        lineCount: 5_000,
        kind: 'text',
        head: [`line 1 ${'z'.repeat(193)}…`],
        tail: [`line 5000 ${'z'.repeat(190)}…`],
      },
    });
    await artifact.close();
  });

  it('signs the viewer URL over its artifact, for the time asked, so the handler opens that one only', async () => {
    const store = await openStore();
    const clock = { now: Date.parse('2026-03-01T12:00:00Z') };
    const signer = createLinkSigner({
      key: 'a-link-signing-key-of-32-bytes!!',
      now: () => clock.now,
    });
    const origin = await listen(createArtifactHandler(store, { signedLinks: { signer } }));
    const other = await store.put('not for this UI\n');
    const [event] = await collect(
      uiToolEvents(
        emit([{ type: 'complete', toolCallId: 's', toolName: 'build', result: bigLog }]),
        {
          store,
          baseUrl: `${origin}/artifacts`,
          signedLinks: { signer, expiresIn: 600_000 },
        },
      ),
    );
    const reference = event && 'artifact' in event ? event.artifact : undefined;
    const url = new URL(reference?.url ?? '');
    expect(url.pathname).toBe(`/artifacts/${reference?.ref}/view`);
    expect(url.searchParams.get('expires')).toBe(String(clock.now / 1000 + 600));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('line 1 ');
    // The page's raw link works; the same signature opens neither the index nor another artifact.
    const raw = /href="([^"]*)">Download/.exec(text)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const body = await fetch(new URL(raw, origin), { headers: { Range: 'bytes=0-5' } });
    expect(body.status).toBe(206);
    expect(await body.text()).toBe('line 1');
    expect((await fetch(`${origin}/artifacts/${other.id}/view${url.search}`)).status).toBe(403);
    expect((await fetch(`${origin}/artifacts/${url.search}`)).status).toBe(403);
    expect((await fetch(`${origin}/artifacts/${reference?.ref}/view`)).status).toBe(403);
    clock.now += 600_000;
    expect((await fetch(url)).status).toBe(403);
  });
});
