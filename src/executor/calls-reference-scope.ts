import { badReference } from '../artifact/references/artifact-reference.js';
import type { ReferenceScope } from '../artifact/references/resolve-references.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { quoteInput } from '../shared/quote-input.js';
import type { ToolCall } from '../tools/tool-call.js';

/** How many outputs an unknown reference's error names. */
const namedOutputs = 10;

/**
 * The outputs of `calls` (a dispatch's calls: the session's, so far) as a
 * {@link ReferenceScope}: a reference names one by call id, else by its name (the newest so
 * named). Nothing else can be reached: no path, no other session's call.
 *
 * @example
 * ```ts
 * const scope = callsReferenceScope(dispatch.turnToolCalls);
 * await scope.use('report-2024-q4', (artifact) => artifact.lineCount());
 * ```
 */
export function callsReferenceScope(calls: readonly ToolCall[]): ReferenceScope {
  return {
    use: async (ref, read) => {
      const artifact = spooledOutputOf(calls, ref);
      if (artifact) return read(artifact);
      const known = calls
        .filter((call) => call.results instanceof SpooledArtifact)
        .map((call) => {
          const name = (call.results as SpooledArtifact).name;
          return name ? `"${call.id}" ("${name}")` : `"${call.id}"`;
        });
      const listed = known.slice(-namedOutputs).join(', ');
      throw badReference(
        `No spooled output "${quoteInput(ref, 100)}" can be passed here. ` +
          (known.length ? `$artifact may be ${listed}` : 'Nothing is spooled yet.'),
      );
    },
  };
}

/**
 * The spooled output of the call `ref` names, by id, else the newest output named `ref`.
 *
 * @example
 * ```ts
 * spooledOutputOf(session.toolCalls, 'call_1'); // its SpooledArtifact, or undefined
 * ```
 */
export function spooledOutputOf(
  calls: readonly ToolCall[],
  ref: string,
): SpooledArtifact | undefined {
  const spooled = calls.filter((call) => call.results instanceof SpooledArtifact);
  const byId = spooled.find((call) => call.id === ref);
  const named = spooled.findLast((call) => (call.results as SpooledArtifact).name === ref);
  return (byId ?? named)?.results as SpooledArtifact | undefined;
}
