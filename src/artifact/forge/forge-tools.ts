import { z } from 'zod';
import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { artifactTool } from '../../tools/artifact-tool.js';
import type { DispatchContext } from '../../tools/dispatch-context.js';
import type { ToolCall } from '../../tools/tool-call.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import type { ResultLimits } from './model-lines.js';
import type { ToolMethodDescriptor } from './tool-method-descriptor.js';

/**
 * Options for forging: the bounds on every result.
 *
 * @example
 * ```ts
 * SpooledArtifact.forgeTools(dispatch, { limits: { maxResultBytes: 20 * 1024 } });
 * ```
 */
export interface ForgeOptions {
  limits?: ResultLimits;
}

// biome-ignore lint/suspicious/noExplicitAny: artifact classes take constructor arguments of their own
type ArtifactClass = abstract new (...args: any[]) => SpooledArtifact;

/**
 * Every descriptor an artifact class offers: its own `toolMethods` and those of each class it
 * extends, base first.
 *
 * @example
 * ```ts
 * collectToolMethods(SpooledArtifact).map((method) => method.name);
 * ```
 */
export function collectToolMethods(
  artifactClass: ArtifactClass,
): ToolMethodDescriptor<SpooledArtifact>[] {
  const chain: ArtifactClass[] = [];
  for (
    let current: unknown = artifactClass;
    typeof current === 'function';
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current as ArtifactClass);
  }
  return chain.flatMap((current) =>
    Object.hasOwn(current, 'toolMethods')
      ? ((current as unknown as { toolMethods: ToolMethodDescriptor<SpooledArtifact>[] })
          .toolMethods ?? [])
      : [],
  );
}

/**
 * Forges the tools of one dispatch for `artifactClass`: the calls of the turn whose results are
 * instances of it (and not made by an artifact tool: the recursion break) become the `callId`
 * enum of one ephemeral {@link artifactTool} per descriptor, plus `artifact_list`. No such call
 * → an empty registry.
 *
 * @example
 * ```ts
 * const forged = forgeArtifactTools(SpooledArtifact, dispatch);
 * forged.get('artifact_grep'); // input { callId: enum of the turn's spooled calls, pattern, … }
 * ```
 */
export function forgeArtifactTools(
  artifactClass: ArtifactClass,
  context: DispatchContext,
  options: ForgeOptions = {},
): ToolRegistry {
  const calls = context.turnToolCalls.filter(
    (call) => !call.fromArtifactTool && call.results instanceof artifactClass,
  );
  const [first, ...rest] = calls.map((call) => call.id);
  if (first === undefined) return new ToolRegistry();
  const byId = new Map(calls.map((call) => [call.id, call]));
  const ids = [first, ...rest] as [string, ...string[]];
  const callId = z
    .enum(ids, {
      error: () =>
        `callId must be one of ${ids.map((id) => `"${id}"`).join(', ')}: the calls whose outputs ` +
        'were spooled (an artifact_* call cannot be queried itself)',
    })
    .describe(`Which spooled output to query: ${calls.map(describeCall).join('; ')}.`);
  const limits = options.limits ?? {};
  const registry = new ToolRegistry();
  for (const method of collectToolMethods(artifactClass)) {
    registry.register(
      artifactTool({
        name: method.name,
        description: method.description,
        inputSchema: z.object({ callId, ...method.args }),
        ephemeral: true,
        onCollision: 'replace',
        handler: async (input: { callId: string }, { signal }) => {
          const { callId: id, ...args } = input;
          const artifact = byId.get(id)?.results as SpooledArtifact;
          return method.run(artifact, args as never, { callId: id, limits, signal });
        },
      }),
      { onCollision: 'replace' },
    );
  }
  registry.register(listTool(calls), { onCollision: 'replace' });
  return registry;
}

function describeCall(call: ToolCall): string {
  const artifact = call.results as SpooledArtifact;
  return `${call.id} = ${call.name}${artifact.name ? ` "${artifact.name}"` : ''}`;
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
export const listToolDescription =
  'Lists the spooled tool outputs you can query now: call id, tool, name, kind, size, lines.';

function listTool(calls: ToolCall[]) {
  return artifactTool({
    name: listToolName,
    description: listToolDescription,
    inputSchema: z.object({}),
    ephemeral: true,
    onCollision: 'replace',
    handler: async (_input: unknown, { signal }) => {
      const rows = await Promise.all(
        calls.map(async (call) => {
          const artifact = call.results as SpooledArtifact;
          const [bytes, lines] = await Promise.all([
            artifact.byteLength(),
            artifact.lineCount({ signal }),
          ]);
          const name = artifact.name ? ` name="${artifact.name}"` : '';
          return `${call.id} tool=${call.name}${name} kind=${artifact.kind} size=${formatBytes(bytes)} lines=${lines}`;
        }),
      );
      if (rows.length === 0) throw new SpoolforgeError('E_INVALID_TOOL_ARGS', 'Nothing is spooled');
      return rows.join('\n');
    },
  });
}
