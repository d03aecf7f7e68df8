import { Server } from '@modelcontextprotocol/sdk/server/index.js';

/**
 * The SDK `Server` of a proxy session. The SDK checks the handlers and the requests they get
 * against the capabilities given here (a tools/call that asks for a task needs `tasks`); what
 * the client is told is the upstream's, at `initialize`. The notifications it sends are the
 * upstream's, which checked them against the client's capabilities; the SDK's own check reads
 * the capabilities its built-in `initialize` records, which the proxy's replaces, and so
 * refused a URL elicitation's completion.
 *
 * @example
 * ```ts
 * const server = new ForwardingServer();
 * server.fallbackRequestHandler = async () => ({});
 * ```
 */
export class ForwardingServer extends Server {
  constructor() {
    super(
      { name: 'spoolforge-mcp-proxy', version: '0' },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
          tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        },
      },
    );
  }

  protected override assertNotificationCapability(): void {
    // Checked upstream.
  }
}
