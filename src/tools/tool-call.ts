import type { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ToolUiParts } from './ui-parts.js';

/**
 * One call a model made and what came of it. `results` is what the executor made of the
 * handler's return; the executor's calls (a session's `toolCalls`, an outcome's `call`) are
 * `ToolCall<ToolCallResults>`: inline text, a `SpooledArtifact` or a `Media`, `undefined` while
 * running or after an error. This layer knows no artifacts, hence the type parameter.
 *
 * @example
 * ```ts
 * const call = new ToolCall<SpooledArtifact>({ id: 'call_1', name: 'run_build', arguments: {} });
 * call.results = artifact;
 * ```
 */
export class ToolCall<Results = unknown> {
  readonly id: string;
  /** The tool called: the same field as on a `ToolCallRequest` and a conversation's tool call. */
  readonly name: string;
  /**
   * The arguments as the model sent them: parsed where it sent JSON text. Text that is not JSON
   * stays the string it was, and {@link ToolCall.error} says so (`E_INVALID_TOOL_ARGS`).
   */
  readonly arguments: unknown;
  /**
   * Made by an artifact tool: its text is never itself offered as a `callId` (the recursion
   * break); a new output it derived (`results` an artifact, not text) is.
   */
  fromArtifactTool: boolean;
  results: Results | undefined;
  /** Why the call failed (unknown tool, bad arguments, a handler that threw); else undefined. */
  error: SpoolforgeError | undefined;
  /**
   * What the call carries for a UI only, never shown to the model: the tool's UI text and the
   * telemetry (duration, result size, a tool's exit code). Set once the call finished.
   */
  ui: ToolUiParts | undefined;

  constructor(init: {
    id: string;
    name: string;
    arguments: unknown;
    fromArtifactTool?: boolean;
  }) {
    this.id = init.id;
    this.name = init.name;
    this.arguments = init.arguments;
    this.fromArtifactTool = init.fromArtifactTool ?? false;
    this.results = undefined;
    this.error = undefined;
    this.ui = undefined;
  }

  /** @deprecated The tool's name is {@link ToolCall.name}, as on the request it came from. */
  get toolName(): string {
    return this.name;
  }
}
