import type { HeaderMap } from './header-map.js';

/**
 * What the reader needs of a reply to a Range request, whether fetch or `node:http` sent it.
 */
export interface RangeResponse {
  readonly status: number;
  readonly statusText: string;
  /** Header values by case-insensitive name, repeated ones joined with `, ` as fetch does. */
  readonly headers: { get(name: string): string | null };
  /**
   * Hands the body's chunks to `onChunk` in order as they arrive and resolves when the body ends
   * (at once when there is none). `onChunk` returning `false` stops there and cancels the rest;
   * one that throws cancels it and rejects with its error; a body cut off mid-way rejects.
   */
  pump(onChunk: (chunk: Uint8Array) => boolean): Promise<void>;
  /**
   * The body pulled chunk by chunk, the socket paused while the reader is busy: for a body read
   * whole as a stream, whose size bounds no buffer. Leaving the loop early cancels the rest.
   */
  chunks(): AsyncIterable<Uint8Array>;
  /** Drops the body unread, so the connection closes instead of downloading it. */
  cancel(): Promise<void>;
}

/** Sends one GET of `url` with `headers`, following redirects; `signal` aborts it, body and all. */
export type RangeSend = (
  url: string,
  headers: HeaderMap,
  signal: AbortSignal,
) => Promise<RangeResponse>;

/**
 * A {@link RangeSend} through a `fetch` (a caller's own: auth that signs each request, a proxy).
 *
 * @example
 * ```ts
 * const send = fetchSend(globalThis.fetch);
 * const reply = await send('https://logs.example.com/a.log', new Map([['range', 'bytes=0-99']]), signal);
 * ```
 */
export function fetchSend(fetchImplementation: typeof globalThis.fetch): RangeSend {
  return async (url, headers, signal) => {
    const response = await fetchImplementation(url, { headers: new Headers([...headers]), signal });
    const body = response.body;
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      pump: async (onChunk) => {
        // Leaving the loop, by return or throw, cancels the rest of the body.
        for await (const chunk of (body ?? []) as AsyncIterable<Uint8Array>) {
          if (!onChunk(chunk)) return;
        }
      },
      chunks: () => (body ?? []) as AsyncIterable<Uint8Array>,
      cancel: async () => {
        await body?.cancel().catch(() => undefined);
      },
    };
  };
}
