import type { Media } from '../artifact/media.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { SpoolforgeErrorCode } from '../shared/spoolforge-error.js';
import type { ToolUiParts } from '../tools/ui-parts.js';

/**
 * What a tool run reports while it runs, for a UI (a `ToolSession`'s `onEvent` gets them, in
 * order per call): it `start`ed (with the arguments, or the first 16 KiB of large ones); it made `progress` (a handler's report, or bytes of a streamed
 * result so far); `output`, the first part of a streamed result as it arrives (UTF-8 text,
 * bounded: `maxPartialOutputBytes` per call); and it is `complete`, with the result the
 * executor kept (text, an artifact, `Media`; the error text for a failed call), its `ref` when
 * it is in a store, the `error`, and the UI-only parts (`ui`: the tool's UI text, telemetry).
 *
 * @example
 * ```ts
 * const onEvent = (event: ToolEvent) => {
 *   if (event.type === 'complete') console.log(event.toolName, event.ui?.telemetry.durationMs);
 * };
 * ```
 */
export type ToolEvent =
  | {
      type: 'start';
      toolCallId: string;
      toolName: string;
      /** The arguments, when their JSON is at most 16 KiB; else `argumentsPreview`. */
      arguments?: unknown;
      /** Larger arguments: the first 16 KiB of their JSON text, and its whole size in bytes. */
      argumentsPreview?: { text: string; byteLength: number };
    }
  | { type: 'progress'; toolCallId: string; message?: string; bytes?: number }
  | { type: 'output'; toolCallId: string; text: string }
  | {
      type: 'complete';
      toolCallId: string;
      toolName: string;
      result: string | Uint8Array | SpooledArtifact | Media;
      /** The result's id in the store, when it is there already. */
      ref?: string;
      isError?: boolean;
      /** Why the call failed; `result` is then the error text the model was shown. */
      error?: { code: SpoolforgeErrorCode; message: string };
      ui?: ToolUiParts;
    };

/**
 * Where a session's tool events go: called synchronously, in order. A listener that throws is
 * ignored (a UI never breaks a tool call); one with slow work queues the events
 * (`ToolEventQueue`).
 *
 * @example
 * ```ts
 * const listener: ToolEventListener = (event) => console.log(event.type, event.toolCallId);
 * ```
 */
export type ToolEventListener = (event: ToolEvent) => void;

/**
 * Calls `listener` with `event`, ignoring what it throws.
 *
 * @example
 * ```ts
 * const listener: ToolEventListener = (event) => console.log(event.type);
 * emitToolEvent(listener, { type: 'start', toolCallId: 'call_1', toolName: 'run_build' });
 * ```
 */
export function emitToolEvent(listener: ToolEventListener | undefined, event: ToolEvent): void {
  if (listener === undefined) return;
  try {
    listener(event);
  } catch {
    // A UI's failure is not the tool's: the call goes on.
  }
}
