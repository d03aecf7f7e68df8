// spoolforge/mcp: MCP servers' tools as spoolforge tools, the spooling MCP proxy, and
// spoolforge's own MCP server of files and URLs.
export { createFileServer, type FileServerOptions } from './file-server/create-file-server.js';
export {
  type Listener,
  type ListenOptions,
  listenStreamableHttp,
  type SessionServer,
} from './listen/listen-streamable-http.js';
export { type McpToolsOptions, mcpTools } from './mcp-tools.js';
export { McpSpoolProxy, type McpSpoolProxyOptions } from './proxy/mcp-spool-proxy.js';
export type { UpstreamTransportFactory } from './proxy/upstream-connection.js';
export { type SpilledValue, SpilledValues } from './upstream/spilled-values.js';
export {
  StdioUpstreamTransport,
  type StdioUpstreamTransportOptions,
  type UpstreamExit,
} from './upstream/stdio-upstream-transport.js';
