// spoolforge/mcp: MCP servers' tools as spoolforge tools.

export { createFileServer, type FileServerOptions } from './file-server/create-file-server.js';
export { type McpToolsOptions, mcpTools } from './mcp-tools.js';
