import { HttpSpoolReader } from 'spoolforge';
import { readerChunks } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { collect, failure, numberedLog, quick } from '../../helpers/http-reader.js';
import { serveFiles, startServer, urlOf } from '../../helpers/http-servers.js';
import { tempFile } from '../../helpers/temp-files.js';

describe('HttpSpoolReader follows redirects as fetch does', () => {
  it('reads through relative and cross-origin redirects, keeping credentials at their origin', async () => {
    const text = numberedLog(30_000);
    const path = await tempFile(text);
    const target = await startServer(serveFiles(path));
    // Another port is another origin: the token must not go on to it.
    const hop = await startServer((request, response) => {
      const location =
        request.url === '/start' ? '/moved' : `${urlOf(target, path)}?from=${request.url}`;
      response.writeHead(request.url === '/start' ? 301 : 307, { location }).end();
    });
    const reader = new HttpSpoolReader(`${hop.origin}/start`, {
      headers: { authorization: 'Bearer tok-REDIRECT' },
      blockSize: 4096,
      partSize: 64 * 1024,
    });
    expect((await collect(readerChunks(reader))).toString()).toBe(text);
    expect(hop.requests.map(({ url }) => url).slice(0, 2)).toEqual(['/start', '/moved']);
    expect(hop.requests.every(({ authorization }) => authorization === 'Bearer tok-REDIRECT')).toBe(
      true,
    );
    expect(target.requests.length).toBeGreaterThan(2);
    expect(target.requests.every(({ authorization }) => authorization === undefined)).toBe(true);
    expect(target.requests.every(({ url }) => url.endsWith('?from=/moved'))).toBe(true);
    // Every request goes through the redirects again and counts once.
    expect(reader.stats.requests).toBe(target.requests.length);
  });

  it('fails a redirect loop, and a redirect to another scheme, to a blocked port or carrying credentials', async () => {
    const loop = await startServer((_request, response) =>
      response.writeHead(302, { location: '/again' }).end(),
    );
    const looped = await failure(
      new HttpSpoolReader(`${loop.origin}/log?sig=S3cr3tSig`, quick).byteLength(),
      'E_REMOTE_FAILED',
    );
    expect(looped.message).toBe(
      `${loop.origin}/log: the server answered with more than 20 redirects`,
    );
    expect(loop.requests).toHaveLength(21);
    const targets: Record<string, string> = {
      '/ftp': 'ftp://127.0.0.1/log',
      '/smtp': 'http://127.0.0.1:25/log',
      '/creds': 'http://u:pw@127.0.0.1:1/log',
    };
    const elsewhere = await startServer((request, response) =>
      response.writeHead(302, { location: targets[request.url ?? ''] ?? '/' }).end(),
    );
    const smtp = await failure(
      new HttpSpoolReader(`${elsewhere.origin}/smtp`).byteLength(),
      'E_REMOTE_FAILED',
    );
    expect(smtp.message).toBe(`${elsewhere.origin}/smtp: bad port`);
    const ftp = await failure(
      new HttpSpoolReader(`${elsewhere.origin}/ftp`).byteLength(),
      'E_REMOTE_FAILED',
    );
    expect(ftp.message).toBe(
      `${elsewhere.origin}/ftp: the server answered with a redirect to a ftp: URL`,
    );
    const credentials = await failure(
      new HttpSpoolReader(`${elsewhere.origin}/creds`).byteLength(),
      'E_REMOTE_FAILED',
    );
    expect(credentials.message).toMatch(/a redirect to a URL with credentials$/);
  });

  it('refuses a compressed body, which it asked not to be sent', async () => {
    const server = await startServer((request, response) => {
      expect(request.headers['accept-encoding']).toBe('identity');
      response
        .writeHead(206, {
          'content-range': 'bytes 0-9/100',
          'content-length': '10',
          'content-encoding': 'gzip',
        })
        .end('0123456789');
    });
    const error = await failure(
      new HttpSpoolReader(`${server.origin}/log.gz`, { ...quick, retries: 1 }).read(0, 10),
      'E_REMOTE_FAILED',
    );
    expect(error.message).toBe(
      `${server.origin}/log.gz: the server sent a gzip-encoded body although asked for identity`,
    );
    expect(server.requests).toHaveLength(1);
  });
});
