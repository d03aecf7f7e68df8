import type { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * One call a model made and what came of it. `results` is what the executor made of the
 * handler's return: inline text, an artifact, or a `Media`.
 *
 * @example
 * ```ts
 * const call = new ToolCall({ id: 'call_1', toolName: 'run_build', arguments: {} });
 * call.results = artifact;
 * ```
 */
export class ToolCall {
  readonly id: string;
  readonly toolName: string;
  /** The arguments as the model sent them (parsed JSON where it sent a string). */
  readonly arguments: unknown;
  /** Made by an artifact tool: never itself offered as a `callId` (the recursion break). */
  fromArtifactTool: boolean;
  results: unknown;
  error: SpoolforgeError | undefined;

  constructor(init: {
    id: string;
    toolName: string;
    arguments: unknown;
    fromArtifactTool?: boolean;
  }) {
    this.id = init.id;
    this.toolName = init.toolName;
    this.arguments = init.arguments;
    this.fromArtifactTool = init.fromArtifactTool ?? false;
    this.results = undefined;
    this.error = undefined;
  }
}
