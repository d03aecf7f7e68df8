const brand = Symbol.for('spoolforge.uiParts');

/**
 * Figures about a call for a UI: the executor fills `durationMs` and `byteLength` (of the
 * result as the executor kept it); a tool adds its own, such as a process's `exitCode`.
 */
export interface ToolTelemetry {
  /** Milliseconds from the call's arguments to its rendered result. */
  durationMs?: number;
  /** Bytes of the result (inline text, artifact or media). */
  byteLength?: number;
  /** A process's exit status, when the tool ran one. */
  exitCode?: number;
}

/**
 * What a call carries for a UI and never for the model: `text` (a session log, a command line)
 * and its telemetry. Kept on `ToolCall.ui` and in the `complete` tool event.
 */
export interface ToolUiParts {
  /** Text for the UI only; cut to 64 KiB (UTF-8) with a note at its end. */
  text?: string;
  telemetry: ToolTelemetry;
}

/**
 * The UI parts a handler returns beside its value; each may be a promise, so a tool can return a
 * process's output stream and its exit code, known only once the stream ends.
 */
export interface ToolUiPartsInit {
  text?: string | PromiseLike<string>;
  telemetry?: ToolTelemetry | PromiseLike<ToolTelemetry>;
}

/**
 * A handler's return value with UI parts beside it: the executor gives the model `value` (as it
 * would without them) and the UI the parts. Make one with {@link withUiParts}.
 */
export interface WithUiParts<Value = unknown> {
  readonly [brand]: true;
  readonly value: Value;
  readonly parts: ToolUiPartsInit;
}

/**
 * Returns `value` to the model and `parts` to the UI only: a session log and telemetry that are
 * kept on the call (`ToolCall.ui`) and in its `complete` event, never in the model's messages.
 *
 * @example
 * ```ts
 * const build = defineTool({
 *   name: 'run_build',
 *   description: 'Runs the build and returns its output.',
 *   inputSchema: z.object({}),
 *   handler: async () =>
 *     withUiParts('3 errors, see src/app.ts', {
 *       text: '$ npm run build (in /srv/app)',
 *       telemetry: { exitCode: 2 },
 *     }),
 * });
 * ```
 */
export function withUiParts<Value>(value: Value, parts: ToolUiPartsInit): WithUiParts<Value> {
  return { [brand]: true, value, parts };
}

/**
 * True for what {@link withUiParts} made, even by another copy of the package (a global brand).
 *
 * @example
 * ```ts
 * const returned: unknown = withUiParts('ok', { text: 'ran' });
 * const value = hasUiParts(returned) ? returned.value : returned; // 'ok'
 * ```
 */
export function hasUiParts(value: unknown): value is WithUiParts {
  return typeof value === 'object' && value !== null && brand in value && value[brand] === true;
}
