import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname } from 'node:path';
import { defaultArtifactKinds } from '../artifact/kinds/built-in-kinds.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { sendJsonError } from './http-responses.js';

/** A media type with optional parameters: anything else must not reach a header. */
const mediaTypePattern =
  /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(?:\s*;\s*[\w!#$&^.+-]+=(?:[\w!#$&^.+-]+|"[^"\\\r\n]*"))*$/;

const extensions: Record<StoredArtifactRecord['kind'], string> = {
  text: '.txt',
  json: '.json',
  jsonl: '.jsonl',
  markdown: '.md',
  binary: '.bin',
};

/**
 * The Content-Type of an artifact's body: the producer's media type when it is well formed,
 * else its kind's. Text types without a charset get `charset=utf-8`, the encoding every query
 * decodes with (a browser would otherwise guess windows-1252).
 *
 * @example
 * ```ts
 * bodyContentType({ ...record, mediaType: undefined, kind: 'markdown' }); // 'text/markdown; charset=utf-8'
 * ```
 */
export function bodyContentType(record: StoredArtifactRecord): string {
  const mediaType =
    record.mediaType !== undefined && mediaTypePattern.test(record.mediaType)
      ? record.mediaType
      : (defaultArtifactKinds.get(record.kind)?.mediaType ?? 'application/octet-stream');
  return /^text\//i.test(mediaType) && !/;\s*charset=/i.test(mediaType)
    ? `${mediaType}; charset=utf-8`
    : mediaType;
}

/**
 * `inline` with a filename from the artifact's name (or id) that no header parser can misread:
 * an ASCII `filename` with anything doubtful replaced, and the exact name as `filename*`.
 *
 * @example
 * ```ts
 * contentDisposition({ ...record, name: 'ci build "4812"', kind: 'text' });
 * // `inline; filename="ci build _4812_.txt"; filename*=UTF-8''ci%20build%20%224812%22.txt`
 * ```
 */
export function contentDisposition(record: StoredArtifactRecord): string {
  const base = (record.name ?? record.id).slice(0, 120);
  const name = /\.[A-Za-z0-9]{1,8}$/.test(base) ? base : `${base}${extensions[record.kind]}`;
  const ascii = name.replace(/[^\w .()+,-]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Streams an artifact's data file with `send`, which answers Range (206, 416), If-Match,
 * If-None-Match (304) and HEAD; If-Range is {@link rangeIfCurrent}'s. The headers set first are kept by `send`: the
 * record's SHA-256 as a strong ETag (`send` makes one only when none is set), the Content-Type,
 * and a sandboxing CSP so a stored HTML page cannot run script on this origin. Failures are
 * JSON errors like every other route's.
 *
 * @example
 * ```ts
 * serveArtifactBody(request, response, record, store.dataFile(record.id));
 * ```
 */
export async function serveArtifactBody(
  request: IncomingMessage,
  response: ServerResponse,
  record: StoredArtifactRecord,
  dataFile: string,
): Promise<void> {
  // Loaded on first use: a process that never serves an artifact does not pay its ~10 MiB.
  const { default: send } = await import('send');
  setBodyHeaders(response, record);
  // send's own If-Range check finds the ETag anywhere in the header, a weak `W/"…"` too.
  const range = rangeIfCurrent(request, `"${record.sha256}"`);
  if (range === undefined) delete request.headers.range;
  else request.headers.range = clampSuffixRanges(range, record.byteLength);
  // The path handed to send is the store's own file name, URL-encoded as send expects; `root`
  // confines it to the store's directory whatever the name holds.
  send(request, `/${encodeURIComponent(basename(dataFile))}`, {
    root: dirname(dataFile),
    dotfiles: 'allow',
    index: false,
    etag: false,
    lastModified: false,
    cacheControl: false,
  })
    .on('error', (error: { status?: number; headers?: Record<string, string> }) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const status = error.status ?? 500;
      removeBodyHeaders(response);
      sendJsonError(request, response, status, bodyErrorMessages[status] ?? 'Internal error', {
        ...error.headers,
      });
    })
    .pipe(response);
}

/**
 * The headers of every body response: the record's SHA-256 as a strong ETag, the Content-Type,
 * and a sandboxing CSP so a stored HTML page cannot run script on this origin.
 *
 * @example
 * ```ts
 * setBodyHeaders(response, record);
 * ```
 */
export function setBodyHeaders(response: ServerResponse, record: StoredArtifactRecord): void {
  response.setHeader('Content-Type', bodyContentType(record));
  response.setHeader('ETag', `"${record.sha256}"`);
  response.setHeader('Cache-Control', 'private, no-cache');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Disposition', contentDisposition(record));
  response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  response.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * The request's Range header where its If-Range lets it apply: none, or exactly the strong
 * `etag`. A weak tag never matches (RFC 9110), nor does a date (bodies carry no
 * Last-Modified); then the whole body is sent.
 *
 * @example
 * ```ts
 * const range = rangeIfCurrent(request, `"${record.sha256}"`);
 * ```
 */
export function rangeIfCurrent(request: IncomingMessage, etag: string): string | undefined {
  const ifRange = request.headers['if-range'];
  const current = ifRange === undefined || (typeof ifRange === 'string' && ifRange.trim() === etag);
  return current ? request.headers.range : undefined;
}

/**
 * A Range header with each suffix range longer than the body (`bytes=-100` of 15 bytes) made
 * the whole body (`bytes=-15`), as RFC 9110 reads it: `send`'s parser calls it unsatisfiable.
 * An empty body is left as it is, and so is anything that is not a `bytes` range.
 */
function clampSuffixRanges(range: string, size: number): string {
  const match = /^(\s*bytes\s*=)(.*)$/i.exec(range);
  if (!match || size === 0) return range;
  const specs = (match[2] ?? '').split(',').map((spec) => {
    const suffix = /^\s*-\s*(\d+)\s*$/.exec(spec)?.[1];
    return suffix !== undefined && Number(suffix) > size ? `-${size}` : spec;
  });
  return `${match[1]}${specs.join(',')}`;
}

/** What each failure `send` reports means here: 404 is a data file gone since `info`. */
/**
 * Takes back the headers set for a body, before an error answers instead of it.
 *
 * @example
 * ```ts
 * removeBodyHeaders(response);
 * sendJsonError(request, response, 404, 'Artifact not found');
 * ```
 */
export function removeBodyHeaders(response: ServerResponse): void {
  for (const header of [
    'Content-Type',
    'Content-Disposition',
    'Content-Length',
    'Content-Range',
    'ETag',
  ]) {
    response.removeHeader(header);
  }
}

const bodyErrorMessages: Record<number, string> = {
  404: 'Artifact not found',
  412: 'Precondition failed: the artifact has another ETag',
  416: 'Range not satisfiable',
};
