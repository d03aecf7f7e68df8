// spoolforge/mcp: MCP servers' tools as spoolforge tools, and the spooling MCP proxy.
export {
  type Listener,
  type ListenOptions,
  listenStreamableHttp,
  type SessionServer,
} from './listen/listen-streamable-http.js';
export { type McpToolsOptions, mcpTools } from './mcp-tools.js';
export { McpSpoolProxy, type McpSpoolProxyOptions } from './proxy/mcp-spool-proxy.js';
export type { SpilledValue, SpilledValueRegistry } from './proxy/spilled-value-registry.js';
export type { UpstreamTransportFactory } from './proxy/upstream-connection.js';
