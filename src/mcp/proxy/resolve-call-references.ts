import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type ResolveReferencesOptions,
  resolveArtifactReferences,
} from '../../artifact/references/resolve-references.js';
import { errorResultText } from '../../shared/error-result-text.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * A `tools/call` with every reference in its arguments replaced by the value it selects from
 * `options.scope`, so the upstream gets plain values; or, when a reference cannot be resolved,
 * the error result the model reads instead (nothing goes upstream). An abort still rejects.
 *
 * @example
 * ```ts
 * const resolved = await resolveCallReferences(callToolRequest, { scope: storeScope, signal });
 * if ('refused' in resolved) return resolved.refused;
 * ```
 */
export async function resolveCallReferences(
  request: CallToolRequest,
  options: Omit<ResolveReferencesOptions, 'schema'>,
): Promise<{ request: CallToolRequest } | { refused: CallToolResult }> {
  try {
    const { value } = await resolveArtifactReferences(request.params.arguments, options);
    // The same object when nothing was replaced (no reference, no escaped key).
    if (value === request.params.arguments) return { request };
    const args = value as Record<string, unknown>;
    return { request: { ...request, params: { ...request.params, arguments: args } } };
  } catch (error) {
    if (!SpoolforgeError.isInstance(error) || error.code === 'E_ABORTED') throw error;
    return {
      refused: { content: [{ type: 'text', text: errorResultText(error) }], isError: true },
    };
  }
}
