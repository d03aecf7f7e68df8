import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '../tools/tool.js';
import { mcpInputSchema } from './mcp-input-schema.js';

/**
 * A spoolforge query tool as `tools/list` declares it: its name, description and portable input
 * schema, annotated read-only. Every tool spoolforge serves over MCP only reads, and clients act
 * on the hint: `codex exec` (0.171) runs a read-only tool without asking, and refuses any other
 * ("MCP tool call requires approval, but approval policy is never") unless the server's config
 * sets `default_tools_approval_mode = "approve"`.
 *
 * @example
 * ```ts
 * const definitions = registry.list().map(readOnlyMcpTool);
 * ```
 */
export function readOnlyMcpTool(tool: Tool): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: mcpInputSchema(tool.inputSchema),
    // Only the read-only hint: the others mean something only for tools that write.
    annotations: { readOnlyHint: true },
  };
}
