/** One Server-Sent Event as a browser's EventSource hands it over. */
export interface ServerSentEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body with fetch, parsed as the EventSource spec says: lines end at
 * LF, CR or CRLF; `:` lines are comments; an event is dispatched at an empty line; `data` lines
 * join with LF. Resolves once the server ends the stream, or after `count` events.
 */
export async function readEventStream(
  url: string,
  options: { count?: number; signal?: AbortSignal } = {},
): Promise<{ events: ServerSentEvent[]; contentType: string | null; comments: number }> {
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!response.body) throw new Error(`no body from ${url}`);
  const events: ServerSentEvent[] = [];
  let comments = 0;
  let buffer = '';
  let current: { id?: string; event?: string; data: string[] } = { data: [] };
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (current.data.length > 0) {
            events.push({
              id: current.id,
              event: current.event ?? 'message',
              data: current.data.join('\n'),
            });
          }
          current = { data: [] };
          if (options.count !== undefined && events.length >= options.count)
            return { events, contentType: response.headers.get('content-type'), comments };
          continue;
        }
        if (line.startsWith(':')) {
          comments++;
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') current.data.push(value);
        else if (field === 'event') current.event = value;
        else if (field === 'id') current.id = value;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { events, contentType: response.headers.get('content-type'), comments };
}
