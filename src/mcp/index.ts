// spoolforge/mcp: MCP servers' tools as spoolforge tools.
export { type McpToolsOptions, mcpTools } from './mcp-tools.js';
