/**
 * What an error says, for a person or a model: without the `MCP error -32603: ` prefixes the
 * SDK puts before the message each time an `McpError` is wrapped in another.
 *
 * @example
 * ```ts
 * mcpErrorText(new McpError(ErrorCode.InternalError, 'MCP error -32000: upstream exited')); // 'upstream exited'
 * ```
 */
export function mcpErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^(?:MCP error -?\d+: )+/, '');
}
