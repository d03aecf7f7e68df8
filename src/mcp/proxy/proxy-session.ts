import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  type CreateTaskResult,
  ErrorCode,
  GetPromptRequestSchema,
  GetTaskPayloadRequestSchema,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
  ReadResourceRequestSchema,
  type Request,
  type RequestId,
  type Result,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ArtifactStore } from '../../store/artifact-store.js';
import type { SpilledValues } from '../upstream/spilled-values.js';
import { artifactIdOf } from './artifact-uri.js';
import { ForwardingServer } from './forwarding-server.js';
import { mcpErrorText } from './mcp-error-text.js';
import { offersResourceLinks } from './offers-resource-links.js';
import { resolveCallReferences } from './resolve-call-references.js';
import { ResultSpooler } from './result-spooler.js';
import type { StoreQueryTools } from './store-query-tools.js';
import {
  anyResult,
  forever,
  UpstreamConnection,
  type UpstreamTransportFactory,
} from './upstream-connection.js';

/** What one proxied client session needs; the proxy gives every session the same. */
export interface ProxySessionOptions {
  upstream: UpstreamTransportFactory;
  label: string;
  store: ArtifactStore;
  queryTools: StoreQueryTools;
  threshold: number;
  ttl: number;
  timeout: number;
  scope: string;
  /** What references may put into one call's arguments, in UTF-8 bytes. */
  maxReferenceBytes?: number;
  kinds?: ArtifactKinds;
  spilled?: SpilledValues;
  /** Whether spooled results carry a `resource_link`; `'auto'`: for clients known to take one. */
  resourceLinks?: boolean | 'auto';
  onError?: (error: Error) => void;
}

/**
 * One client of the proxy: an SDK `Server` on the client's transport, an upstream connection
 * of its own (started at the client's `initialize`, as that client), and the handlers that
 * spool big `tools/call` results. What the proxy does not handle itself — prompts,
 * completions, logging, subscriptions, the upstream's requests to the client, notifications
 * both ways, cancellation — is forwarded as it is.
 */
export class ProxySession {
  readonly server: ForwardingServer;
  readonly #options: ProxySessionOptions;
  readonly #upstream: UpstreamConnection;
  #upstreamCapabilities: ServerCapabilities = {};
  #closed: Promise<void> | undefined;
  /** The tool each upstream task runs, by task id, until its result is fetched. */
  readonly #taskTools = new Map<string, string>();
  /** Made at `initialize`, once the client's protocol version and name are known. */
  #spooler: ResultSpooler | undefined;

  constructor(options: ProxySessionOptions) {
    this.#options = options;
    this.server = new ForwardingServer();
    this.#upstream = new UpstreamConnection({
      open: options.upstream,
      label: options.label,
      timeout: options.timeout,
      onNotification: (notification) => this.server.notification(notification),
      onRequest: (request, signal) =>
        // A person may answer an elicitation or approve a sampling: --timeout 0 means never.
        this.server.request(request, anyResult, { signal, timeout: options.timeout || forever }),
      ...(options.onError ? { onError: options.onError } : {}),
    });
    this.#handle();
  }

  /** Serves the client on `transport`. */
  connect(transport: Transport): Promise<void> {
    return this.server.connect(transport);
  }

  /** Closes the client's transport and the upstream, once. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.#upstream.close();
      await this.server.close();
    })();
    return this.#closed;
  }

  #handle(): void {
    const server = this.server;
    server.setRequestHandler(InitializeRequestSchema, async (request) => {
      const { clientInfo, capabilities } = request.params;
      const client = await this.#upstream.start({ clientInfo, capabilities });
      const upstream = client.getServerCapabilities() ?? {};
      this.#upstreamCapabilities = upstream;
      const requested = request.params.protocolVersion;
      const version = SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
        ? requested
        : LATEST_PROTOCOL_VERSION;
      this.#spooler = new ResultSpooler({
        store: this.#options.store,
        threshold: this.#options.threshold,
        scope: this.#options.scope,
        ttl: this.#options.ttl,
        resourceLinks: offersResourceLinks(this.#options.resourceLinks, version),
        ...(this.#options.kinds ? { kinds: this.#options.kinds } : {}),
        ...(this.#options.spilled ? { spilled: this.#options.spilled } : {}),
      });
      const instructions = client.getInstructions();
      return {
        protocolVersion: version,
        capabilities: {
          ...upstream,
          tools: { ...upstream.tools },
          resources: { ...upstream.resources },
        },
        serverInfo: client.getServerVersion() ?? { name: this.#options.label, version: '0' },
        ...(instructions ? { instructions } : {}),
      };
    });
    server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      const own = this.#options.queryTools.definitions;
      if (!this.#upstreamCapabilities.tools) return { tools: own };
      const page = (await this.#forward(request, extra)) as {
        tools: McpTool[];
        nextCursor?: string;
      };
      // A spooled result carries a handle, not the structured content a declared output schema
      // promises (SDK clients reject a result without it), so no tool declares one.
      const shadowed = page.tools.filter((tool) => this.#options.queryTools.has(tool.name));
      for (const tool of shadowed) {
        this.#options.onError?.(
          new SpoolforgeError(
            'E_TOOL_ALREADY_REGISTERED',
            `The upstream's tool ${tool.name} is hidden: the proxy's query tool has that name`,
          ),
        );
      }
      const tools = page.tools
        .filter((tool) => !shadowed.includes(tool))
        .map(({ outputSchema: _dropped, ...tool }) => tool);
      return { ...page, tools: page.nextCursor === undefined ? [...tools, ...own] : tools };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      if (this.#options.queryTools.has(name)) {
        return this.#options.queryTools.call(name, args, extra.signal);
      }
      try {
        const resolved = await resolveCallReferences(request, {
          scope: this.#options.queryTools.references,
          signal: extra.signal,
          ...(this.#options.maxReferenceBytes === undefined
            ? {}
            : { maxReferenceBytes: this.#options.maxReferenceBytes }),
        });
        if ('refused' in resolved) return resolved.refused;
        const result = await this.#send(resolved.request, extra);
        const { task } = result as Partial<CreateTaskResult>;
        if (task) {
          // The call runs as a task: its result comes with tasks/result, spooled there.
          this.#taskTools.set(task.taskId, name);
          return result;
        }
        return await this.#spool(result as CallToolResult, name, extra.signal);
      } catch (error) {
        // The upstream needs the user at a URL first: that error's data is for the client,
        // which shows the URL and retries, so it passes as the error it is.
        if (error instanceof McpError && error.code === ErrorCode.UrlElicitationRequired)
          throw error;
        // Any other failed call is a result the model reads: the proxy stays up.
        return { content: [{ type: 'text', text: mcpErrorText(error) }], isError: true };
      }
    });
    server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
      const { taskId } = request.params;
      const result = await this.#send(request, extra);
      if (!Array.isArray(result.content)) return this.#forwarded(result);
      const name = this.#taskTools.get(taskId) ?? `task ${taskId}`;
      this.#taskTools.delete(taskId);
      return this.#spool(result as CallToolResult, name, extra.signal);
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const { uri } = request.params;
      const id = artifactIdOf(uri);
      if (id === undefined) {
        const result = await this.#send(request, extra);
        return this.#spoolerOf().forwardedResult(result, `resources/read ${uri}`, extra.signal);
      }
      const read = await this.#options.queryTools.call(
        'artifact_read',
        { callId: id },
        extra.signal,
      );
      const text = read.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      if (read.isError) throw new McpError(ErrorCode.InvalidParams, text);
      return { contents: [{ uri, mimeType: 'text/plain', text }] };
    });
    server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) =>
      this.#upstreamCapabilities.resources ? this.#forward(request, extra) : { resources: [] },
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request, extra) =>
      this.#upstreamCapabilities.resources
        ? this.#forward(request, extra)
        : { resourceTemplates: [] },
    );
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const result = await this.#send(request, extra);
      const label = `prompts/get ${request.params.name}`;
      return this.#spoolerOf().forwardedResult(result, label, extra.signal);
    });
    server.setRequestHandler(SetLevelRequestSchema, (request, extra) =>
      this.#forward(request, extra),
    );
    server.fallbackRequestHandler = (request, extra) => this.#forward(request, extra);
    server.fallbackNotificationHandler = (notification) => this.#upstream.notify(notification);
  }

  /** Sends a client request upstream and its answer back, diverted values restored. */
  async #forward(request: ForwardedRequest, extra: RequestExtra) {
    return this.#forwarded(await this.#send(request, extra));
  }

  /** An upstream answer with its diverted values restored. */
  async #forwarded(result: Result): Promise<Result> {
    return (await this.#options.spilled?.resolve(result)) ?? result;
  }

  /** A tool's result as the client gets it: spooled past the threshold. */
  #spool(result: CallToolResult, toolName: string, signal: AbortSignal): Promise<CallToolResult> {
    return this.#spoolerOf().callResult(result, toolName, signal);
  }

  #spoolerOf(): ResultSpooler {
    if (!this.#spooler) throw new McpError(ErrorCode.InvalidRequest, 'Not initialized');
    return this.#spooler;
  }

  /**
   * Sends a client request upstream as it is: the client's cancellation reaches the upstream
   * (the SDK sends `notifications/cancelled`), and upstream progress reaches the client under
   * the client's own progress token.
   */
  #send(request: ForwardedRequest, extra: RequestExtra) {
    const meta = request.params?._meta as { progressToken?: string | number } | undefined;
    const token = meta?.progressToken;
    return this.#upstream.request(request as Request, {
      signal: extra.signal,
      ...(token === undefined
        ? {}
        : {
            onprogress: (progress) =>
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { ...progress, progressToken: token },
                } as never)
                .catch(() => undefined),
          }),
    });
  }
}

type ForwardedRequest = { method: string; params?: Record<string, unknown> | undefined };
type RequestExtra = {
  signal: AbortSignal;
  requestId: RequestId;
  sendNotification: (notification: never) => Promise<void>;
};
