import { z } from 'zod';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolMethodContext, ToolMethodDescriptor } from './tool-method-descriptor.js';

/**
 * One operation of an {@link opToolMethod}: the arguments it reads and how it runs.
 */
export interface ToolOperation<Artifact, Args> {
  /** The arguments (besides `callId` and `op`) this operation reads; any other is an error. */
  readonly args: readonly (keyof Args & string)[];
  run(artifact: Artifact, args: Args, context: ToolMethodContext): Promise<string>;
}

/**
 * A tool method that is a family of operations behind one `op` argument, the way a text
 * editor tool takes a `command`: one definition on the wire instead of one per operation. The
 * operations share one argument shape; an argument given to an operation that does not read it
 * is an `E_INVALID_TOOL_ARGS` naming the ones it does, and an unknown `op` lists the valid ones.
 *
 * @example
 * ```ts
 * const counts = opToolMethod<SpooledArtifact, {}>({
 *   name: 'artifact_count',
 *   description: 'Counts of a spooled output: op "lines" or "bytes".',
 *   args: {},
 *   operations: {
 *     lines: { args: [], run: async (artifact) => String(await artifact.lineCount()) },
 *     bytes: { args: [], run: async (artifact) => String(await artifact.byteLength()) },
 *   },
 * });
 * ```
 */
export function opToolMethod<Artifact, Args extends z.ZodRawShape>(options: {
  name: string;
  description: string;
  args: Args;
  operations: Record<string, ToolOperation<Artifact, z.output<z.ZodObject<Args>>>>;
  /**
   * Operations that make new outputs (through `context.derive`), the arguments only they read,
   * and what the description adds for them: the descriptor's `textOnly` leaves them out.
   */
  deriving?: {
    description: string;
    args: readonly (keyof Args & string)[];
    operations: Record<string, ToolOperation<Artifact, z.output<z.ZodObject<Args>>>>;
  };
}): ToolMethodDescriptor<Artifact> {
  const { deriving } = options;
  const queries = operationTool(options);
  if (!deriving) return queries;
  const shared = Object.fromEntries(
    Object.entries(options.args).filter(([key]) => !deriving.args.includes(key as never)),
  ) as Args;
  return {
    ...operationTool({
      ...options,
      description: `${options.description} ${deriving.description}`,
      operations: { ...options.operations, ...deriving.operations },
    }),
    textOnly: operationTool({ ...options, args: shared }),
  };
}

function operationTool<Artifact, Args extends z.ZodRawShape>(options: {
  name: string;
  description: string;
  args: Args;
  operations: Record<string, ToolOperation<Artifact, z.output<z.ZodObject<Args>>>>;
}): ToolMethodDescriptor<Artifact> {
  const names = Object.keys(options.operations) as [string, ...string[]];
  const listed = names.map((name) => `"${name}"`).join(', ');
  const op = z.enum(names, { error: () => `op must be one of ${listed}` });
  return {
    name: options.name,
    description: options.description,
    args: { op, ...options.args },
    run: async (artifact, input, context) => {
      const { op: chosen, ...args } = input as { op: string } & Record<string, unknown>;
      const operation = options.operations[chosen];
      if (operation === undefined) {
        throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `op must be one of ${listed}`);
      }
      const stray = Object.keys(args).filter(
        (key) => args[key] != null && !operation.args.includes(key as never),
      );
      if (stray.length > 0) {
        const takes =
          operation.args.length === 0
            ? 'takes no other argument'
            : `takes ${operation.args.join(', ')}`;
        throw new SpoolforgeError(
          'E_INVALID_TOOL_ARGS',
          `${options.name} op "${chosen}" ${takes}, not ${stray.join(', ')}`,
        );
      }
      return operation.run(artifact, args as z.output<z.ZodObject<Args>>, context);
    },
  };
}
