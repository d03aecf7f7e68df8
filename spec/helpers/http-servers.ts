import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import send from 'send';
import { afterEach } from 'vitest';

/** What a test server saw of one request. */
export interface LoggedRequest {
  method: string;
  url: string;
  range: string | undefined;
  ifRange: string | undefined;
  ifMatch: string | undefined;
  authorization: string | undefined;
}

/** A server on 127.0.0.1 and the requests it has answered. */
export interface TestServer {
  /** `http://127.0.0.1:port` */
  origin: string;
  requests: LoggedRequest[];
  /** Payload bytes written to responses. */
  bytesSent: () => number;
  close: () => Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Starts `handler` on 127.0.0.1 (closed after the test), logging requests and counting bytes. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: LoggedRequest[] = [];
  let bytes = 0;
  const server = createServer((request, response) => {
    const header = (name: string) => request.headers[name] as string | undefined;
    requests.push({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      range: header('range'),
      ifRange: header('if-range'),
      ifMatch: header('if-match'),
      authorization: header('authorization'),
    });
    const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk && typeof chunk !== 'function') bytes += Buffer.byteLength(chunk as Buffer);
      return write(chunk, ...rest);
    }) as typeof response.write;
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testServer: TestServer = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    bytesSent: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(testServer);
  return testServer;
}

/**
 * Serves the files of `path`'s directory with `send` (Range, If-Range, If-Match, ETag,
 * Last-Modified), ignoring the query string as object stores ignore a presigned URL's.
 */
export function serveFiles(path: string, options: send.SendOptions = {}): Handler {
  return (request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    send(request, pathname, { root: dirname(path), ...options })
      .on('error', (error: { status?: number }) => {
        response.statusCode = error.status ?? 500;
        response.end();
      })
      .pipe(response);
  };
}

/** Serves `path` with send, but lets `fault` answer request number `n` (1-based) first. */
export function faulty(
  path: string,
  fault: (n: number, request: IncomingMessage, response: ServerResponse) => boolean,
  options: Parameters<typeof serveFiles>[1] = {},
): Handler {
  const serve = serveFiles(path, options);
  let count = 0;
  return (request, response) => {
    count++;
    if (!fault(count, request, response)) serve(request, response);
  };
}

/** The URL of `path` on `server`, as {@link serveFiles} serves it. */
export function urlOf(server: TestServer, path: string, query = ''): string {
  return `${server.origin}/${encodeURIComponent(basename(path))}${query}`;
}

/** A server on 127.0.0.1 running `listener`, closed after the test; resolves to its origin. */
export async function listen(listener: Handler): Promise<string> {
  return (await startServer(listener)).origin;
}

/**
 * A request sent exactly as written: `fetch` would resolve `..` and `%2e%2e` in the path, and
 * adds `Cache-Control: no-cache` to conditional requests (which a server rightly answers in full).
 */
export function rawRequest(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const { body, ...rest } = options;
    httpRequest({ hostname, port, path, ...rest }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    })
      .on('error', reject)
      .end(body);
  });
}

/** Byte `position` of the body a {@link patternServer} sends: 63 `x` and a newline, repeated. */
export function patternBytes(start: number, end: number): Buffer {
  return Buffer.from(
    Array.from({ length: end - start }, (_, index) => ((start + index) % 64 === 63 ? 10 : 120)),
  );
}

/** What a {@link patternServer} answers to one request: a status, headers, and a body. */
export interface PatternReply {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The body is the pattern's bytes `[from, from + length)`. */
  from: number;
  length: number;
}

/** A {@link TestServer} whose bodies are written only as fast as the client reads them. */
export interface PatternServer extends TestServer {
  /** Resolves once every response has ended or lost its connection (at most 2 s). */
  settled: () => Promise<void>;
}

/**
 * An adversary: answers each request (numbered from 1) as `answer` says, with a body of the
 * repeating pattern that may be far larger than anything asked. Each write waits for `drain`
 * and writing stops when the connection closes, so `bytesSent()` counts what the client
 * actually pulled, give or take the socket buffers.
 */
export async function patternServer(
  answer: (request: IncomingMessage, n: number) => PatternReply,
): Promise<PatternServer> {
  const pattern = patternBytes(0, 64 * 1024 + 64);
  const open = new Set<Promise<void>>();
  let count = 0;
  const server = await startServer((request, response) => {
    const reply = answer(request, ++count);
    response.writeHead(reply.status, reply.headers);
    const done = (async () => {
      for (let sent = 0; sent < reply.length && !response.destroyed; ) {
        const offset = (reply.from + sent) % 64;
        const size = Math.min(64 * 1024, reply.length - sent);
        sent += size;
        if (!response.write(pattern.subarray(offset, offset + size))) {
          await new Promise<void>((resolve) => {
            const wake = () => {
              response.off('drain', wake).off('close', wake);
              resolve();
            };
            response.on('drain', wake).on('close', wake);
          });
        }
      }
      response.end();
    })();
    open.add(done);
    done.finally(() => open.delete(done));
  });
  const settled = async () => {
    const limit = new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref());
    await Promise.race([Promise.all(open), limit]);
  };
  return { ...server, settled };
}

/** The first byte a request's `Range: bytes=a-b` asks for (0 without one). */
export function rangeStart(request: IncomingMessage): number {
  return Number(/^bytes=(\d+)-/.exec(request.headers.range ?? '')?.[1] ?? 0);
}
