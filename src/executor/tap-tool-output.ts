import { emitToolEvent, type ToolEventListener } from './tool-event.js';

/** Partial output sent per call by default: the start of a stream, enough for a UI to show. */
export const defaultMaxPartialOutputBytes = 16 * 1024;

/** At most one `progress` event per this many milliseconds of a stream. */
const progressIntervalMs = 200;

/**
 * A streamed result as it passes on to the spool, reported on the way: its first
 * `maxBytes` as `output` events (UTF-8 text; a character split across chunks is decoded
 * whole, invalid bytes as U+FFFD) and the bytes so far as `progress` events, at most one per
 * 200 ms. The chunks themselves pass unchanged, so nothing is gathered, and none is held once passed on.
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
export function tapToolOutput(
  source: AsyncIterable<Uint8Array | string>,
  options: { toolCallId: string; listener: ToolEventListener; maxBytes: number },
): AsyncIterableIterator<Uint8Array | string> {
  const { toolCallId, listener } = options;
  const iterator = source[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  let shown = 0;
  let bytes = 0;
  let reportedAt = performance.now();
  const report = (chunk: Uint8Array | string) => {
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
  };
  // An iterator of callbacks, not an async generator: a generator's suspended frame would keep
  // the chunk it last passed on while the source makes the next (see forEachChunk).
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () =>
      iterator.next().then((result) => {
        if (!result.done) report(result.value);
        else {
          // A character the stream ended in the middle of.
          const rest = shown < options.maxBytes ? decoder.decode() : '';
          if (rest !== '') emitToolEvent(listener, { type: 'output', toolCallId, text: rest });
        }
        return result;
      }),
    return: async () => {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
  };
}
