import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ResultLimits } from '../../artifact/forge/model-lines.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ArtifactStore } from '../../store/artifact-store.js';
import type { SpilledValues } from '../upstream/spilled-values.js';
import { ProxySession } from './proxy-session.js';
import { StoreQueryTools } from './store-query-tools.js';
import type { UpstreamTransportFactory } from './upstream-connection.js';

/**
 * Options for an {@link McpSpoolProxy}.
 *
 * @example
 * ```ts
 * const options: McpSpoolProxyOptions = { upstream: () => new StdioClientTransport({ command: 'my-server' }), store };
 * ```
 */
export interface McpSpoolProxyOptions {
  /**
   * The upstream server: a factory of transports (called at each client's `initialize`, and
   * again after the upstream exits), or one transport, which then serves one client and is not
   * restarted.
   */
  upstream: UpstreamTransportFactory | Transport;
  /** Where big results go, and where their ids are looked up (after a restart too). */
  store: ArtifactStore;
  /**
   * A result whose text, embedded text resources and structured content pass this many bytes
   * is spooled. Default {@link McpSpoolProxy.defaultThreshold}.
   */
  threshold?: number;
  /** Milliseconds a spooled result stays queryable. Default 7 days. */
  ttl?: number;
  /**
   * Milliseconds an upstream request may go unanswered (progress restarts the clock); 0 for
   * none. Default 5 minutes: past the SDK clients' own 60 s, so their timeout speaks first.
   */
  timeout?: number;
  /**
   * UTF-8 bytes the references in one `tools/call`'s arguments may put into it in all: a
   * reference (`{"$artifact": "<id or name>", …}`) names an output of this proxy's scope and is
   * replaced by the value it selects before the call goes upstream. Default 1 MiB.
   */
  maxReferenceBytes?: number;
  /** Bounds on what the query tools return. Default: `maxResultBytes` = `threshold`. */
  limits?: ResultLimits;
  kinds?: ArtifactKinds;
  /**
   * Whose outputs `artifact_list` lists (recorded with each one): proxies of one upstream share
   * their outputs through one store. Default `label`.
   */
  scope?: string;
  /** Names the upstream in messages. Default `upstream server`. */
  label?: string;
  /**
   * Whether a spooled result carries a `resource_link` to its artifact beside the handle.
   * Default `'auto'`: for clients that negotiated MCP 2025-06-18 or later.
   */
  resourceLinks?: boolean | 'auto';
  /** The values a spilling upstream transport diverted from its messages. */
  spilled?: SpilledValues;
  /** Trouble that reaches no request (a malformed line from the upstream), for a log. */
  onError?: (error: Error) => void;
}

/**
 * An MCP server that puts spoolforge between a client and an upstream MCP server: results too
 * big for a model's context are kept in an `ArtifactStore`, and the client gets a short handle,
 * a `resource_link` to the output and the compact query tools (`artifact_read`,
 * `artifact_grep`, `artifact_list`, `artifact_json`, `artifact_md`), whose string `callId` is
 * checked against the store. Everything else passes through. Each client connected gets its
 * own upstream connection.
 *
 * @example
 * ```ts
 * const proxy = new McpSpoolProxy({ upstream: () => new StdioClientTransport({ command: 'my-server' }), store });
 * await proxy.connect(new StdioServerTransport());
 * ```
 */
export class McpSpoolProxy {
  /**
   * 16 KiB: at most ~8k tokens of the densest text. Codex CLI 0.171 showed its model 12,020
   * characters of a 1 MB result (first and last ~6,000): with Codex, an 11 KiB threshold keeps
   * what is inlined under that.
   */
  static readonly defaultThreshold = 16 * 1024;
  static readonly defaultTtl = 7 * 24 * 60 * 60 * 1000;
  static readonly defaultTimeout = 5 * 60 * 1000;
  readonly #options: McpSpoolProxyOptions;
  readonly #label: string;
  readonly #scope: string;
  readonly #threshold: number;
  readonly #queryTools: StoreQueryTools;
  readonly #sessions = new Set<ProxySession>();
  #transportUsed = false;

  constructor(options: McpSpoolProxyOptions) {
    this.#options = options;
    this.#label = options.label ?? 'upstream server';
    this.#scope = options.scope ?? this.#label;
    this.#threshold = options.threshold ?? McpSpoolProxy.defaultThreshold;
    this.#queryTools = new StoreQueryTools({
      store: options.store,
      scope: this.#scope,
      limits: options.limits ?? { maxResultBytes: this.#threshold },
      ttl: options.ttl ?? McpSpoolProxy.defaultTtl,
      ...(options.kinds ? { kinds: options.kinds } : {}),
    });
  }

  /** The clients served now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** Serves one client on `transport` (stdio, Streamable HTTP, in memory). */
  async connect(transport: Transport): Promise<void> {
    const options = this.#options;
    const session = new ProxySession({
      upstream: this.#factory(),
      label: this.#label,
      store: options.store,
      queryTools: this.#queryTools,
      threshold: this.#threshold,
      ttl: options.ttl ?? McpSpoolProxy.defaultTtl,
      timeout: options.timeout ?? McpSpoolProxy.defaultTimeout,
      scope: this.#scope,
      ...(options.maxReferenceBytes === undefined
        ? {}
        : { maxReferenceBytes: options.maxReferenceBytes }),
      ...(options.resourceLinks === undefined ? {} : { resourceLinks: options.resourceLinks }),
      ...(options.kinds ? { kinds: options.kinds } : {}),
      ...(options.spilled ? { spilled: options.spilled } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
    });
    this.#sessions.add(session);
    session.server.onclose = () => {
      this.#sessions.delete(session);
      void session.close();
    };
    await session.connect(transport);
  }

  /** Closes every session and its upstream. */
  async close(): Promise<void> {
    const sessions = [...this.#sessions];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.close()));
    await this.#queryTools.close();
  }

  #factory(): UpstreamTransportFactory {
    const upstream = this.#options.upstream;
    if (typeof upstream === 'function') return upstream;
    if (this.#transportUsed) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        'This proxy was given one upstream transport, and it serves one client: pass a factory to serve more',
      );
    }
    this.#transportUsed = true;
    let opened = false;
    return () => {
      if (opened) {
        throw new SpoolforgeError(
          'E_INVALID_ARGUMENT',
          'The upstream transport closed and cannot be reopened (the proxy was given a transport, not a factory)',
        );
      }
      opened = true;
      return upstream;
    };
  }
}
