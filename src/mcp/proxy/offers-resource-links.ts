/**
 * Whether a client gets a `resource_link` beside each handle: `setting`, or for `'auto'` a
 * client on MCP 2025-06-18 (which brought `resource_link`) or later that is not Codex, which
 * fails a whole tool call that carries one.
 *
 * @example
 * ```ts
 * offersResourceLinks('auto', '2025-11-25', 'codex-mcp-client'); // false
 * ```
 */
export function offersResourceLinks(
  setting: boolean | 'auto' | undefined,
  protocolVersion: string,
  clientName: string,
): boolean {
  if (setting !== undefined && setting !== 'auto') return setting;
  return protocolVersion >= '2025-06-18' && !/codex/i.test(clientName);
}
