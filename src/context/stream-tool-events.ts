import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { ToolEvent } from '../executor/tool-event.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { type UiToolEvent, type UiToolEventsOptions, uiToolEvents } from './ui-tool-events.js';

/**
 * Options for {@link streamToolEvents}: those of `uiToolEvents` (what becomes a link, and how it
 * is signed), and the keep-alive.
 */
export interface StreamToolEventsOptions extends UiToolEventsOptions {
  /** A comment line this often keeps proxies from closing a quiet stream. Default 15 s; 0 never. */
  heartbeatMs?: number;
}

const defaultHeartbeatMs = 15_000;

/**
 * Sends tool events to a browser as `text/event-stream` (Server-Sent Events, read with
 * `EventSource`): each `uiToolEvents` event as `event: <type>` with its JSON as `data`, and
 * an `id` counting from 1. Large results and media go as links to the artifact handler (signed
 * with `signedLinks`), never as their bytes; small byte results as UTF-8 text. It waits for a
 * slow client (`drain`), stops when the client leaves or `signal` fires, and ends the response
 * when the events end; a failure becomes a last `event: error` with its code and message.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 *
 * const events = new ToolEventQueue();
 * const session = new ToolSession({ tools: [runBuild], store, onEvent: events.push });
 * createServer((request, response) => {
 *   if (request.url === '/events') void streamToolEvents(response, events, { store, baseUrl: '/artifacts' });
 * });
 * ```
 */
export async function streamToolEvents(
  response: ServerResponse,
  events: AsyncIterable<ToolEvent>,
  options: StreamToolEventsOptions = {},
): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort(new SpoolforgeError('E_ABORTED', 'The client left'));
  response.once('close', stop);
  options.signal?.addEventListener('abort', stop, { once: true });
  const { signal } = controller;
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  if (!response.headersSent) {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      // Proxies that buffer responses (nginx) would hold events back.
      'X-Accel-Buffering': 'no',
    });
  }
  response.flushHeaders();
  const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs)
      : undefined;
  heartbeat?.unref();
  const write = async (text: string) => {
    if (!response.write(text)) await Promise.race([once(response, 'drain'), aborted]);
  };
  const iterator = uiToolEvents(events, { ...options, signal })[Symbol.asyncIterator]();
  let id = 0;
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) break;
      await write(`id: ${++id}\nevent: ${next.value.type}\ndata: ${eventJson(next.value)}\n\n`);
    }
  } catch (error) {
    if (!signal.aborted) {
      const failure = SpoolforgeError.isInstance(error)
        ? error
        : new SpoolforgeError('E_IO', `Tool events failed: ${(error as Error)?.message ?? error}`);
      const data = JSON.stringify({ code: failure.code, message: failure.message });
      response.write(`event: error\ndata: ${data}\n\n`);
    }
  } finally {
    clearInterval(heartbeat);
    response.off('close', stop);
    options.signal?.removeEventListener('abort', stop);
    // Not awaited: a source waiting for its next event ends when it is next resumed.
    iterator.return?.(undefined).catch(() => undefined);
    if (!response.writableEnded) response.end();
  }
}

/** One line of JSON (JSON escapes line breaks); bytes as their UTF-8 text. */
function eventJson(event: UiToolEvent): string {
  if ('result' in event && event.result instanceof Uint8Array) {
    return JSON.stringify({ ...event, result: Buffer.from(event.result).toString('utf8') });
  }
  return JSON.stringify(event);
}
