import { z } from 'zod';
import { SpooledArtifact } from '../spooled-artifact.js';

/** The check every artifact argument shares: how {@link acceptsArtifact} knows one (clones keep it). */
const isSpooledArtifact = (value: unknown): value is SpooledArtifact =>
  value instanceof SpooledArtifact;

/**
 * A zod schema for a tool argument that takes a spooled output: the model passes a reference
 * (`{"$artifact": "call_1"}`, a selector allowed) and the handler receives a `SpooledArtifact`,
 * never its text, so an output of any size reaches the tool in flat memory and
 * `maxReferenceBytes` does not apply: a `lines` range is a view of the output's bytes, read in
 * place (a `grep` or `json` selection is still gathered within the bound). The artifact is the
 * session's: read it, do not close it. Anything but a reference is refused with
 * `E_INVALID_TOOL_ARGS`.
 *
 * @example
 * ```ts
 * const uploadLog = defineTool({
 *   name: 'upload_log',
 *   description: 'Uploads a log to the incident.',
 *   inputSchema: z.object({ incident: z.string(), log: artifactArgument() }),
 *   handler: async ({ incident, log }) => `${incident}: ${await log.byteLength()} bytes uploaded`,
 * });
 * ```
 */
export function artifactArgument(description = 'A spooled output, passed by reference.') {
  return z
    .custom<SpooledArtifact>(isSpooledArtifact, {
      error: () => 'expects a spooled output by reference: {"$artifact":"<callId or name>"}',
    })
    .meta({
      // What providers declare: the reference form, since the artifact itself never travels.
      type: 'object',
      properties: { $artifact: { type: 'string' } },
      required: ['$artifact'],
      description,
    });
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** Wrappers whose `innerType` is what the value is checked against. */
const wrappers = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'nonoptional',
  'readonly',
  'catch',
]);

/**
 * Whether the value at `path` in arguments checked by `schema` is an {@link artifactArgument}
 * (through objects, arrays, records, tuples, unions and optional/nullable/default wrappers).
 *
 * @example
 * ```ts
 * acceptsArtifact(z.object({ log: artifactArgument() }), ['log']); // true
 * ```
 */
export function acceptsArtifact(schema: z.ZodType, path: readonly (string | number)[]): boolean {
  return accepts(schema, path, 0);
}

function accepts(schema: unknown, path: readonly (string | number)[], depth: number): boolean {
  if (depth > 64) return false; // a recursive lazy schema
  const def = defOf(schema);
  const next = (inner: unknown, rest = path) =>
    inner !== undefined && accepts(inner, rest, depth + 1);
  if (wrappers.has(def.type)) return next(def.innerType);
  if (def.type === 'pipe') return next(def.in);
  if (def.type === 'lazy') return next((def.getter as () => unknown)());
  if (def.type === 'union') return (def.options as unknown[]).some((option) => next(option));
  if (path.length === 0) return def.type === 'custom' && def.fn === isSpooledArtifact;
  const [key, ...rest] = path;
  if (def.type === 'object') {
    const shape = def.shape as Record<string, unknown>;
    return next(Object.hasOwn(shape, String(key)) ? shape[String(key)] : def.catchall, rest);
  }
  if (def.type === 'array') return typeof key === 'number' && next(def.element, rest);
  if (def.type === 'record') return next(def.valueType, rest);
  if (def.type === 'tuple' && typeof key === 'number') {
    return next((def.items as unknown[])[key] ?? def.rest, rest);
  }
  return false;
}
