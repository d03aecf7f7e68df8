import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ArtifactHandlerOptions,
  ArtifactStore,
  createArtifactHandler,
  SpoolforgeError,
  spool,
} from 'spoolforge';
import { regexWorkerPool } from 'spoolforge/engine';
import { describe, expect, it, vi } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

/** A store in a fresh directory served at /artifacts on 127.0.0.1. */
async function serve(options: ArtifactHandlerOptions = {}) {
  const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
  const origin = await listen(createArtifactHandler(store, options));
  return { store, base: `${origin}/artifacts` };
}

describe('createArtifactHandler: faults', () => {
  it('answers a suffix Range longer than the body with all of it (206), as RFC 9110 says', async () => {
    const { store, base } = await serve();
    const record = await store.put('fifteen bytes!\n');
    expect(record.byteLength).toBe(15);
    const whole = await fetch(`${base}/${record.id}`, { headers: { Range: 'bytes=-100' } });
    expect(whole.status).toBe(206);
    expect(whole.headers.get('content-range')).toBe('bytes 0-14/15');
    expect(await whole.text()).toBe('fifteen bytes!\n');
    const exact = await fetch(`${base}/${record.id}`, { headers: { Range: 'bytes=-15' } });
    expect(exact.status).toBe(206);
    expect(exact.headers.get('content-range')).toBe('bytes 0-14/15');
    await exact.arrayBuffer();
    const last = await fetch(`${base}/${record.id}`, { headers: { Range: 'bytes=-3' } });
    expect(await last.text()).toBe('s!\n');
    const past = await fetch(`${base}/${record.id}`, { headers: { Range: 'bytes=20-30' } });
    expect(past.status).toBe(416);
    await past.arrayBuffer();
  });

  it('says which artifact is damaged, with 409 and a readable message, on every route', async () => {
    const { store, base } = await serve();
    const older = await store.put('the old report\n', { name: 'report' });
    const newer = await store.put('the new report\n', { name: 'report' });
    await writeFile(join(store.directory, 'objects', `${newer.id}.msgpack`), Buffer.from([0xc1]));
    for (const path of [newer.id, 'report']) {
      const body = await fetch(`${base}/${path}`);
      expect(body.status).toBe(409);
      const { error } = (await body.json()) as { error: { message: string } };
      expect(error.message).toContain(`Artifact ${newer.id} is damaged`);
      expect(error.message).not.toContain(store.directory);
      const page = await fetch(`${base}/${path}/view`);
      expect(page.status).toBe(409);
      expect(await page.text()).toContain(`Artifact ${newer.id} is damaged`);
    }
    const listing = (await (await fetch(`${base}/`)).json()) as { artifacts: { id: string }[] };
    expect(listing.artifacts.map((artifact) => artifact.id)).toEqual([older.id]);
  });

  it('shows "never" for a ttl of forever (1e16, MAX_SAFE_INTEGER, Infinity) on the index and viewer', async () => {
    const { store, base } = await serve();
    for (const ttl of [1e16, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY]) {
      const record = await store.put('kept for ever\n', { ttl });
      const page = await fetch(`${base}/${record.id}/view`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('expires never');
    }
    const index = await fetch(`${base}/?format=html`);
    expect(index.status).toBe(200);
    expect((await index.text()).match(/<td>never<\/td>/g)).toHaveLength(3);
  });

  it('bounds a 50 MB one-line JSON on the viewer pages: a piece of the line and a note that it is cut', async () => {
    const { store, base } = await serve();
    const entries = Array.from(
      { length: 1_900_000 },
      (_, index) => `"key${index}":"value ${index}"`,
    );
    const json = `{${entries.join(',')}}`;
    expect(json.length).toBeGreaterThan(50_000_000);
    const record = await store.put(json, { name: 'minified' });
    expect(record.kind).toBe('json');
    // Line pages read a few KiB of the line and say its size; grep shows the text around the
    // match, as a model's artifact_grep does.
    const size = record.byteLength;
    const start = '1:{&quot;key0&quot;:&quot;value 0&quot;';
    const lineCut = `line cut: 2000 chars of a ${(size / 2 ** 20).toFixed(1)} MiB line`;
    for (const [query, note, shown] of [
      ['', lineCut, start],
      ['op=read&end=1', lineCut, start],
      ['op=read&last=10', lineCut, start],
      ['op=read&start=1&end=1', lineCut, start],
      [
        'op=grep&pattern=key1899999',
        `of ${size.toLocaleString('en-US')}]`,
        '&quot;key1899999&quot;',
      ],
      ['op=grep&pattern=value%20\\d%2B&context=2', `line cut: 2000 of ${size} chars`, start],
    ]) {
      const response = await fetch(`${base}/${record.id}/view?${query}`);
      const page = await response.text();
      expect(response.status, query).toBe(200);
      expect(Buffer.byteLength(page), query).toBeLessThan(1_000_000);
      expect(page, query).toContain(note);
      expect(page, query).toContain(shown);
    }
  });
});

describe('createArtifactHandler: bounded regex work', () => {
  it('runs a few greps at once, queues a few, refuses the rest with 429, and a body is still served at once', async () => {
    const { store, base } = await serve({ maxConcurrentQueries: 2, maxQueuedQueries: 4 });
    // Each line makes (a+)+\b$ backtrack far longer than the viewer's 10 s regex budget.
    const victim = await store.put(`${'a'.repeat(40)}b\n`.repeat(20), { name: 'victim' });
    const tiny = await store.put('tiny\n');
    const controller = new AbortController();
    const finished: { status: number; retryAfter: string | null }[] = [];
    const greps = Array.from({ length: 30 }, async () => {
      const url = `${base}/${victim.id}/view?op=grep&pattern=(a%2B)%2B%5Cb%24`;
      const response = await fetch(url, { signal: controller.signal });
      await response.arrayBuffer();
      finished.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
    });
    const settled = Promise.allSettled(greps);
    const body = await fetch(`${base}/${tiny.id}`);
    expect(await body.text()).toBe('tiny\n');
    // The 24 past the 2 running and the 4 queued are refused at once; the 6 others still run.
    await vi.waitFor(() => expect(finished).toHaveLength(24), { timeout: 5_000 });
    for (const refusal of finished) {
      expect(refusal.status).toBe(429);
      expect(Number(refusal.retryAfter)).toBeGreaterThan(0);
    }
    controller.abort();
    const outcomes = await settled;
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(6);
    expect(finished).toHaveLength(24);
    // With the client gone the work is dropped: the next grep runs at once.
    const next = await fetch(`${base}/${tiny.id}/view?op=grep&pattern=t.n`);
    expect(next.status).toBe(200);
    expect(await next.text()).toContain('1:tiny');
  });

  it('JSON and Markdown queries take turns of the same pool; reads do not', async () => {
    const { store, base } = await serve({ maxConcurrentQueries: 1, maxQueuedQueries: 0 });
    const victim = await store.put(`${'a'.repeat(40)}b\n`.repeat(20), { name: 'victim' });
    const json = await store.put('{"a":[1,2,3]}', { mediaType: 'application/json' });
    const controller = new AbortController();
    const holding = fetch(`${base}/${victim.id}/view?op=grep&pattern=(a%2B)%2B%5Cb%24`, {
      signal: controller.signal,
    }).catch(() => undefined);
    // Until the grep holds the slot: starting its worker thread may take seconds on a busy machine.
    await vi.waitFor(
      async () => {
        const shape = await fetch(`${base}/${json.id}/view?op=shape`);
        await shape.arrayBuffer();
        expect(shape.status).toBe(429);
      },
      { timeout: 15_000, interval: 50 },
    );
    const read = await fetch(`${base}/${json.id}/view?op=read`);
    expect(read.status).toBe(200);
    controller.abort();
    await holding;
    await vi.waitFor(async () => {
      const shape = await fetch(`${base}/${json.id}/view?op=shape`);
      expect(shape.status).toBe(200);
      expect(await shape.text()).toContain('array 1');
    });
  });

  it("answers 429 while other callers' greps fill the process's regex threads", async () => {
    const { store, base } = await serve();
    const catastrophic = `${'a'.repeat(40)}b\n`;
    const victim = await store.put(catastrophic);
    await using artifact = await spool(catastrophic);
    // Greps from code wait their turn: 2 run and 8 wait until their 2 s budget runs out.
    const others = Array.from({ length: 10 }, () =>
      artifact.grep('(a+)+\\b$', { timeout: 2_000 }).catch((error: unknown) => error),
    );
    await vi.waitFor(() => expect(regexWorkerPool.stats.waiting).toBe(8), { timeout: 5_000 });
    const response = await fetch(`${base}/${victim.id}/view?op=grep&pattern=(a%2B)%2B%5Cb%24`);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.text()).toContain('busy');
    const codes = (await Promise.all(others)).map(
      (error) => SpoolforgeError.isInstance(error) && error.code,
    );
    expect(codes.sort()).toEqual([
      ...Array(8).fill('E_BUSY'),
      'E_REGEX_TIMEOUT',
      'E_REGEX_TIMEOUT',
    ]);
  });

  it('refuses a pool that could never run a grep', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    for (const options of [{ maxConcurrentQueries: 0 }, { maxQueuedQueries: -1 }]) {
      expect(() => createArtifactHandler(store, options)).toThrow(
        expect.objectContaining({ code: 'E_INVALID_ARGUMENT' }),
      );
    }
  });
});
