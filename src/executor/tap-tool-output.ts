import { emitToolEvent, type ToolEventListener } from './tool-event.js';

/** Partial output sent per call by default: the start of a stream, enough for a UI to show. */
export const defaultMaxPartialOutputBytes = 16 * 1024;

/** At most one `progress` event per this many milliseconds of a stream. */
const progressIntervalMs = 200;

/**
 * A streamed result as it passes on to the spool, reported on the way: its first
 * `maxBytes` as `output` events (UTF-8 text; a character split across chunks is decoded
 * whole, invalid bytes as U+FFFD) and the bytes so far as `progress` events, at most one per
 * 200 ms. The chunks themselves pass unchanged, so nothing is gathered.
 *
 * @example
 * ```ts
 * const source = tapToolOutput(createReadStream('build.log'), {
 *   toolCallId: 'call_1',
 *   listener: (event) => console.log(event.type),
 *   maxBytes: 16_384,
 * });
 * ```
 */
export async function* tapToolOutput(
  source: AsyncIterable<Uint8Array | string>,
  options: { toolCallId: string; listener: ToolEventListener; maxBytes: number },
): AsyncGenerator<Uint8Array | string> {
  const { toolCallId, listener } = options;
  const decoder = new TextDecoder();
  let shown = 0;
  let bytes = 0;
  let reportedAt = performance.now();
  for await (const chunk of source) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += data.length;
    if (shown < options.maxBytes) {
      const part = data.subarray(0, options.maxBytes - shown);
      shown += part.length;
      const text = decoder.decode(part, { stream: shown < options.maxBytes });
      if (text !== '') emitToolEvent(listener, { type: 'output', toolCallId, text });
    }
    const now = performance.now();
    if (now - reportedAt >= progressIntervalMs) {
      reportedAt = now;
      emitToolEvent(listener, { type: 'progress', toolCallId, bytes });
    }
    yield chunk;
  }
  // A character the stream ended in the middle of.
  const rest = shown < options.maxBytes ? decoder.decode() : '';
  if (rest !== '') emitToolEvent(listener, { type: 'output', toolCallId, text: rest });
}
