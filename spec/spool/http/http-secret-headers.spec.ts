import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { HttpSpoolReader } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { failure, quick } from '../../helpers/http-reader.js';
import { startServer } from '../../helpers/http-servers.js';

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Credentials the requests carry, in every form a server might echo them. */
const secrets = [
  'hunter2-PW',
  'alice:hunter2-PW',
  base64('alice:hunter2-PW'),
  'ghp_SECRETTOKEN',
  base64('ghp_SECRETTOKEN:'),
  'tok-BEARER-1',
  'COOKIE-VAL',
  'KEY-123456',
  'proxyuser:PROXY-PW',
  'PROXY-PW',
  base64('proxyuser:PROXY-PW'),
  'S3cr3tSig',
];

/** Secret headers of every kind a caller passes. */
const secretHeaders = {
  authorization: 'Bearer tok-BEARER-1',
  cookie: 'session=COOKIE-VAL; theme=dark',
  'x-api-key': 'KEY-123456',
  'proxy-authorization': `Basic ${base64('proxyuser:PROXY-PW')}`,
};

/** Everything an error can show: message, String(), stack, JSON, down its chain of causes. */
function shown(error: unknown): string {
  const texts = [inspect(error, { depth: 8 })];
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    texts.push(cause.message, String(cause), cause.stack ?? '', JSON.stringify(cause));
  }
  return texts.join('\n');
}

/**
 * What a careless server echoes of a request: each credential header whole, the part after its
 * scheme, a Basic credential decoded, and the cookie's value.
 */
function echo(request: IncomingMessage): string {
  const parts: string[] = [];
  for (const name of ['authorization', 'proxy-authorization', 'cookie', 'x-api-key']) {
    const value = request.headers[name];
    if (typeof value !== 'string') continue;
    parts.push(`${name}=${value}`);
    const [scheme, credentials = ''] = value.split(' ');
    if (credentials) parts.push(`token ${credentials}`);
    if (scheme === 'Basic') parts.push(`user ${Buffer.from(credentials, 'base64').toString()}`);
    const session = /session=([^;]+)/.exec(value)?.[1];
    if (session) parts.push(`session ${session}`);
  }
  return parts.join(' ');
}

const size = 100_000;

/** 206 replies of a 100 000-byte object; the failure the path names, echoing the credentials. */
function echoingServer(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const said = echo(request);
  if (path === '/forbidden') return void response.writeHead(403, `Denied for ${said}`).end(said);
  if (path === '/missing') return void response.writeHead(404, `No object for ${said}`).end(said);
  if (path === '/broken') return void response.writeHead(500, `Failed for ${said}`).end(said);
  const [, from = '0', to = '0'] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '') ?? [];
  const start = Number(from);
  const end = Math.min(Number(to), size - 1);
  const range = path === '/range' ? `bytes for ${said}` : `bytes ${start}-${end}/${size}`;
  // The first reply's ETag, then one that echoes the request: the object "changed".
  const etag = start === 0 ? '"v1"' : `"${said.replaceAll('"', '')}"`;
  response.writeHead(206, { 'content-range': range, etag, 'content-length': end - start + 1 });
  response.end('x'.repeat(end - start + 1));
}

describe('HttpSpoolReader errors never show a credential a server echoes', () => {
  it('scrubs the Basic credential it builds from the URL from a status line', async () => {
    const server = await startServer((request, response) => {
      response.writeHead(403, `Denied for ${request.headers.authorization}`).end();
    });
    const url = `${server.origin.replace('://', '://alice:hunter2-PW@')}/build.log?sig=S3cr3tSig`;
    const error = await failure(new HttpSpoolReader(url).byteLength(), 'E_REMOTE_FORBIDDEN');
    expect(error.message).toBe(
      `${server.origin}/build.log: 403 Denied for … (check the credentials; a presigned URL may have expired)`,
    );
    for (const secret of secrets) expect(shown(error)).not.toContain(secret);
  });

  it('scrubs every header passed, the URL’s user and password, whole and in parts, on every failure', async () => {
    const server = await startServer(echoingServer);
    const withPassword = server.origin.replace('://', '://alice:hunter2-PW@');
    const withToken = server.origin.replace('://', '://ghp_SECRETTOKEN@');
    const cases = [
      { path: '/forbidden', code: 'E_REMOTE_FORBIDDEN', status: '403 Denied for ' },
      { path: '/missing', code: 'E_REMOTE_NOT_FOUND', status: '404 No object for ' },
      { path: '/broken', code: 'E_REMOTE_FAILED', status: '500 Failed for ' },
      { path: '/range', code: 'E_REMOTE_FAILED', status: 'got Content-Range bytes for ' },
      { path: '/etag', code: 'E_REMOTE_CHANGED', status: 'its ETag went from "v1" to "' },
    ];
    const origins = [withPassword, withToken, server.origin];
    const headerForms = [
      {},
      secretHeaders,
      Object.entries(secretHeaders),
      new Headers(secretHeaders),
    ];
    for (const { path, code, status } of cases) {
      for (const origin of origins) {
        for (const headers of headerForms) {
          const label = `${path} ${origin} ${JSON.stringify(headers)}`;
          const reader = new HttpSpoolReader(`${origin}${path}?sig=S3cr3tSig`, {
            ...quick,
            retries: 1,
            blockSize: 4096,
            headers,
          });
          const read =
            path === '/etag'
              ? reader.read(0, 10).then(() => reader.read(50_000, 10))
              : reader.byteLength();
          const error = await failure(read, code);
          expect(error.message.startsWith(`${server.origin}${path}`), label).toBe(true);
          expect(error.message, label).toContain(status);
          for (const secret of secrets) expect(shown(error), label).not.toContain(secret);
        }
      }
    }
  });

  it('scrubs them from what a fetch of one’s own throws', async () => {
    const server = await startServer(echoingServer);
    const reader = new HttpSpoolReader(
      `${server.origin.replace('://', '://ghp_SECRETTOKEN@')}/build.log`,
      {
        headers: secretHeaders,
        fetch: async (_input, init) => {
          const sent = JSON.stringify(Object.fromEntries(new Headers(init?.headers)));
          const error = new TypeError(`proxy refused ${sent}`, {
            cause: new Error(`with ${new Headers(init?.headers).get('cookie')}`),
          });
          // What a client library attaches: the request, headers and all.
          throw Object.assign(error, { status: 407, request: { headers: init?.headers } });
        },
      },
    );
    const error = await failure(reader.byteLength(), 'E_REMOTE_FAILED');
    expect(error.message).toBe(`${server.origin}/build.log: with …`);
    expect(shown(error)).toContain('proxy refused {');
    expect(shown(error)).toContain('"x-api-key":"…"');
    expect((error.cause as { status?: number }).status).toBe(407);
    for (const secret of secrets) expect(shown(error)).not.toContain(secret);
  });

  it('refuses a header it cannot send without quoting its value', async () => {
    const build = () =>
      new HttpSpoolReader('http://127.0.0.1:1/build.log', {
        headers: { 'x-api-key': 'KEY-123456\nmore' },
      });
    let error: unknown;
    try {
      build();
    } catch (caught) {
      error = caught;
    }
    expect((error as { code?: string }).code).toBe('E_INVALID_ARGUMENT');
    expect((error as Error).message).toBe(
      'http://127.0.0.1:1/build.log: options.headers has an invalid header name or value',
    );
    for (const secret of secrets) expect(shown(error)).not.toContain(secret);
  });
});
