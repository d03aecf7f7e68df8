import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { parseRetryAfter, RetryableFailure } from './http-retry.js';
import type { RangeResponse } from './range-response.js';

/**
 * What the first response said about the object: its length and validators. Later requests
 * must agree with it, or the read fails with `E_REMOTE_CHANGED` instead of mixing versions.
 */
export interface RemoteIdentity {
  length: number;
  etag: string | undefined;
  lastModified: string | undefined;
}

/**
 * The length and validators a response states.
 *
 * @example
 * ```ts
 * const identity = identityOf(response, 1 << 30); // { length, etag: '"5f3a"', lastModified }
 * ```
 */
export function identityOf(response: RangeResponse, length: number): RemoteIdentity {
  return {
    length,
    etag: response.headers.get('etag') ?? undefined,
    lastModified: response.headers.get('last-modified') ?? undefined,
  };
}

/**
 * Fails with `E_REMOTE_CHANGED` when a response's validators differ from the first ones. A
 * validator the first response had and a later one lacks counts as a change: a server must send
 * on a 206 the ETag it would send on a 200 (RFC 9110), so one that drops it may be serving
 * another version while ignoring `If-Match`. Last-Modified next to a strong ETag may be dropped.
 *
 * @example
 * ```ts
 * checkSameObject(client.label, identity, response);
 * ```
 */
export function checkSameObject(
  label: string,
  identity: RemoteIdentity,
  response: RangeResponse,
): void {
  const etag = response.headers.get('etag');
  if (identity.etag && etag !== identity.etag) {
    throw changed(
      label,
      etag
        ? `its ETag went from ${identity.etag} to ${etag}`
        : `a later reply has no ETag (the first had ${identity.etag})`,
    );
  }
  const lastModified = response.headers.get('last-modified');
  if (!identity.lastModified || lastModified === identity.lastModified) return;
  if (lastModified) {
    throw changed(label, `its Last-Modified went from ${identity.lastModified} to ${lastModified}`);
  }
  if (!strongEtag(identity)) {
    throw changed(
      label,
      `a later reply has no Last-Modified (the first had ${identity.lastModified})`,
    );
  }
}

/**
 * The identity's ETag when it is strong: the one validator `If-Match` accepts.
 *
 * @example
 * ```ts
 * const etag = strongEtag(identity);
 * if (etag) headers.set('if-match', etag);
 * ```
 */
export function strongEtag(identity: RemoteIdentity): string | undefined {
  return identity.etag?.startsWith('W/') ? undefined : identity.etag;
}

/**
 * The `E_REMOTE_CHANGED` error for `label`, saying `how`.
 *
 * @example
 * ```ts
 * throw changed(label, 'its length went from 100 to 80');
 * ```
 */
export function changed(label: string, how: string): SpoolforgeError {
  return new SpoolforgeError(
    'E_REMOTE_CHANGED',
    `${label} changed while being read: ${how}; open it again to read the new version`,
  );
}

/**
 * The error for a status that is not an answer: not found, forbidden, worth a retry (408, 429,
 * 5xx, with the server's `Retry-After`), or failed.
 *
 * @example
 * ```ts
 * if (response.status >= 400) throw statusFailure(client.label, response);
 * ```
 */
export function statusFailure(label: string, response: RangeResponse): Error {
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status === 404 || response.status === 410) {
    return new SpoolforgeError('E_REMOTE_NOT_FOUND', `${label}: ${status}`);
  }
  if (response.status === 401 || response.status === 403) {
    return new SpoolforgeError(
      'E_REMOTE_FORBIDDEN',
      `${label}: ${status} (check the credentials; a presigned URL may have expired)`,
    );
  }
  if (response.status === 408 || response.status === 429 || response.status >= 500) {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    return new RetryableFailure(status, retryAfter === undefined ? {} : { retryAfter });
  }
  return new SpoolforgeError('E_REMOTE_FAILED', `${label}: ${status}`);
}

/**
 * `bytes a-b/total` or `bytes *\/total`; `total` is undefined for `*`.
 *
 * @example
 * ```ts
 * parseContentRange('bytes 0-99/1000'); // { start: 0, end: 99, total: 1000 }
 * ```
 */
export function parseContentRange(
  value: string | null,
): { start: number; end: number; total: number | undefined } | undefined {
  const match = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!match) return undefined;
  const total = match[3] === '*' ? undefined : Number(match[3]);
  return { start: Number(match[1] ?? -1), end: Number(match[2] ?? -1), total };
}
