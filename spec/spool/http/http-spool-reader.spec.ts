import { readFile, rename, truncate, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { FileSpoolReader, HttpSpoolReader, SpooledArtifact } from 'spoolforge';
import { readerChunks, tailOffset } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { collect, failure, numberedLog, quick } from '../../helpers/http-reader.js';
import { faulty, serveFiles, startServer, urlOf } from '../../helpers/http-servers.js';
import { tempDirectory, tempFile } from '../../helpers/temp-files.js';

describe('HttpSpoolReader against send', () => {
  it('finds the head and the last lines in one or two requests each', async () => {
    const path = await tempFile(numberedLog(60_000));
    const bytes = await readFile(path);
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path));
    const local = SpooledArtifact.fromFile(path);
    const remote = new SpooledArtifact(reader);
    expect(await remote.head(5)).toEqual(await local.head(5));
    expect(server.requests).toHaveLength(1);
    const start = await tailOffset(reader, 20);
    const lastLines = await collect(readerChunks(reader, { start }));
    expect(lastLines.toString().startsWith('59981 ')).toBe(true);
    expect(lastLines.toString().split('\n')).toHaveLength(21);
    expect(bytes.subarray(start)).toEqual(lastLines);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(reader.stats.bytesReceived).toBeLessThanOrEqual(3 * 128 * 1024);
    await remote.close();
    await local.close();
  });

  it('streams a scan in growing parts with read-ahead, byte for byte', async () => {
    const text = numberedLog(40_000);
    const path = await tempFile(text);
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path), {
      blockSize: 4096,
      partSize: 64 * 1024,
      readAhead: 3,
    });
    expect((await collect(readerChunks(reader))).toString()).toBe(text);
    const sizes = server.requests.slice(1).map(({ range }) => {
      const [start, end] = (range ?? '').replace('bytes=', '').split('-').map(Number);
      return (end as number) - (start as number) + 1;
    });
    expect(Math.max(...sizes)).toBe(64 * 1024);
    expect(sizes[1]).toBeLessThan(sizes[3] as number); // parts grow
    expect(reader.stats.bytesReceived).toBe(Buffer.byteLength(text));
    const grep = await new SpooledArtifact(reader).grep('ERROR', { maxCount: 3 });
    await using local = SpooledArtifact.fromFile(path);
    expect(grep).toEqual(await local.grep('ERROR', { maxCount: 3 }));
  });

  it('reads arbitrary ranges through the block cache, asking again only for missing blocks', async () => {
    const path = await tempFile(numberedLog(20_000));
    const bytes = await readFile(path);
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path), { blockSize: 8192 });
    const local = new FileSpoolReader(path);
    for (const [position, length] of [
      [0, 10],
      [8190, 5],
      [100_000, 40_000],
      [bytes.length - 3, 10],
      [bytes.length + 5, 10],
    ] as const) {
      expect(Buffer.from(await reader.read(position, length))).toEqual(
        Buffer.from(await local.read(position, length)),
      );
    }
    const count = server.requests.length;
    await reader.read(100_500, 30_000); // inside blocks already cached
    expect(server.requests.length).toBe(count);
    await local.close();
  });

  it('fetches a short final block with the one before it, so a tail costs one request', async () => {
    const line = `${'tail line'.padEnd(63, '.')}\n`; // 64 bytes
    // 50 blocks of 128 KiB (the default), and a final block of 64 bytes.
    const text = line.repeat(2048 * 50 + 1);
    const path = await tempFile(text);
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path));
    await reader.byteLength();
    const start = await tailOffset(reader, 5); // reads the last byte, then 64 KiB before it
    expect(Buffer.from(await reader.read(start, 1000)).toString()).toBe(line.repeat(5));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.range).toBe(`bytes=${49 * 131072}-${text.length - 1}`);
  });

  it('never downloads a byte twice when a scan reaches blocks a tail cached', async () => {
    const text = numberedLog(30_000);
    const size = Buffer.byteLength(text);
    const path = await tempFile(text);
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path), {
      blockSize: 4096,
      partSize: 64 * 1024,
    });
    await reader.read(size - 10_000, 10_000);
    expect((await collect(readerChunks(reader))).toString()).toBe(text);
    expect(server.bytesSent()).toBe(size);
    expect(reader.stats.bytesReceived).toBe(size);
  });

  it('stops requesting when a scan stops early (a head of a large object)', async () => {
    const path = await tempFile(numberedLog(200_000));
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path));
    for await (const _chunk of readerChunks(reader)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests.length).toBeLessThanOrEqual(2);
  });

  it('sends custom headers and goes through a custom fetch', async () => {
    const path = await tempFile('one\ntwo\n');
    const server = await startServer(serveFiles(path));
    const seen: string[] = [];
    const reader = new HttpSpoolReader(urlOf(server, path, '?X-Amz-Signature=secret'), {
      headers: { authorization: 'Bearer token-1' },
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    expect(Buffer.from(await reader.read(0, 100)).toString()).toBe('one\ntwo\n');
    expect(server.requests[0]?.authorization).toBe('Bearer token-1');
    expect(server.requests[0]?.url).toContain('X-Amz-Signature=secret');
    expect(seen).toHaveLength(1);
  });

  it('sends headers given as pairs or as Headers the way fetch would, and refuses a bad name', async () => {
    const path = await tempFile('one\n');
    const seen: IncomingHttpHeaders[] = [];
    const serve = serveFiles(path);
    const server = await startServer((request, response) => {
      seen.push(request.headers);
      serve(request, response);
    });
    const pairs = new HttpSpoolReader(urlOf(server, path), {
      headers: [
        ['X-Team', ' blue '],
        ['x-team', 'green'],
        ['Authorization', 'Bearer token-2'],
      ],
    });
    expect(Buffer.from(await pairs.read(0, 4)).toString()).toBe('one\n');
    expect(seen[0]?.['x-team']).toBe('blue, green');
    expect(seen[0]?.authorization).toBe('Bearer token-2');
    const headers = new Headers({ 'X-Team': 'red' });
    await new HttpSpoolReader(urlOf(server, path), { headers }).read(0, 4);
    expect(seen[1]?.['x-team']).toBe('red');
    expect(
      () => new HttpSpoolReader(urlOf(server, path), { headers: { 'bad name': 'x' } }),
    ).toThrow(expect.objectContaining({ code: 'E_INVALID_ARGUMENT' }));
  });

  it('sends each request to the URL requestUrl gives, through node:http, its secrets kept out of errors', async () => {
    const text = numberedLog(100_000);
    const path = await tempFile(text);
    const serve = serveFiles(path);
    const agents: (string | undefined)[] = [];
    // Like an object store: a signature is good for its first three requests only.
    const uses = new Map<string, number>();
    const server = await startServer((request, response) => {
      agents.push(request.headers['user-agent']);
      const signature = new URL(request.url ?? '/', 'http://localhost').searchParams.get('sig');
      const used = (uses.get(signature ?? '') ?? 0) + 1;
      uses.set(signature ?? '', used);
      if (signature?.startsWith('signed-') && used <= 3) return serve(request, response);
      response.writeHead(403, `expired: ${request.url}`).end();
    });
    let signed = 0;
    const reader = new HttpSpoolReader(urlOf(server, path, '?sig=never-sent'), {
      requestUrl: () => urlOf(server, path, `?sig=signed-${Math.floor(signed++ / 3)}-secret`),
    });
    expect((await collect(readerChunks(reader))).toString()).toBe(text);
    expect(server.requests.length).toBeGreaterThan(3);
    expect(server.requests.length).toBe(reader.stats.requests);
    expect(new Set(server.requests.map(({ url }) => url)).size).toBe(
      Math.ceil(server.requests.length / 3),
    );
    // fetch would send a User-Agent; node:http sends none.
    expect(agents.every((agent) => agent === undefined)).toBe(true);
    const revoked = new HttpSpoolReader(urlOf(server, path), {
      requestUrl: () => urlOf(server, path, '?sig=revoked-secret'),
    });
    const error = await failure(revoked.byteLength(), 'E_REMOTE_FORBIDDEN');
    expect(error.message).toContain('expired: /');
    expect(String(error.stack)).not.toContain('revoked-secret');
    const invalid = new HttpSpoolReader(urlOf(server, path), { requestUrl: () => 'ftp://x/y' });
    await failure(invalid.read(0, 1), 'E_INVALID_ARGUMENT');
  });

  it("sends credentials only to the reader URL's origin when requestUrl points elsewhere", async () => {
    const path = await tempFile('one\n');
    const seen: IncomingHttpHeaders[] = [];
    const serve = serveFiles(path);
    const home = await startServer(serve);
    const elsewhere = await startServer((request, response) => {
      seen.push(request.headers);
      serve(request, response);
    });
    const withCredentials = (server: typeof home) =>
      urlOf(server, path).replace('http://', 'http://alice:s3cret@');
    const away = new HttpSpoolReader(withCredentials(home), {
      headers: { Cookie: 'session=abc', 'X-Team': 'red' },
      requestUrl: () => urlOf(elsewhere, path),
    });
    expect(Buffer.from(await away.read(0, 4)).toString()).toBe('one\n');
    expect(seen[0]?.authorization).toBeUndefined();
    expect(seen[0]?.cookie).toBeUndefined();
    expect(seen[0]?.['x-team']).toBe('red');
    const same = new HttpSpoolReader(withCredentials(elsewhere), {
      requestUrl: () => `${urlOf(elsewhere, path)}?sig=x`,
    });
    await same.read(0, 4);
    expect(seen[1]?.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
  });

  it("keeps a redirect target's query out of errors", async () => {
    const server = await startServer((request, response) => {
      if (request.url?.startsWith('/deny')) {
        response.writeHead(403, `denied ${request.url}`).end();
        return;
      }
      response.writeHead(302, { location: '/deny?X-Amz-Signature=redirected-secret-123' }).end();
    });
    const error = await failure(
      new HttpSpoolReader(`${server.origin}/moved.log`).byteLength(),
      'E_REMOTE_FORBIDDEN',
    );
    expect(error.message).toContain('denied /deny');
    expect(String(error.stack)).not.toContain('redirected-secret-123');
  });

  it('keeps the URL of every request in flight out of errors, when requestUrl signs each one', async () => {
    const path = await tempFile(numberedLog(200_000));
    const serve = serveFiles(path);
    const server = await startServer((request, response) => {
      // The length is answered; then every request is refused slowly, its URL in the status.
      if (request.url?.includes('sig=first-')) return serve(request, response);
      setTimeout(() => response.writeHead(403, `denied ${request.url}`).end(), 300);
    });
    let signed = 0;
    const reader = new HttpSpoolReader(urlOf(server, path), {
      blockSize: 4096,
      requestUrl: () =>
        urlOf(server, path, `?sig=${signed++ === 0 ? 'first' : 'later'}-${signed}-secret`),
    });
    await reader.byteLength();
    // 40 reads of 40 blocks at once: 40 requests in flight, each with its own signature.
    const errors = await Promise.all(
      Array.from({ length: 40 }, (_, block) =>
        failure(reader.read(512 * 1024 + block * 8192, 16), 'E_REMOTE_FORBIDDEN'),
      ),
    );
    expect(server.requests.length).toBeGreaterThan(40);
    for (const error of errors) {
      expect(error.message).toContain('denied /');
      expect(String(error.stack)).not.toMatch(/later-\d+-secret/);
    }
  });

  it('reports a missing object or a refused one without the query string', async () => {
    const path = await tempFile('x\n');
    const server = await startServer(serveFiles(path));
    const missing = new HttpSpoolReader(`${server.origin}/nope.log?X-Amz-Signature=secret`);
    const notFound = await failure(missing.byteLength(), 'E_REMOTE_NOT_FOUND');
    expect(notFound.message).toContain(`${server.origin}/nope.log`);
    expect(notFound.message).not.toContain('secret');
    const forbidden = await startServer((_request, response) => {
      response.statusCode = 403;
      response.end('expired');
    });
    const refused = await failure(
      new HttpSpoolReader(`${forbidden.origin}/a?sig=secret`).read(0, 1),
      'E_REMOTE_FORBIDDEN',
    );
    expect(refused.message).not.toContain('secret');
    expect(() => new HttpSpoolReader('ftp://example.com/x')).toThrow(/not an http/);
  });

  it('gives an empty object (416 */0) length zero', async () => {
    const path = await tempFile('');
    const server = await startServer(serveFiles(path));
    const artifact = new SpooledArtifact(new HttpSpoolReader(urlOf(server, path)));
    expect(await artifact.byteLength()).toBe(0);
    expect(await artifact.lineCount()).toBe(0);
    expect(await artifact.tail(3)).toEqual([]);
  });
});

/**
 * A log served with a strong ETag `"v<version>"` that the test bumps when it replaces the
 * object; with `conditionals: false` the server ignores If-Match and If-Range (and sends no
 * Last-Modified), as some do.
 */
async function versionedObject(options: { conditionals: boolean }) {
  const path = join(await tempDirectory(), 'build.log');
  await writeFile(path, numberedLog(20_000));
  const state = { version: 1 };
  const server = await startServer(
    faulty(
      path,
      (_n, request, response) => {
        if (!options.conditionals) {
          delete request.headers['if-match'];
          delete request.headers['if-range'];
        }
        response.setHeader('etag', `"v${state.version}"`);
        return false;
      },
      { etag: false, lastModified: options.conditionals },
    ),
  );
  return {
    path,
    server,
    url: urlOf(server, path),
    set version(version: number) {
      state.version = version;
    },
  };
}

describe('HttpSpoolReader against faults', () => {
  it('retries 503 and 429, honouring Retry-After', async () => {
    const path = await tempFile(numberedLog(1000));
    const server = await startServer(
      faulty(path, (n, _request, response) => {
        if (n > 2) return false;
        response.writeHead(n === 1 ? 503 : 429, { 'retry-after': '1' }).end();
        return true;
      }),
    );
    const started = Date.now();
    const reader = new HttpSpoolReader(urlOf(server, path), quick);
    expect(await reader.byteLength()).toBe((await readFile(path)).length);
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900); // waited as asked, twice
  });

  it('gives up after its retries, and refuses a Retry-After past maxRetryDelay', async () => {
    const path = await tempFile('x\n');
    const always500 = await startServer((_request, response) => response.writeHead(500).end());
    const error = await failure(
      new HttpSpoolReader(`${always500.origin}/x?token=secret`, { ...quick, retries: 2 }).read(
        0,
        1,
      ),
      'E_REMOTE_FAILED',
    );
    expect(error.message).toMatch(/500.*after 3 attempts/);
    expect(error.message).not.toContain('secret');
    expect(always500.requests).toHaveLength(3);
    const slowDown = await startServer(
      faulty(path, (_n, _request, response) => {
        response.writeHead(429, { 'retry-after': '3600' }).end();
        return true;
      }),
    );
    const waitError = await failure(
      new HttpSpoolReader(urlOf(slowDown, path), quick).byteLength(),
      'E_REMOTE_FAILED',
    );
    expect(waitError.message).toMatch(/asks to wait 3600000 ms/);
  });

  it('resumes a body cut off mid-way from the last byte received', async () => {
    const text = numberedLog(30_000);
    const path = await tempFile(text);
    const server = await startServer(
      faulty(
        path,
        (n, request, response) => {
          response.setHeader('etag', '"v1"');
          if (n !== 2) return false;
          // Send the headers and part of the range, then drop the connection.
          const [start, end] = (request.headers.range ?? '').replace('bytes=', '').split('-');
          const first = Number(start);
          response.writeHead(206, {
            'content-range': `bytes ${first}-${end}/${Buffer.byteLength(text)}`,
            'content-length': String(Number(end) - first + 1),
          });
          response.write(Buffer.from(text).subarray(first, first + 1000), () =>
            response.socket?.destroy(),
          );
          return true;
        },
        { etag: false, lastModified: false },
      ),
    );
    const reader = new HttpSpoolReader(urlOf(server, path), { ...quick, blockSize: 4096 });
    expect((await collect(readerChunks(reader))).toString()).toBe(text);
    const retry = server.requests[2];
    const cut = server.requests[1];
    const cutStart = Number((cut?.range ?? '').replace('bytes=', '').split('-')[0]);
    expect(retry?.range).toMatch(new RegExp(`^bytes=${cutStart + 1000}-`));
  });

  it('fails with E_REMOTE_CHANGED when the object is replaced mid-read (If-Match → 412)', async () => {
    const object = await versionedObject({ conditionals: true });
    const reader = new HttpSpoolReader(object.url, { blockSize: 4096 });
    await reader.read(0, 10);
    await writeFile(`${object.path}.next`, numberedLog(20_001));
    await rename(`${object.path}.next`, object.path);
    object.version = 2;
    const error = await failure(reader.read(50_000, 10), 'E_REMOTE_CHANGED');
    expect(error.message).toMatch(/changed while being read/);
    expect(object.server.requests[1]?.ifMatch).toBe('"v1"');
    expect(object.server.requests[1]?.ifRange).toBe('"v1"');
  });

  it('fails with E_REMOTE_CHANGED when a server ignoring conditionals sends a new ETag or length', async () => {
    const object = await versionedObject({ conditionals: false });
    const reader = new HttpSpoolReader(object.url, { blockSize: 4096 });
    await reader.read(0, 10);
    object.version = 2;
    await failure(reader.read(50_000, 10), 'E_REMOTE_CHANGED');
    // Same ETag but shorter: the range is past the new end (416).
    object.version = 1;
    await truncate(object.path, 40_000);
    await failure(reader.read(60_000, 10), 'E_REMOTE_CHANGED');
  });

  it('reads a small body whole when Range is ignored, and refuses a large one', async () => {
    const small = await tempFile(numberedLog(100));
    const server = await startServer(serveFiles(small, { acceptRanges: false }));
    const artifact = SpooledArtifact.fromUrl(urlOf(server, small), { name: 'small' });
    await using local = SpooledArtifact.fromFile(small);
    expect(await artifact.tail(2)).toEqual(await local.tail(2));
    expect(server.requests).toHaveLength(1);
    const large = await tempFile(numberedLog(50_000), 'large.log');
    const largeServer = await startServer(serveFiles(large, { acceptRanges: false }));
    const error = await failure(
      new HttpSpoolReader(urlOf(largeServer, large)).byteLength(),
      'E_REMOTE_RANGE_UNSUPPORTED',
    );
    expect(error.message).toMatch(/ignores Range requests/);
  });

  it('aborts a slow response at once, and times out a stalled one', async () => {
    const path = await tempFile('slow\n');
    const server = await startServer(
      faulty(path, (_n, _request, response) => {
        response.writeHead(206, { 'content-range': 'bytes 0-4/5', 'content-length': '5' });
        response.flushHeaders(); // then nothing: a stalled body
        return true;
      }),
    );
    const controller = new AbortController();
    const reader = new HttpSpoolReader(urlOf(server, path), { signal: controller.signal });
    const pending = reader.byteLength();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await failure(pending, 'E_ABORTED');
    expect(Date.now() - started).toBeLessThan(5_000);
    const timed = new HttpSpoolReader(urlOf(server, path), { ...quick, timeout: 200, retries: 1 });
    const error = await failure(timed.byteLength(), 'E_REMOTE_FAILED');
    expect(error.message).toMatch(/no data for 200 ms.*after 2 attempts/);
  });

  it('fails reads after close()', async () => {
    const path = await tempFile('a\nb\n');
    const server = await startServer(serveFiles(path));
    const reader = new HttpSpoolReader(urlOf(server, path));
    expect(await reader.byteLength()).toBe(4);
    await reader.close();
    await failure(reader.read(0, 1), 'E_ABORTED');
    expect(reader.describe()).toEqual({ kind: 'http', locator: urlOf(server, path) });
  });
});
