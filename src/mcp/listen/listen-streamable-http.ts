import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/** What serves one client: an MCP server that connects each new session's transport. */
export interface SessionServer {
  connect(transport: StreamableHTTPServerTransport): Promise<void>;
}

/**
 * Options for {@link listenStreamableHttp}.
 *
 * @example
 * ```ts
 * const options: ListenOptions = { host: '127.0.0.1', port: 8808, token: process.env.SPOOLFORGE_MCP_TOKEN };
 * ```
 */
export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /**
   * Origins a browser page may call from (besides this server's own loopback origins). A
   * request whose `Origin` is not one of them is refused: DNS rebinding cannot reach the proxy.
   */
  allowedOrigins?: readonly string[];
  /** Host headers accepted besides the listening address and the loopback names. */
  allowedHosts?: readonly string[];
  /** A session that sees no request this long is closed (with its upstream). Default 30 minutes. */
  idleMs?: number;
  /**
   * The most sessions open at once (each has its own upstream); an `initialize` past it is
   * answered 503. Default {@link defaultMaxSessions}.
   */
  maxSessions?: number;
}

/** How many sessions a listener keeps open at once unless told otherwise. */
export const defaultMaxSessions = 16;

/** A running listener. */
export interface Listener {
  /** `http://host:port/mcp`. */
  url: string;
  /** The sessions open now, those starting included: what `maxSessions` caps. */
  readonly sessions: number;
  close(): Promise<void>;
}

/**
 * Serves `server` as Streamable HTTP at `/mcp`, one MCP session per client. Requests are
 * checked before they reach the SDK: the `Host` header must name this listener (or a loopback
 * name), an `Origin`, if any, must be this listener's or allowed, and with a `token` the bearer
 * token must match — the checks the MCP specification asks of local HTTP servers.
 *
 * @example
 * ```ts
 * const listener = await listenStreamableHttp(proxy, { host: '127.0.0.1', port: 0 });
 * console.log(listener.url); // 'http://127.0.0.1:41234/mcp'
 * ```
 */
export async function listenStreamableHttp(
  server: SessionServer,
  options: ListenOptions,
): Promise<Listener> {
  if (!isLoopback(options.host) && options.token === undefined) {
    // The Host and Origin checks stop browsers, not a program on the network.
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `Listening on ${options.host}, beyond this machine, needs a bearer token`,
    );
  }
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; timer: NodeJS.Timeout }
  >();
  /** Every transport not closed yet, from the moment an initialize creates it. */
  const open = new Set<StreamableHTTPServerTransport>();
  const idleMs = options.idleMs ?? 30 * 60 * 1000;
  const maxSessions = options.maxSessions ?? defaultMaxSessions;
  const allowed = {
    hosts: (options.allowedHosts ?? []).map((host) => host.toLowerCase()),
    origins: (options.allowedOrigins ?? []).map(originOf),
  };
  let port = options.port;
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, (error as Error).message);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = refuse(request, options, allowed, port);
    if (refusal) return reply(response, refusal.status, refusal.message, refusal.headers);
    const sessionId = header(request, 'mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return reply(response, 404, 'Unknown or expired MCP session: initialize again');
      session.timer.refresh();
      return session.transport.handleRequest(request, response);
    }
    // Only an initialize starts a session (and its upstream): anything else would leave one behind.
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (!isInitializeRequest(body)) {
      return reply(response, 400, 'No MCP session: POST initialize first');
    }
    if (open.size >= maxSessions) {
      return reply(
        response,
        503,
        `Too many MCP sessions: all ${maxSessions} allowed (--max-sessions, maxSessions) are open; ` +
          `close one, or wait until one has had no request for ${idleMs / 60_000} minutes`,
      );
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        const timer = setTimeout(() => void created.close(), idleMs);
        timer.unref();
        sessions.set(id, { transport: created, timer });
      },
      onsessionclosed: (id) => forget(id),
    });
    open.add(created);
    created.onclose = () => {
      open.delete(created);
      if (created.sessionId) forget(created.sessionId);
    };
    try {
      await server.connect(created);
      closeOnFailedInitialize(created, (body as unknown as { id: RequestId }).id);
      await created.handleRequest(request, response, body);
    } finally {
      // The SDK refused the request (406, 415) before it started a session: nothing is kept.
      if (created.sessionId === undefined) await created.close();
    }
  }

  function forget(id: string): void {
    clearTimeout(sessions.get(id)?.timer);
    sessions.delete(id);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) =>
      reject(
        new SpoolforgeError(
          'E_IO',
          `Cannot listen on ${options.host}:${options.port}: ${error.message}`,
          { cause: error },
        ),
      ),
    );
    http.listen(options.port, options.host, resolve);
  });
  port = (http.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/mcp`,
    get sessions() {
      return open.size;
    },
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Closes the session once it has answered its `initialize` with an error (an upstream that
 * cannot start): the SDK gave it a session id already, which must not stay usable.
 */
function closeOnFailedInitialize(transport: StreamableHTTPServerTransport, id: RequestId): void {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if (isJSONRPCErrorResponse(message) && message.id === id) await transport.close();
  };
}

interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const loopbackNames = ['localhost', '127.0.0.1', '[::1]'];

function refuse(
  request: IncomingMessage,
  options: ListenOptions,
  allowed: { hosts: readonly string[]; origins: readonly string[] },
  port: number,
): Refusal | undefined {
  const path = (request.url ?? '/').split('?')[0];
  if (path !== '/mcp') return { status: 404, message: 'Not found: the MCP endpoint is /mcp' };
  const bound = options.host.includes(':') ? `[${options.host}]` : options.host;
  const hosts = new Set([
    ...[bound, ...loopbackNames].map((name) => `${name.toLowerCase()}:${port}`),
    ...allowed.hosts,
  ]);
  const host = header(request, 'host');
  if (host === undefined || !hosts.has(host.toLowerCase())) {
    return { status: 403, message: `Host ${JSON.stringify(host ?? '')} is not this server's` };
  }
  const origin = header(request, 'origin');
  const origins = new Set([...[...hosts].map((name) => `http://${name}`), ...allowed.origins]);
  if (origin !== undefined && !origins.has(originOf(origin))) {
    return { status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed` };
  }
  if (options.token !== undefined && !sameToken(header(request, 'authorization'), options.token)) {
    return {
      status: 401,
      message: 'A bearer token is required',
      headers: { 'www-authenticate': 'Bearer realm="spoolforge"' },
    };
  }
  return undefined;
}

/** An origin as browsers send it: lower case, no path or trailing slash. */
function originOf(text: string): string {
  return URL.canParse(text) ? new URL(text).origin.toLowerCase() : text.toLowerCase();
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A POST body of at most 4 MiB as JSON, else `undefined`. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > 4 * 1024 * 1024) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** `Authorization: Bearer <token>`, the scheme in any case (RFC 7235), compared in constant time. */
function sameToken(given: string | undefined, token: string): boolean {
  const match = /^bearer +(.*)$/i.exec(given ?? '');
  const [a, b] = [Buffer.from(match?.[1] ?? ''), Buffer.from(token)];
  return match !== null && a.length === b.length && timingSafeEqual(a, b);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON-RPC error body, as MCP clients read a refused HTTP request. */
function reply(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
