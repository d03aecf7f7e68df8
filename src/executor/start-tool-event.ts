import type { ToolEvent } from './tool-event.js';

/** The JSON of a call's arguments a `start` event carries whole, as an `output` event's 16 KiB. */
export const maxStartArgumentBytes = 16 * 1024;

/**
 * The `start` event of a call: its `arguments` when their JSON text (as the model sent it, else
 * `JSON.stringify` of them) is at most {@link maxStartArgumentBytes}, else `argumentsPreview`,
 * the first 16 KiB of that text cut at a character and its whole size, so a UI is never sent the
 * megabytes a model may write into one call.
 *
 * @example
 * ```ts
 * const event = startToolEvent({ id: 'call_1', name: 'write_file', arguments: '{"path":"a"}' }, { path: 'a' });
 * ```
 */
export function startToolEvent(
  request: { id: string; name: string; arguments: unknown },
  parsed: unknown,
): Extract<ToolEvent, { type: 'start' }> {
  const event = { type: 'start' as const, toolCallId: request.id, toolName: request.name };
  const text =
    typeof request.arguments === 'string' ? request.arguments : (JSON.stringify(parsed) ?? '');
  // A string of the bound's length in characters holds at least that many bytes.
  const head = Buffer.from(text.slice(0, maxStartArgumentBytes + 1));
  if (head.length <= maxStartArgumentBytes) return { ...event, arguments: parsed };
  // Decoding as a stream holds back a character the cut splits.
  const cut = new TextDecoder().decode(head.subarray(0, maxStartArgumentBytes), { stream: true });
  return { ...event, argumentsPreview: { text: cut, byteLength: Buffer.byteLength(text) } };
}
