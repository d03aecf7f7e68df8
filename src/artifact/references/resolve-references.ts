import type { z } from 'zod';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import { acceptsArtifact } from './artifact-argument.js';
import {
  asOutputReference,
  badReference,
  containsReference,
  deliveredKey,
  describeReference,
  type OutputReference,
} from './artifact-reference.js';
import { ReferenceBudget, selectArtifact, selectValue } from './select-reference.js';

/**
 * The outputs a caller may pass by reference: a session's own calls, a proxy's scope in its
 * store. Never a path or a URL.
 *
 * @example
 * ```ts
 * const outputs = new Map<string, SpooledArtifact>([['call_1', artifact]]);
 * const scope: ReferenceScope = {
 *   use: async (ref, read) => {
 *     const artifact = outputs.get(ref);
 *     if (!artifact) throw new SpoolforgeError('E_BAD_REFERENCE', `No output "${ref}"`);
 *     return read(artifact);
 *   },
 * };
 * ```
 */
export interface ReferenceScope {
  /**
   * Runs `read` on the output whose id (else name) is `ref`, kept open while it runs; an output
   * the caller may not see is `E_BAD_REFERENCE`, the same as one that does not exist.
   */
  use<T>(ref: string, read: (artifact: SpooledArtifact) => Promise<T>): Promise<T>;
}

/**
 * Options for {@link resolveArtifactReferences}.
 */
export interface ResolveReferencesOptions {
  scope: ReferenceScope;
  /** The tool's input schema: where it has an `artifactArgument()`, the artifact is passed. */
  schema?: z.ZodType;
  /** UTF-8 bytes the inline values of one call may take in all. Default {@link defaultMaxReferenceBytes}. */
  maxReferenceBytes?: number;
  signal?: AbortSignal;
}

/**
 * What {@link resolveArtifactReferences} made of the arguments.
 */
export interface ResolvedReferences {
  /** The arguments with every reference replaced (the same object when there was none). */
  value: unknown;
  /** How many references were replaced (escaped keys are not counted). */
  count: number;
  /** Artifacts spooled for selections passed to artifact arguments: close them after the call. */
  created: SpooledArtifact[];
}

/**
 * 1 MiB: what a tool's arguments may take in all from references resolved inline (about 250k
 * tokens of text, past what any model would be given to write).
 *
 * @example
 * ```ts
 * const session = new ToolSession({ tools, maxReferenceBytes: 4 * defaultMaxReferenceBytes });
 * ```
 */
export const defaultMaxReferenceBytes = 1024 * 1024;

/**
 * Replaces every reference (`{"$artifact": …}`, see {@link OutputReference}) anywhere in a
 * tool's arguments with what it selects, before the arguments are validated and the tool runs:
 * the output's text, a line range's or a grep's lines as text, or the JSON value a JSONPath
 * selects; an `artifactArgument()` of `schema` gets a `SpooledArtifact`. Values substituted are
 * not searched again. A key `$$artifact` is delivered as `$artifact` (one `$` stripped from a
 * key of two or more), so a tool can be sent a literal `{"$artifact": …}` object. A reference
 * to an output outside `scope`, a malformed one or a bad selector, a JSONPath selecting other
 * than one value, or inline values over `maxReferenceBytes` fail with `E_BAD_REFERENCE`
 * (artifacts already created are closed).
 *
 * @example
 * ```ts
 * const { value } = await resolveArtifactReferences(
 *   { page: { $artifact: 'call_1', json: '$.body' } },
 *   { scope: { use: async (_ref, read) => read(artifact) } },
 * );
 * ```
 */
export async function resolveArtifactReferences(
  args: unknown,
  options: ResolveReferencesOptions,
): Promise<ResolvedReferences> {
  if (!containsReference(args)) return { value: args, count: 0, created: [] };
  const budget = new ReferenceBudget(options.maxReferenceBytes ?? defaultMaxReferenceBytes);
  const signal = options.signal ?? new AbortController().signal;
  const created: SpooledArtifact[] = [];
  let count = 0;
  const resolve = async (reference: OutputReference, path: (string | number)[]) => {
    count++;
    const asArtifact = options.schema !== undefined && acceptsArtifact(options.schema, path);
    return options.scope.use(reference.$artifact, async (artifact) => {
      try {
        if (!asArtifact) return await selectValue(artifact, reference, { budget, signal });
        const selected = await selectArtifact(artifact, reference, { budget, signal });
        if (selected.created) created.push(selected.artifact);
        return selected.artifact;
      } catch (error) {
        throw asBadReference(error, reference);
      }
    });
  };
  const walk = async (node: unknown, path: (string | number)[]): Promise<unknown> => {
    const reference = asOutputReference(node);
    if (reference) return resolve(reference, path);
    if (Array.isArray(node)) {
      const items: unknown[] = [];
      for (const [index, item] of node.entries()) items.push(await walk(item, [...path, index]));
      return items.every((item, index) => item === node[index]) ? node : items;
    }
    if (typeof node !== 'object' || node === null) return node;
    const entries: [string, unknown][] = [];
    let changed = false;
    for (const [key, value] of Object.entries(node)) {
      const delivered = deliveredKey(key);
      const resolved = await walk(value, [...path, delivered]);
      changed ||= resolved !== value || delivered !== key;
      entries.push([delivered, resolved]);
    }
    return changed ? Object.fromEntries(entries) : node;
  };
  try {
    return { value: await walk(args, []), count, created };
  } catch (error) {
    await Promise.all(created.map((artifact) => artifact.close()));
    throw error;
  }
}

/** A selection's failure as the model should read it: an abort stays an abort. */
function asBadReference(error: unknown, reference: OutputReference): unknown {
  if (!SpoolforgeError.isInstance(error)) return error;
  if (['E_BAD_REFERENCE', 'E_ABORTED', 'E_BUSY', 'E_IO'].includes(error.code)) return error;
  return badReference(`${describeReference(reference)}: ${error.message}`, error);
}
