import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPrefix, useS3Server } from './s3-store-helpers.js';

const s3 = useS3Server();
const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

/**
 * A server in front of s3rver that also implements what it lacks: ListMultipartUploads (the
 * `uploads` given) and AbortMultipartUpload (recorded, answered 204). Everything else is
 * forwarded as it came, Host and signature included.
 */
async function withMultipartListing(uploads: { key: string; uploadId: string; initiated: Date }[]) {
  const target = new URL(s3().endpoint);
  const aborted: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.searchParams.has('uploads')) {
      const entries = uploads
        .filter((upload) => upload.key.startsWith(url.searchParams.get('prefix') ?? ''))
        .map(
          (upload) =>
            `<Upload><Key>${upload.key}</Key><UploadId>${upload.uploadId}</UploadId>` +
            `<Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
        )
        .join('');
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult ' +
          `xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${s3().bucket}</Bucket>` +
          `<IsTruncated>false</IsTruncated>${entries}</ListMultipartUploadsResult>`,
      );
      return;
    }
    if (request.method === 'DELETE' && url.searchParams.has('uploadId')) {
      aborted.push(url.searchParams.get('uploadId') ?? '');
      response.writeHead(204).end();
      return;
    }
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, aborted };
}

describe('gc where the server lists multipart uploads', () => {
  it('aborts unmarked uploads under the prefix older than a day, and no others', async () => {
    const prefix = freshPrefix();
    const day = 24 * 60 * 60 * 1000;
    const old = new Date(Date.now() - 2 * day);
    const proxy = await withMultipartListing([
      { key: `${prefix}objects/${'a'.repeat(22)}.data`, uploadId: 'abandoned', initiated: old },
      { key: `${prefix}objects/${'b'.repeat(22)}.data`, uploadId: 'recent', initiated: new Date() },
    ]);
    const store = await openS3ArtifactStore({
      bucket: s3().bucket,
      prefix,
      clientConfig: { ...s3().clientConfig, endpoint: proxy.endpoint },
    });
    const report = await store.gc();
    expect(proxy.aborted).toEqual(['abandoned']);
    expect(report.abortedUploads).toEqual(['abandoned']);
    expect(report.unabortedUploads).toEqual([]);
  });
  it('leaves the uploads of keys that are not its own, under its objects/ too', async () => {
    const prefix = freshPrefix();
    const old = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    const proxy = await withMultipartListing([
      // A store whose prefix lies under this one's objects/, and someone's own file.
      {
        key: `${prefix}objects/nested/objects/${'c'.repeat(22)}.data`,
        uploadId: 'nested',
        initiated: old,
      },
      { key: `${prefix}objects/video.mp4`, uploadId: 'foreign', initiated: old },
    ]);
    const store = await openS3ArtifactStore({
      bucket: s3().bucket,
      prefix,
      clientConfig: { ...s3().clientConfig, endpoint: proxy.endpoint },
    });
    const report = await store.gc();
    expect(proxy.aborted).toEqual([]);
    expect(report.abortedUploads).toEqual([]);
  });
});
