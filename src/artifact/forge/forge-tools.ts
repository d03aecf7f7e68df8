import { z } from 'zod';
import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { artifactTool } from '../../tools/artifact-tool.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import type { ToolCall } from '../../tools/tool-call.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import type { DerivedOutput } from '../derived-output.js';
import type { ArtifactKinds } from '../kinds/artifact-kinds.js';
import { referenceFormHelp } from '../references/artifact-reference.js';
import { SpooledArtifact } from '../spooled-artifact.js';
import type { ResultLimits } from './model-lines.js';
import type { ToolMethodDescriptor } from './tool-method-descriptor.js';

/**
 * Options for forging: the bounds on every result.
 *
 * @example
 * ```ts
 * forgeArtifactTools(defaultArtifactKinds, dispatch, { limits: { maxResultBytes: 20 * 1024 } });
 * ```
 */
export interface ForgeOptions {
  limits?: ResultLimits;
}

/** How many classes a class extends: a kind of a subclass forges before its base's kinds. */
function classDepth(artifactClass: object): number {
  let depth = 0;
  for (let current = Object.getPrototypeOf(artifactClass); current; depth++) {
    current = Object.getPrototypeOf(current);
  }
  return depth;
}

/**
 * Forges the tools of one dispatch: the calls of the turn whose results are artifacts (a tool's
 * spooled output, or a new output an artifact tool derived) are grouped by their kind in `kinds`, and each
 * tool method of those kinds becomes one ephemeral {@link artifactTool} whose `callId` enum
 * holds the calls whose kind offers it, plus `artifact_list`. Tools come in the order of the
 * kinds (a subclass's kinds before its base's) and of their methods. No such call → an empty
 * registry.
 *
 * @example
 * ```ts
 * const forged = forgeArtifactTools(defaultArtifactKinds, dispatch);
 * forged.get('artifact_grep'); // input { callId: enum of the turn's spooled calls, pattern, … }
 * ```
 */
export function forgeArtifactTools(
  kinds: ArtifactKinds,
  context: DispatchContext,
  options: ForgeOptions = {},
): ToolRegistry {
  // An artifact tool's results are text, unless it derived a new output: then it is one too.
  const calls = context.turnToolCalls.filter((call) => call.results instanceof SpooledArtifact);
  const kindOf = new Map(calls.map((call) => [call, kinds.of(call.results as SpooledArtifact)]));
  const order = [...kinds.list()].sort(
    (first, second) => classDepth(second.artifactClass) - classDepth(first.artifactClass),
  );
  // Tool names in the order the kinds with calls bring them, `artifact_list` after the first.
  const methods = new Map<string, ToolMethodDescriptor<SpooledArtifact> | undefined>();
  for (const kind of order) {
    if (!calls.some((call) => kindOf.get(call) === kind)) continue;
    for (const method of kind.toolMethods)
      if (!methods.has(method.name)) methods.set(method.name, method);
    if (!methods.has(listToolName)) methods.set(listToolName, undefined);
  }
  const registry = new ToolRegistry();
  const limits = options.limits ?? {};
  for (const [name, method] of methods) {
    if (method === undefined) {
      registry.register(listTool(calls));
      continue;
    }
    const offered = calls.filter((call) =>
      kindOf.get(call)?.toolMethods.some((each) => each.name === name),
    );
    registry.register(methodTool(method, offered, limits));
  }
  return registry;
}

/**
 * A forged tool's input schema: an argument it does not take (one a model remembers from an
 * older surface, such as `before`) is refused with the ones it does take, not silently dropped.
 *
 * @example
 * ```ts
 * const input = strictToolInput({ callId: z.string(), pattern: z.string() });
 * ```
 */
export function strictToolInput<Shape extends z.ZodRawShape>(shape: Shape) {
  const takes = Object.keys(shape).join(', ') || 'no arguments';
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown argument ${issue.keys.map((key) => `"${key}"`).join(', ')}; it takes ${takes}`
        : undefined,
  });
}

/** One descriptor as a tool over `calls` (at least one). */
function methodTool(
  method: ToolMethodDescriptor<SpooledArtifact>,
  calls: ToolCall[],
  limits: ResultLimits,
) {
  const byId = new Map(calls.map((call) => [call.id, call]));
  // A name reaches the newest output so named, and never shadows an id.
  const byName = new Map<string, ToolCall>();
  for (const call of calls) {
    const name = (call.results as SpooledArtifact).name;
    if (name && !byId.has(name)) byName.set(name, call);
  }
  const ids = [...byId.keys(), ...byName.keys()] as [string, ...string[]];
  const callId = callIdSchema(ids);
  return artifactTool({
    name: method.name,
    description: method.description,
    inputSchema: strictToolInput({ callId, ...method.args }),
    ephemeral: true,
    onCollision: 'replace',
    handler: async (input: { callId: string }, { signal }) => {
      const { callId: id, ...args } = input;
      const artifact = (byId.get(id) ?? byName.get(id))?.results as SpooledArtifact;
      // A new output goes back to the executor, which keeps it as this call's result.
      let derived: DerivedOutput | undefined;
      const derive = (output: DerivedOutput) => {
        derived = output;
        return Promise.resolve('');
      };
      const text = await method.run(artifact, args as never, {
        callId: id,
        limits,
        signal,
        derive,
      });
      return derived ?? text;
    },
  });
}

/**
 * What a string `callId` is: the handle and `artifact_list` say which output each id is, so a
 * turn with many outputs costs only their ids.
 */
const callIdDescription = 'Which spooled output (see artifact_list).';

/**
 * Past this many outputs a `callId` enum, repeated in every tool, would cost more than the tools
 * (a provider's call id is a dozen tokens): `callId` is then a string checked when called.
 */
const maxEnumIds = 8;

function callIdSchema(ids: [string, ...string[]]) {
  const error = () =>
    `callId must be one of ${ids.map((id) => `"${id}"`).join(', ')}: the calls whose outputs ` +
    'were spooled, or their names (an artifact_* call cannot be queried itself)';
  // An enum says its values; the handle and artifact_list say what each is.
  if (ids.length <= maxEnumIds) return z.enum(ids, { error });
  return z
    .string()
    .refine((id) => ids.includes(id), { error })
    .describe(callIdDescription);
}

/**
 * The name of the listing tool every forge adds (it has no descriptor: it spans all calls).
 *
 * @example
 * ```ts
 * forged.has(listToolName); // true whenever anything is spooled
 * ```
 */
export const listToolName = 'artifact_list';

/**
 * The listing tool's description, as every adapter declares it (the AI SDK's before any step).
 *
 * @example
 * ```ts
 * forged.get(listToolName)?.description === listToolDescription; // true
 * ```
 */
export const listToolDescription = `Lists the spooled outputs. ${referenceFormHelp}`;

function listTool(calls: ToolCall[]) {
  return artifactTool({
    name: listToolName,
    description: listToolDescription,
    inputSchema: strictToolInput({}),
    ephemeral: true,
    onCollision: 'replace',
    handler: async (_input: unknown, { signal }) => {
      const rows = await Promise.all(
        calls.map(async (call) => {
          const artifact = call.results as SpooledArtifact;
          // The estimate samples past 1 MiB (a few hundred ms on GiBs) and the handle cached it.
          const [bytes, lines, estimate] = await Promise.all([
            artifact.byteLength(),
            artifact.lineCount({ signal }),
            artifact.tokenEstimate('o200k_base', { signal }),
          ]);
          const name = artifact.name ? ` name="${artifact.name}"` : '';
          const tokens = `${estimate.method === 'exact' ? '' : '~'}${estimate.tokens}`;
          return `${call.id} tool=${call.name}${name} kind=${artifact.kind} bytes=${bytes} (${formatBytes(bytes)}) lines=${lines} tokens=${tokens} (o200k)`;
        }),
      );
      if (rows.length === 0) throw new SpoolforgeError('E_INVALID_TOOL_ARGS', 'Nothing is spooled');
      return rows.join('\n');
    },
  });
}
