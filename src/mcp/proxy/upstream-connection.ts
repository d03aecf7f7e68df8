import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  McpError,
  type Notification,
  type Request,
  type Result,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { describeExit, type ExitReport } from './exit-report.js';
import { mcpErrorText } from './mcp-error-text.js';

/** Opens a fresh transport to the upstream server: at the first call and after it went away. */
export type UpstreamTransportFactory = () => Transport | Promise<Transport>;

/** What an {@link UpstreamConnection} needs. */
export interface UpstreamConnectionOptions {
  open: UpstreamTransportFactory;
  /** Names the upstream in messages (`upstream "npx server-github"`). */
  label: string;
  /** Milliseconds a request may wait for its answer (progress restarts the clock). */
  timeout: number;
  /** Upstream notifications (progress aside), to forward to the client. */
  onNotification(notification: Notification): Promise<void>;
  /** Upstream requests to the client (sampling, roots, elicitation), to forward. */
  onRequest(request: Request, signal: AbortSignal): Promise<Result>;
  /** Transport trouble that is no answer to any request (a line that is not JSON-RPC). */
  onError?(error: Error): void;
}

/** What the client said of itself at `initialize`: the upstream hears the same. */
export interface ClientIdentity {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
}

/** Any result, kept whole: the proxy forwards what it does not read. */
export const anyResult = z.looseObject({});

/** The longest a `setTimeout` waits: "no timeout". */
export const forever = 2 ** 31 - 1;
/** Restarts after failures wait 0.5 s, 1 s, 2 s … at most this. */
const maxBackoff = 10_000;

/**
 * The proxy's leg to its upstream server: connected with the client's identity, started again
 * (after a bounded backoff once it keeps failing) when it exits, and every failure said in
 * words a model or a person can act on — the exit status and the tail of its stderr, the
 * `--timeout` it did not meet, the malformed output it sent.
 */
export class UpstreamConnection {
  readonly #options: UpstreamConnectionOptions;
  #identity: ClientIdentity | undefined;
  #client: Promise<Client> | undefined;
  #transport: Transport | undefined;
  #failures = 0;
  #retryAt = 0;
  #lastMalformed: string | undefined;
  #closed = false;
  #connections = 0;
  /**
   * Requests that set up the upstream's state for the client (its log level, its resource
   * subscriptions), sent again to an upstream started again.
   */
  readonly #state = new Map<string, Request>();

  constructor(options: UpstreamConnectionOptions) {
    this.#options = options;
  }

  /** Connects (once) as the client `identity`; the upstream's answer to `initialize` is the client's. */
  async start(identity: ClientIdentity): Promise<Client> {
    this.#identity = identity;
    return this.client();
  }

  /**
   * The connected client, connecting again if the upstream went away. Before the client's
   * `initialize` there is no identity to connect as: the request fails and nothing is kept, so
   * a client that probes first (Claude Code sends `server/discover`) still initializes.
   */
  client(): Promise<Client> {
    if (this.#closed) {
      return Promise.reject(new McpError(ErrorCode.ConnectionClosed, 'The proxy is closing'));
    }
    const identity = this.#identity;
    if (!identity) return Promise.reject(new McpError(ErrorCode.InvalidRequest, 'Not initialized'));
    this.#client ??= this.#connect(identity);
    return this.#client;
  }

  /**
   * Sends `request` upstream and resolves with its result; a failure rejects with an `McpError`
   * whose message says what happened to the upstream.
   */
  async request(
    request: Request,
    options: Pick<RequestOptions, 'signal' | 'onprogress'> = {},
  ): Promise<Result> {
    const client = await this.client();
    const transport = this.#transport;
    try {
      const result = await client.request(request, anyResult, {
        ...options,
        timeout: this.#options.timeout || forever,
        resetTimeoutOnProgress: true,
      });
      this.#failures = 0;
      this.#lastMalformed = undefined;
      this.#remember(request);
      return result;
    } catch (error) {
      throw await this.#explain(error, request.method, transport);
    }
  }

  /** Forwards a client notification (a dropped one is not worth failing over). */
  async notify(notification: Notification): Promise<void> {
    if (!this.#client) return;
    const client = await this.#client.catch(() => undefined);
    await client?.notification(notification).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = await this.#client?.catch(() => undefined);
    await client?.close();
  }

  async #connect(identity: ClientIdentity): Promise<Client> {
    const wait = this.#retryAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = new Client(identity.clientInfo, { capabilities: identity.capabilities });
    client.fallbackNotificationHandler = (notification) =>
      this.#options.onNotification(notification);
    client.fallbackRequestHandler = (request, extra) =>
      this.#options.onRequest(request, extra.signal);
    client.onerror = (error) => {
      // A line the transport could not read: a call left waiting then names it.
      if (SpoolforgeError.isInstance(error) && error.code === 'E_MCP_MALFORMED') {
        this.#lastMalformed = error.message;
      }
      this.#options.onError?.(error);
    };
    let transport: Transport | undefined;
    try {
      transport = await this.#options.open();
      this.#transport = transport;
      client.onclose = () => {
        if (this.#transport === transport) this.#forget();
      };
      await client.connect(transport, { timeout: this.#options.timeout || forever });
      keepWireOrder(transport);
      this.#lastMalformed = undefined;
      if (this.#connections++ > 0) await this.#replay(client);
      return client;
    } catch (error) {
      this.#forget();
      this.#failures++;
      this.#retryAt = Date.now() + Math.min(maxBackoff, 500 * 2 ** (this.#failures - 1));
      await client.close().catch(() => undefined);
      const reason = mcpErrorText(await this.#explain(error, 'initialize', transport));
      throw new McpError(
        ErrorCode.InternalError,
        `Could not start ${this.#options.label}: ${reason}`,
      );
    }
  }

  #remember(request: Request): void {
    const uri = (request.params as { uri?: string } | undefined)?.uri;
    if (request.method === 'logging/setLevel') this.#state.set(request.method, request);
    else if (request.method === 'resources/subscribe') this.#state.set(`subscribe ${uri}`, request);
    else if (request.method === 'resources/unsubscribe') this.#state.delete(`subscribe ${uri}`);
  }

  async #replay(client: Client): Promise<void> {
    for (const request of this.#state.values()) {
      await client
        .request(request, anyResult, { timeout: this.#options.timeout || forever })
        .catch((error: Error) => this.#options.onError?.(error));
    }
  }

  #forget(): void {
    this.#client = undefined;
    this.#transport = undefined;
  }

  async #explain(
    error: unknown,
    method: string,
    transport: Transport | undefined,
  ): Promise<McpError> {
    if (!(error instanceof McpError)) {
      const message =
        SpoolforgeError.isInstance(error) || error instanceof Error ? error.message : String(error);
      return new McpError(ErrorCode.InternalError, message);
    }
    if (error.code === ErrorCode.RequestTimeout) {
      await discardStaleLine(transport, this.#options.timeout / 2);
      const malformed = this.#lastMalformed
        ? ` It last sent malformed output: ${this.#lastMalformed}`
        : '';
      return new McpError(
        ErrorCode.RequestTimeout,
        `${this.#options.label} did not answer ${method} within ${this.#options.timeout / 1000} s (--timeout); the request was cancelled.${malformed}`,
      );
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      this.#failures++;
      this.#retryAt =
        Date.now() +
        (this.#failures > 1 ? Math.min(maxBackoff, 500 * 2 ** (this.#failures - 2)) : 0);
      const exit = await describeExit(transport as Partial<ExitReport> | undefined);
      return new McpError(
        ErrorCode.ConnectionClosed,
        `${this.#options.label} ${exit} during ${method}; it is started again for the next call.`,
      );
    }
    return error;
  }
}

/**
 * After a request timed out: a line the upstream began and stopped adding to for `idleMs` is
 * most likely the torn answer; dropping it keeps the next answer from being glued to it. Only
 * a transport that reads lines itself (the stdio upstream transport) can.
 */
async function discardStaleLine(transport: Transport | undefined, idleMs: number): Promise<void> {
  const lines = transport as { discardStaleLine?: (idleMs: number) => Promise<void> } | undefined;
  await lines?.discardStaleLine?.(idleMs);
}

/**
 * The SDK runs a notification's handler a microtask after it arrives but settles a response at
 * once, so the progress an upstream sends just before its result (the last step's) finds its
 * request settled and is dropped as "unknown token". Settling responses a microtask later too
 * keeps the order they came in.
 */
function keepWireOrder(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ('id' in message && !('method' in message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
