import { abortError, SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { HeaderMap } from './header-map.js';
import { answeredRange, discard, readBody, readWholeBody, shortRange } from './http-range-reply.js';
import { RetryableFailure, type RetryPolicy, withRetries } from './http-retry.js';
import type { RangeResponse, RangeSend } from './range-response.js';
import { type Redaction, redactError, redactOwnError } from './redact-secrets.js';
import {
  changed,
  checkSameObject,
  identityOf,
  parseContentRange,
  type RemoteIdentity,
  statusFailure,
  strongEtag,
} from './remote-identity.js';

/**
 * Where and how a remote object is fetched: everything a Range request needs besides the range.
 */
export interface RangeClient extends Redaction {
  /** Sends one GET to the object (its URL without a user and password: those are in `headers`). */
  send: (headers: HeaderMap, signal: AbortSignal) => ReturnType<RangeSend>;
  headers: HeaderMap;
  policy: RetryPolicy;
  /** Milliseconds an attempt may wait for headers or for the next body chunk. */
  timeout: number;
  /** A server that ignores Range may send a body up to this size whole. */
  wholeBodyLimit: number;
}

/**
 * The first request: `bytes=0-(firstLength-1)`. Learns the length and validators and returns
 * the first bytes; `whole` when the server sent the entire (small) body instead of a range.
 */
export async function probeRemote(
  client: RangeClient,
  firstLength: number,
  signal: AbortSignal,
): Promise<{ identity: RemoteIdentity; head: Uint8Array; whole: boolean }> {
  const headers = requestHeaders(client, `bytes=0-${firstLength - 1}`);
  return withRetries(client.label, client.policy, signal, () =>
    attempt(client, headers, signal, async (response, touch) => {
      if (response.status === 206) {
        const answered = await answeredRange(client.label, response, {
          start: 0,
          end: firstLength,
        });
        // The block cache takes the head for a whole first block: a shorter one is no use.
        const wanted = Math.min(firstLength, answered.total);
        if (answered.length < wanted) {
          await discard(response);
          throw shortRange(answered.length, wanted);
        }
        const head = await readWholeBody(client.label, response, answered, touch);
        return { identity: identityOf(response, answered.total), head, whole: false };
      }
      if (response.status === 200) return wholeBody(client, response, touch);
      await discard(response);
      const range = parseContentRange(response.headers.get('content-range'));
      if (response.status === 416 && range?.total === 0) {
        return { identity: identityOf(response, 0), head: new Uint8Array(0), whole: true };
      }
      throw statusFailure(client.label, response);
    }),
  );
}

/**
 * Bytes `[start, end)` of the object `identity` describes, sent with `If-Range`/`If-Match` and
 * checked against it, handed to `onChunk` in order as they arrive. A body cut off mid-way
 * resumes from the last byte received, so no byte is handed over twice.
 */
export async function fetchRange(
  client: RangeClient,
  identity: RemoteIdentity,
  range: { start: number; end: number },
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const { start, end } = range;
  let received = 0;
  const take = (chunk: Uint8Array) => {
    received += chunk.length;
    onChunk(chunk);
  };
  await withRetries(client.label, client.policy, signal, () => {
    const from = start + received;
    const headers = requestHeaders(client, `bytes=${from}-${end - 1}`, identity);
    return attempt(client, headers, signal, async (response, touch) => {
      if (response.status === 206) {
        const answered = await answeredRange(
          client.label,
          response,
          { start: from, end },
          identity,
        );
        await readBody(client.label, response, answered, take, touch);
        if (start + received < end) throw shortRange(answered.length, end - from);
        return;
      }
      await discard(response);
      if (response.status === 412 || response.status === 416) {
        throw changed(
          client.label,
          `the server answered ${response.status} to a conditional range`,
        );
      }
      if (response.status === 200) {
        // With If-Range, a 200 is the server sending a new version whole.
        checkSameObject(client.label, identity, response);
        throw new SpoolforgeError(
          'E_REMOTE_RANGE_UNSUPPORTED',
          `${client.label}: the server stopped honouring Range requests`,
        );
      }
      throw statusFailure(client.label, response);
    });
  });
}

/** {@link fetchRange} gathered into one array. */
export async function fetchRangeBytes(
  client: RangeClient,
  identity: RemoteIdentity,
  range: { start: number; end: number },
  signal: AbortSignal,
): Promise<Uint8Array> {
  const target = new Uint8Array(range.end - range.start);
  let filled = 0;
  await fetchRange(client, identity, range, signal, (chunk) => {
    target.set(chunk, filled);
    filled += chunk.length;
  });
  return target;
}

/**
 * A plain GET of the whole object (no Range), retried until its headers come with a 200; the
 * body is left for the caller to read, with `signal` still aborting it.
 */
export function requestWholeBody(client: RangeClient, signal: AbortSignal): Promise<RangeResponse> {
  const headers = new Map(client.headers);
  headers.set('accept-encoding', 'identity');
  return withRetries(client.label, client.policy, signal, () =>
    attempt(client, headers, signal, async (response) => {
      if (response.status === 200) return response;
      await discard(response);
      throw statusFailure(client.label, response);
    }),
  );
}

type ResponseHandler<T> = (response: RangeResponse, touch: () => void) => Promise<T>;

/**
 * One request with a timeout for the headers and for each body chunk (`touch` resets it).
 * Network failures and timeouts become {@link RetryableFailure}; the caller's abort, `E_ABORTED`.
 */
async function attempt<T>(
  client: RangeClient,
  headers: HeaderMap,
  signal: AbortSignal,
  handle: ResponseHandler<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), client.timeout);
  // Restarts the timer in place: it runs for every body chunk, where a new timer each costs.
  const touch = () => void timer.refresh();
  try {
    const combined = AbortSignal.any([signal, controller.signal]);
    const response = await client.send(headers, combined);
    touch();
    return await handle(response, touch);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    if (error instanceof RetryableFailure || SpoolforgeError.isInstance(error)) {
      throw redactOwnError(error, client);
    }
    // fetch's messages (and a custom fetch's) may quote the URL, signature and all.
    type Failure = Error & { code?: string; cause?: { code?: string; message?: string } };
    const safe = redactError(error, client) as Failure;
    if (controller.signal.aborted) {
      throw new RetryableFailure(`no data for ${client.timeout} ms`, { cause: safe });
    }
    // fetch wraps the socket's error as its cause; node:http raises it as it is.
    const cause = safe.cause ?? safe;
    const detail = cause.code ?? cause.message ?? safe.message;
    // Socket failures carry a code and may pass; a name that does not resolve (EAI_AGAIN might)
    // or a request that cannot be sent (a blocked port, an invalid URL) will fail the same way.
    if (!cause.code || cause.code === 'ENOTFOUND' || cause.code.startsWith('ERR_INVALID')) {
      throw new SpoolforgeError('E_REMOTE_FAILED', `${client.label}: ${detail}`, { cause: safe });
    }
    throw new RetryableFailure(`network error (${detail})`, { cause: safe });
  } finally {
    clearTimeout(timer);
  }
}

/** A 200 to a Range request: usable only when the whole body is small enough to keep. */
async function wholeBody(
  client: RangeClient,
  response: RangeResponse,
  touch: () => void,
): Promise<{ identity: RemoteIdentity; head: Uint8Array; whole: boolean }> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!(declared <= client.wholeBodyLimit)) {
    await discard(response);
    throw new SpoolforgeError(
      'E_REMOTE_RANGE_UNSUPPORTED',
      `${client.label}: the server ignores Range requests (it answered 200) and the body is ${
        Number.isNaN(declared) ? 'of unknown size' : `${declared} bytes`
      }, more than wholeBodyLimit (${client.wholeBodyLimit} bytes)`,
    );
  }
  const head = await readWholeBody(
    client.label,
    response,
    { length: declared, more: false },
    touch,
  );
  return { identity: identityOf(response, declared), head, whole: true };
}

function requestHeaders(client: RangeClient, range: string, identity?: RemoteIdentity): HeaderMap {
  const headers = new Map(client.headers);
  headers.set('range', range);
  // Compressed bodies would make byte ranges meaningless.
  headers.set('accept-encoding', 'identity');
  const etag = identity && strongEtag(identity);
  if (etag) {
    headers.set('if-range', etag);
    headers.set('if-match', etag);
  } else if (identity?.lastModified) {
    headers.set('if-range', identity.lastModified);
  }
  return headers;
}
