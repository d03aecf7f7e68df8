import { join } from 'node:path';
import { ArtifactStore, createArtifactHandler } from 'spoolforge';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';
import { freshPrefix, useS3Server } from '../store/s3-store-helpers.js';

const s3 = useS3Server();
const body = Array.from({ length: 500 }, (_, line) => `line ${line}\n`).join('');

const stores = {
  local: async () => ArtifactStore.open(join(await tempDirectory(), 'store')),
  'S3, proxied': async () =>
    openS3ArtifactStore({
      bucket: s3().bucket,
      prefix: freshPrefix(),
      clientConfig: s3().clientConfig,
    }),
};

describe.each(Object.entries(stores))('If-Range, %s body', (_, open) => {
  /** Status and body length of a `bytes=0-9` request with `ifRange`. */
  async function rangeWith(ifRange: (etag: string) => string) {
    const store = await open();
    const record = await store.put(body, { name: 'log' });
    const base = `${await listen(createArtifactHandler(store))}/artifacts`;
    const response = await fetch(`${base}/${record.id}`, {
      headers: { Range: 'bytes=0-9', 'If-Range': ifRange(`"${record.sha256}"`) },
    });
    return [response.status, (await response.text()).length];
  }

  it('honours the Range when If-Range is the strong ETag itself', async () => {
    expect(await rangeWith((etag) => etag)).toEqual([206, 10]);
  });

  it('sends the whole body for a weak validator of the same tag: a weak tag never matches', async () => {
    expect(await rangeWith((etag) => `W/${etag}`)).toEqual([200, body.length]);
  });

  it('sends the whole body when If-Range holds more than the one tag', async () => {
    expect(await rangeWith((etag) => `"other", ${etag}`)).toEqual([200, body.length]);
  });

  it('sends the whole body for a date: the body has no Last-Modified to compare it with', async () => {
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    expect(await rangeWith(() => future)).toEqual([200, body.length]);
  });
});
