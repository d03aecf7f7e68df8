import type { z } from 'zod';
import type { DerivedOutput } from '../derived-output.js';
import type { continueWith, ResultLimits } from './model-lines.js';

/**
 * What a descriptor's `run` gets besides the artifact and its arguments.
 *
 * @example
 * ```ts
 * const lineCount: ToolMethodDescriptor<SpooledArtifact> = {
 *   name: 'artifact_lines',
 *   description: 'Number of lines of a spooled output.',
 *   args: {},
 *   run: async (artifact, _args, { signal }) => `${await artifact.lineCount({ signal })} lines`,
 * };
 * ```
 */
export interface ToolMethodContext {
  /** The call id the model passed: continuation notes name it. */
  callId: string;
  limits: ResultLimits;
  signal: AbortSignal;
  /**
   * Spells the call that continues a cut result. Default {@link continueWith}; a tool that
   * runs a descriptor under another name and arguments (`tool_output_cache`) renames it here.
   */
  continuation?: (toolName: string, args: Record<string, unknown>) => string;
  /**
   * Keeps a new output the method made of the artifact and resolves to what the model is shown
   * of it (its handle). Absent where outputs cannot be kept (the viewer, `mcp serve`): a method
   * that derives one refuses there (see `keepDerived`).
   */
  derive?: (output: DerivedOutput) => Promise<string>;
}

/**
 * One query an artifact class offers a model: its tool name, description, argument schema
 * (without `callId`, which forging adds) and how to answer it as bounded text.
 */
export interface ToolMethodDescriptor<Artifact, Args extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly description: string;
  readonly args: Args;
  /**
   * The same query without what makes new outputs (operations and the arguments only they
   * read), for a host that keeps none (`mcp serve`): it offers this one instead.
   */
  readonly textOnly?: ToolMethodDescriptor<Artifact>;
  run(
    artifact: Artifact,
    args: z.output<z.ZodObject<Args>>,
    context: ToolMethodContext,
  ): Promise<string>;
}
