import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * A fresh nonce for the one inline `<style>` of a page: the page's CSP allows nothing else.
 *
 * @example
 * ```ts
 * const nonce = styleNonce();
 * sendHtml(request, response, 200, renderIndexPage({ ...frame, nonce }, await store.list()), nonce);
 * ```
 */
export function styleNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Sends a viewer page with headers that keep it inert: no scripts, no images (but from this
 * origin with `images`, for an image artifact's page), no frames, styles only by nonce, forms
 * only to this origin, no referrer leaking artifact ids. HEAD gets the headers alone.
 *
 * @example
 * ```ts
 * sendHtml(request, response, 400, page, nonce);
 * ```
 */
export function sendHtml(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  page: string,
  nonce: string,
  options: { images?: boolean } = {},
): void {
  const images = options.images ? "img-src 'self'; " : '';
  sendBody(request, response, status, page, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy':
      `default-src 'none'; style-src 'nonce-${nonce}'; ${images}form-action 'self'; ` +
      "base-uri 'none'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
  });
}

/**
 * Sends `value` as JSON. Metadata may hold what msgpack decodes but JSON cannot say: bigints
 * become decimal strings, byte arrays base64 strings.
 *
 * @example
 * ```ts
 * sendJson(request, response, 200, { artifacts: await store.list() });
 * ```
 */
export function sendJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  sendBody(request, response, status, `${JSON.stringify(value, jsonSafe, 2)}\n`, {
    'Content-Type': 'application/json; charset=utf-8',
    ...headers,
  });
}

/**
 * Sends the JSON error body every non-page route uses: `{ "error": { "status", "message" } }`.
 *
 * @example
 * ```ts
 * sendJsonError(request, response, 405, 'Only GET and HEAD are allowed', { Allow: 'GET, HEAD' });
 * ```
 */
export function sendJsonError(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  message: string,
  headers: OutgoingHttpHeaders = {},
): void {
  sendJson(request, response, status, { error: { status, message } }, headers);
}

/**
 * The JSON text of `value` with the same conversions as {@link sendJson}, for showing metadata.
 *
 * @example
 * ```ts
 * toJsonText({ job: 4812n }); // '{"job":"4812"}'
 * ```
 */
export function toJsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, jsonSafe, indent);
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (ArrayBuffer.isView(value)) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  }
  return value;
}

function sendBody(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: string,
  headers: OutgoingHttpHeaders,
): void {
  // Pages and listings change with every put and gc: always revalidate, never share.
  response.writeHead(status, {
    'Cache-Control': 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
