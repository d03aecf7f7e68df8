/**
 * Whether a client gets a `resource_link` beside each handle: `setting`, or for `'auto'` a
 * client on MCP 2025-06-18 (which brought `resource_link`) or later. Claude Code 2.1, Codex CLI
 * 0.171 and Gemini CLI 0.61 all take one (Codex shows it to the model as its JSON).
 *
 * @example
 * ```ts
 * offersResourceLinks('auto', '2025-11-25'); // true
 * ```
 */
export function offersResourceLinks(
  setting: boolean | 'auto' | undefined,
  protocolVersion: string,
): boolean {
  if (setting !== undefined && setting !== 'auto') return setting;
  return protocolVersion >= '2025-06-18';
}
