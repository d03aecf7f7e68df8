import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
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
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    httpRequest({ hostname, port, path, ...options }, (response) => {
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
      .end();
  });
}
