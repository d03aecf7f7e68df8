import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { readerChunks } from '../spool/reader-chunks.js';
import type { SpoolReader } from '../spool/spool-reader.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { sendJsonError } from './http-responses.js';
import { rangeIfCurrent, removeBodyHeaders, setBodyHeaders } from './serve-artifact-body.js';

/** How long a redirect's presigned URL stays valid: long enough to start a download. */
const redirectSeconds = 300;

/**
 * Serves the body of an artifact a remote store (S3) keeps: with `redirect`, a 302 to a
 * presigned URL valid for 5 minutes; else proxied through the store's ranged reader, answering
 * one `bytes` range (206, or 416 with the length), If-Range, If-Match (412) and If-None-Match
 * (304) against the record's SHA-256 ETag, and HEAD. A request for several ranges gets the
 * whole body (RFC 9110 lets a server ignore Range). Data gone before the first byte (deleted
 * since the record was read) is a 404; a failure after the headers (the object replaced
 * mid-stream: `E_REMOTE_CHANGED`) cuts the response short.
 *
 * @example
 * ```ts
 * await serveRemoteArtifactBody(request, response, record, { store, redirect: false, signal });
 * ```
 */
export async function serveRemoteArtifactBody(
  request: IncomingMessage,
  response: ServerResponse,
  record: StoredArtifactRecord,
  options: { store: ArtifactStore; redirect: boolean; signal: AbortSignal },
): Promise<void> {
  const { store, signal } = options;
  const etag = `"${record.sha256}"`;
  if (options.redirect) {
    const url = await store.dataUrl(record.id, { expiresInSeconds: redirectSeconds });
    response.writeHead(302, {
      Location: url,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    response.end();
    return;
  }
  const ifMatch = request.headers['if-match'];
  if (ifMatch !== undefined && !etagListHas(ifMatch, etag)) {
    return sendJsonError(
      request,
      response,
      412,
      'Precondition failed: the artifact has another ETag',
    );
  }
  setBodyHeaders(response, record);
  response.setHeader('Accept-Ranges', 'bytes');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && etagListHas(ifNoneMatch, etag)) {
    response.writeHead(304);
    response.end();
    return;
  }
  const size = record.byteLength;
  const rangeHeader = rangeIfCurrent(request, etag);
  const range = rangeHeader === undefined ? undefined : parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    response.removeHeader('Content-Disposition');
    return sendJsonError(request, response, 416, 'Range not satisfiable', {
      'Content-Range': `bytes */${size}`,
    });
  }
  const [start, end] = range ?? [0, size];
  response.statusCode = range ? 206 : 200;
  if (range) response.setHeader('Content-Range', `bytes ${start}-${end - 1}/${size}`);
  response.setHeader('Content-Length', end - start);
  if (request.method === 'HEAD' || end === start) {
    response.end();
    return;
  }
  let reader: SpoolReader | undefined;
  try {
    reader = await store.openData(record.id, { signal });
    for await (const chunk of readerChunks(reader, { start, end, signal })) {
      if (!response.write(chunk)) {
        await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
      }
      if (response.destroyed) return;
    }
    response.end();
  } catch (error) {
    if (response.headersSent) {
      response.destroy(); // a short body, never one mixing two versions of the object
      return;
    }
    removeBodyHeaders(response);
    // The data deleted since its record was read (a delete racing this request): as a local
    // store answers for a data file gone.
    const gone = SpoolforgeError.isInstance(error) && error.code === 'E_REMOTE_NOT_FOUND';
    if (!gone) throw error;
    sendJsonError(request, response, 404, 'Artifact not found');
  } finally {
    await reader?.close?.();
  }
}

/** True when an If-Match / If-None-Match list names `etag` (or is `*`); weak tags compare too. */
function etagListHas(list: string, etag: string): boolean {
  return list
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * One `bytes` range as `[start, end)`; `undefined` to serve the whole body (no range, several,
 * or not `bytes`), `'unsatisfiable'` for one that starts past the end.
 */
function parseRange(header: string, size: number): [number, number] | 'unsatisfiable' | undefined {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Math.min(Number(last), size);
    return suffix === 0 ? 'unsatisfiable' : [size - suffix, size];
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size : Math.min(Number(last) + 1, size);
  return end <= start ? undefined : [start, end];
}
