import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { createArtifactHandler } from 'spoolforge';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { freshPrefix, prefixOf, rawClient, useS3Server } from '../store/s3-store-helpers.js';

const s3 = useS3Server();

async function serve(remoteBody?: 'proxy' | 'redirect') {
  const server = s3();
  const store = await openS3ArtifactStore({
    bucket: server.bucket,
    prefix: freshPrefix(),
    clientConfig: server.clientConfig,
  });
  const lines = Array.from({ length: 50_000 }, (_, line) => `line ${line}\n`).join('');
  const record = await store.put(lines, { name: 'build log' });
  const handler = createArtifactHandler(store, remoteBody ? { remoteBody } : {});
  return { store, record, lines, base: `${await listen(handler)}/artifacts` };
}

describe('createArtifactHandler over an S3 store', () => {
  it('proxies the body with Range, conditionals and the record’s ETag', async () => {
    const { record, lines, base } = await serve();
    const whole = await fetch(`${base}/${record.id}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('etag')).toBe(`"${record.sha256}"`);
    expect(whole.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(whole.headers.get('content-length')).toBe(String(lines.length));
    expect(await whole.text()).toBe(lines);

    const before = s3().requests.length;
    const tail = await fetch(`${base}/build%20log`, { headers: { range: 'bytes=-11' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(
      `bytes ${lines.length - 11}-${lines.length - 1}/${lines.length}`,
    );
    expect(await tail.text()).toBe('line 49999\n');
    const dataReads = s3()
      .requests.slice(before)
      .filter((request) => request.url.includes('.data'));
    expect(dataReads.length).toBeLessThanOrEqual(2);

    const middle = await fetch(`${base}/${record.id}`, { headers: { range: 'bytes=5-10' } });
    expect([middle.status, await middle.text()]).toEqual([206, lines.slice(5, 11)]);
    const past = await fetch(`${base}/${record.id}`, { headers: { range: 'bytes=999999999-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${lines.length}`);
    const cached = await fetch(`${base}/${record.id}`, {
      headers: { 'if-none-match': `"${record.sha256}"` },
    });
    expect(cached.status).toBe(304);
    const other = await fetch(`${base}/${record.id}`, { headers: { 'if-match': '"nope"' } });
    expect(other.status).toBe(412);
    const stale = await fetch(`${base}/${record.id}`, {
      headers: { range: 'bytes=0-3', 'if-range': '"old"' },
    });
    expect([stale.status, (await stale.text()).length]).toEqual([200, lines.length]);
    const head = await fetch(`${base}/${record.id}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(lines.length)]);
  });

  it('redirects to a presigned URL that serves the bytes, when asked to', async () => {
    const { record, lines, base } = await serve('redirect');
    const response = await fetch(`${base}/${record.id}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    expect(location).toContain(`${s3().endpoint}/${s3().bucket}/`);
    expect(location).toContain('X-Amz-Signature=');
    const followed = await fetch(location, { headers: { range: 'bytes=0-6' } });
    expect([followed.status, await followed.text()]).toEqual([206, lines.slice(0, 7)]);
  });

  it('still lists and views S3 artifacts', async () => {
    const { base } = await serve();
    const listing = await fetch(`${base}/`, { headers: { accept: 'application/json' } });
    expect(listing.status).toBe(200);
    expect(JSON.stringify(await listing.json())).toContain('build log');
  });
  it('answers 404 without the body’s headers when the data is gone under its record', async () => {
    // A delete racing the request: the record was read, the data is no longer there.
    const { store, record, base } = await serve();
    await rawClient(s3()).send(
      new DeleteObjectCommand({
        Bucket: s3().bucket,
        Key: `${prefixOf(store)}objects/${record.id}.data`,
      }),
    );
    for (const headers of [{}, { range: 'bytes=5-10' }]) {
      const response = await fetch(`${base}/${record.id}`, { headers });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toBe('Artifact not found');
      for (const header of ['content-range', 'content-disposition', 'etag']) {
        expect(response.headers.get(header)).toBeNull();
      }
    }
  });
});
