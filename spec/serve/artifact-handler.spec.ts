import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactStore, createArtifactHandler, type StoredArtifactRecord } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { listen, rawRequest } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

const log = Array.from(
  { length: 40 },
  (_, index) => `${index + 1} ${index % 10 === 2 ? 'ERROR disk <full> & failing' : 'ok'}`,
).join('\n');
const body = `${log}\n`;

/** A store in a fresh directory with one build log, served at /artifacts. */
async function serve(options: { now?: () => number } = {}) {
  const directory = await tempDirectory();
  const store = await ArtifactStore.open(join(directory, 'store'), options);
  const record = await store.put(body, { name: 'build log 7', metadata: { job: 7 } });
  const origin = await listen(createArtifactHandler(store));
  return { directory, store, record, origin, base: `${origin}/artifacts` };
}

describe('createArtifactHandler: bodies', () => {
  it('serves the body with a strong SHA-256 ETag, its Content-Type and safe headers', async () => {
    const { record, base } = await serve();
    const response = await fetch(`${base}/${record.id}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
    expect(response.headers.get('etag')).toBe(`"${record.sha256}"`);
    expect(record.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="build log 7.txt"; filename*=UTF-8''build%20log%207.txt`,
    );
  });

  it('finds an artifact by its URL-encoded name, and keeps the declared media type', async () => {
    const { store, base } = await serve();
    await store.put('{"a":1}\n{"a":2}\n', {
      name: 'events/2024 "q1"',
      mediaType: 'application/x-ndjson',
    });
    const response = await fetch(`${base}/${encodeURIComponent('events/2024 "q1"')}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="events_2024 _q1_.jsonl"; filename*=UTF-8''events%2F2024%20%22q1%22.jsonl`,
    );
    expect(await response.text()).toBe('{"a":1}\n{"a":2}\n');
  });

  it('defaults the Content-Type from the kind', async () => {
    const { store, base } = await serve();
    const markdown = await store.put('# Title\n\nSome *text*.\n', { kind: 'markdown' });
    const response = await fetch(`${base}/${markdown.id}`);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  });

  it('answers a Range with 206 and Content-Range', async () => {
    const { record, base } = await serve();
    const response = await fetch(`${base}/${record.id}`, { headers: { Range: 'bytes=5-24' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 5-24/${record.byteLength}`);
    expect(await response.text()).toBe(body.slice(5, 25));
    const suffix = await fetch(`${base}/${record.id}`, { headers: { Range: 'bytes=-6' } });
    expect(await suffix.text()).toBe(body.slice(-6));
  });

  it('answers If-None-Match with the ETag with 304 and no body, as a cache revalidates', async () => {
    const { record, origin } = await serve();
    const path = `/artifacts/${record.id}`;
    const revalidated = await rawRequest(origin, path, {
      headers: { 'If-None-Match': `"${record.sha256}"` },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(`"${record.sha256}"`);
    const weak = await rawRequest(origin, path, {
      headers: { 'If-None-Match': `W/"${record.sha256}"` },
    });
    expect(weak.status).toBe(304);
    const other = await rawRequest(origin, path, { headers: { 'If-None-Match': '"other"' } });
    expect(other.status).toBe(200);
    expect(other.body).toBe(body);
    const mismatch = await rawRequest(origin, path, { headers: { 'If-Match': '"other"' } });
    expect(mismatch.status).toBe(412);
  });

  it('ignores a Range whose If-Range names another ETag, and honours a matching one', async () => {
    const { record, base } = await serve();
    const stale = await fetch(`${base}/${record.id}`, {
      headers: { Range: 'bytes=0-9', 'If-Range': '"0000"' },
    });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
    const fresh = await fetch(`${base}/${record.id}`, {
      headers: { Range: 'bytes=0-9', 'If-Range': `"${record.sha256}"` },
    });
    expect(fresh.status).toBe(206);
    expect(await fresh.text()).toBe(body.slice(0, 10));
  });

  it('answers an unsatisfiable Range with 416, Content-Range and a JSON error', async () => {
    const { record, base } = await serve();
    const response = await fetch(`${base}/${record.id}`, {
      headers: { Range: `bytes=${record.byteLength + 10}-` },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${record.byteLength}`);
    expect(await response.json()).toEqual({
      error: { status: 416, message: 'Range not satisfiable' },
    });
  });

  it('answers HEAD with the headers alone', async () => {
    const { record, base } = await serve();
    const response = await fetch(`${base}/${record.id}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(record.byteLength));
    expect(response.headers.get('etag')).toBe(`"${record.sha256}"`);
    expect(await response.text()).toBe('');
  });

  it('is 404 with a JSON error for an unknown artifact and for an expired one', async () => {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const { store, base } = await serve({ now: () => now });
    const unknown = await fetch(`${base}/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await unknown.json()).toEqual({ error: { status: 404, message: 'Artifact not found' } });
    const shortLived = await store.put('soon gone\n', { name: 'short', ttl: 60_000 });
    expect((await fetch(`${base}/${shortLived.id}`)).status).toBe(200);
    now += 60_001;
    expect((await fetch(`${base}/${shortLived.id}`)).status).toBe(404);
    expect((await fetch(`${base}/short`)).status).toBe(404);
    expect((await fetch(`${base}/${shortLived.id}/view`)).status).toBe(404);
  });

  it('never reads a file outside the store, whatever the id segment holds', async () => {
    const { directory, store, origin, base } = await serve();
    await writeFile(join(directory, 'outside.txt'), 'SECRET outside the store\n');
    for (const path of [
      '/artifacts/..%2Foutside.txt',
      '/artifacts/..%2F..%2Foutside.txt',
      '/artifacts/%2e%2e/outside.txt',
      '/artifacts/../outside.txt',
      `/artifacts/${encodeURIComponent(join(directory, 'outside.txt'))}`,
      '/artifacts/..%5Coutside.txt',
    ]) {
      const response = await rawRequest(origin, path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain('SECRET');
    }
    // A name is only a label: one that looks like a path serves that artifact's own bytes.
    await store.put('stored bytes\n', { name: '../outside.txt' });
    const byName = await fetch(`${base}/${encodeURIComponent('../outside.txt')}`);
    expect(await byName.text()).toBe('stored bytes\n');
  });

  it('is 405 with Allow for methods other than GET and HEAD', async () => {
    const { record, base } = await serve();
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(`${base}/${record.id}`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await fetch(base, { method: 'POST' })).status).toBe(405);
  });
});

describe('createArtifactHandler: listing', () => {
  it('lists the records as JSON, newest first, at the base path with or without a slash', async () => {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const { store, record, base } = await serve({ now: () => (now += 1_000) });
    const newer = await store.put('[1, 2, 3]\n', { name: 'numbers', ttl: 3_600_000 });
    for (const url of [base, `${base}/`, `${base}?format=json`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept');
      const { artifacts } = (await response.json()) as { artifacts: StoredArtifactRecord[] };
      expect(artifacts.map((artifact) => artifact.id)).toEqual([newer.id, record.id]);
      expect(artifacts[1]).toEqual({
        id: record.id,
        name: 'build log 7',
        kind: 'text',
        mediaType: 'text/plain',
        byteLength: body.length,
        lineCount: 40,
        createdAt: record.createdAt,
        expiresAt: null,
        metadata: { job: 7 },
        sha256: record.sha256,
      });
      expect(artifacts[0]).toMatchObject({ kind: 'json', expiresAt: newer.createdAt + 3_600_000 });
    }
  });

  it('serves the HTML index when Accept prefers it or format=html asks for it', async () => {
    const { record, base } = await serve();
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const [url, accept] of [
      [`${base}/`, browserAccept],
      [`${base}?format=html`, '*/*'],
    ] as const) {
      const response = await fetch(url, { headers: { Accept: accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await response.text();
      expect(page).toContain(`href="/artifacts/${record.id}/view"`);
      expect(page).toContain('build log 7');
    }
    const json = await fetch(`${base}/`, {
      headers: { Accept: 'application/json, text/html;q=0.5' },
    });
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await fetch(`${base}?format=xml`)).status).toBe(400);
  });
});

describe('createArtifactHandler: viewer', () => {
  it('runs grep through the model tool and shows the numbered, escaped lines', async () => {
    const { record, base } = await serve();
    const response = await fetch(`${base}/${record.id}/view?op=grep&pattern=ERROR&context=1`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('3:3 ERROR disk &lt;full&gt; &amp; failing\n');
    expect(page).toContain('2-2 ok\n');
    expect(page).toContain('4 matching lines.');
    expect(page).toContain(`href="/artifacts/${record.id}"`); // the raw body
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('reads line ranges and the last lines by name, with the model tools’ arguments and bounds', async () => {
    const { base } = await serve();
    const view = `${base}/${encodeURIComponent('build log 7')}/view`;
    const first = await (await fetch(`${view}?op=read&end=2`)).text();
    expect(first).toContain('lines 1–2 of 40:\n1:1 ok\n2:2 ok\n</pre>');
    expect(await (await fetch(`${view}?op=read&last=1`)).text()).toContain(
      'lines 40–40 of 40:\n40:40 ok\n</pre>',
    );
    const lines = await (await fetch(`${view}?op=read&start=12&end=13`)).text();
    expect(lines).toContain('lines 12–13 of 40:\n12:12 ok\n13:13 ERROR');
    // Without a query, the first lines up to the bounds, as artifact_read with neither.
    expect(await (await fetch(view)).text()).toContain('lines 1–40 of 40:\n');
    expect(await (await fetch(`${view}?op=head`)).text()).toContain('op must be one of read, grep');
  });

  it('shows bad input as an escaped message with 400, never a crash', async () => {
    const { record, base } = await serve();
    const view = `${base}/${record.id}/view`;
    const badRegex = await fetch(`${view}?op=grep&pattern=${encodeURIComponent('(<b>')}`);
    expect(badRegex.status).toBe(400);
    const page = await badRegex.text();
    expect(page).toContain('Invalid regular expression /(&lt;b&gt;/');
    expect(page).not.toContain('(<b>');
    for (const query of [
      'op=read&last=-3',
      'op=read&start=0',
      'op=read&start=9&end=2',
      'op=read&last=x',
      'op=read&start=2&last=3',
      'op=rm',
    ]) {
      const response = await fetch(`${view}?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text(), query).toContain('class="problem"');
    }
    expect((await fetch(`${view}?op=read&end=1`)).status).toBe(200); // the server is still fine
  });

  it('escapes a name that is markup everywhere it is shown', async () => {
    const { store, base } = await serve();
    const hostile = await store.put('x\n', {
      name: '<script>alert(1)</script>',
      metadata: { note: '"><img src=x onerror=alert(2)>' },
    });
    for (const url of [`${base}/?format=html`, `${base}/${hostile.id}/view`]) {
      const page = await (await fetch(url)).text();
      expect(page, url).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page, url).not.toContain('<script');
      expect(page, url).not.toContain('<img');
    }
  });
});

describe('createArtifactHandler: hosting', () => {
  it('calls next() for paths outside its base path, as Express middleware', async () => {
    const directory = await tempDirectory();
    const store = await ArtifactStore.open(directory);
    const handler = createArtifactHandler(store, { basePath: '/debug/artifacts/' });
    const origin = await listen((request, response) =>
      handler(request, response, () => response.end(`next: ${request.url}`)),
    );
    expect(await (await fetch(`${origin}/health`)).text()).toBe('next: /health');
    expect(await (await fetch(`${origin}/debug/artifactsX`)).text()).toBe(
      'next: /debug/artifactsX',
    );
    expect((await fetch(`${origin}/debug/artifacts`)).status).toBe(200);
    const alone = await listen(createArtifactHandler(store));
    expect((await fetch(`${alone}/health`)).status).toBe(404);
  });
});
