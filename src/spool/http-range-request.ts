import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';
import { RetryableFailure, type RetryPolicy, withRetries } from './http-retry.js';
import {
  changed,
  checkSameObject,
  identityOf,
  parseContentRange,
  type RemoteIdentity,
  statusFailure,
} from './remote-identity.js';

/**
 * Where and how a remote object is fetched: everything a Range request needs besides the range.
 *
 * @example
 * ```ts
 * const client: RangeClient = { url, label: redactUrl(url), fetch, headers: new Headers(), policy, timeout: 30_000, wholeBodyLimit: 1 << 20 };
 * ```
 */
export interface RangeClient {
  url: string;
  /** The URL as errors show it: without its query string, which may hold a signature. */
  label: string;
  fetch: typeof globalThis.fetch;
  headers: Headers;
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
      const range = parseContentRange(response.headers.get('content-range'));
      if (response.status === 206 && range?.total !== undefined && range.start === 0) {
        const head = await readWholeBody(client, response, range.end - range.start + 1, touch);
        return { identity: identityOf(response, range.total), head, whole: false };
      }
      if (response.status === 200) return wholeBody(client, response, touch);
      await discard(response);
      if (response.status === 206) {
        throw new SpoolforgeError(
          'E_REMOTE_RANGE_UNSUPPORTED',
          `${client.label}: the server's Content-Range (${response.headers.get('content-range')}) gives no length`,
        );
      }
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
  const progress = { expected: end - start, received: 0 };
  await withRetries(client.label, client.policy, signal, () => {
    const from = start + progress.received;
    const headers = requestHeaders(client, `bytes=${from}-${end - 1}`, identity);
    return attempt(client, headers, signal, async (response, touch) => {
      if (response.status === 206) {
        checkSameObject(client.label, identity, response);
        const answered = parseContentRange(response.headers.get('content-range'));
        if (answered?.total !== undefined && answered.total !== identity.length) {
          await discard(response);
          throw changed(
            client.label,
            `its length went from ${identity.length} to ${answered.total}`,
          );
        }
        if (answered?.start !== from) {
          await discard(response);
          throw new SpoolforgeError(
            'E_REMOTE_FAILED',
            `${client.label}: asked for bytes from ${from}, got Content-Range ${response.headers.get('content-range')}`,
          );
        }
        await readBody(client, response, progress, onChunk, touch);
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

type ResponseHandler<T> = (response: Response, touch: () => void) => Promise<T>;

/**
 * One request with a timeout for the headers and for each body chunk (`touch` resets it).
 * Network failures and timeouts become {@link RetryableFailure}; the caller's abort, `E_ABORTED`.
 */
async function attempt<T>(
  client: RangeClient,
  headers: Headers,
  signal: AbortSignal,
  handle: ResponseHandler<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), client.timeout);
  };
  touch();
  try {
    const combined = AbortSignal.any([signal, controller.signal]);
    const response = await client.fetch(client.url, { headers, signal: combined });
    touch();
    return await handle(response, touch);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    if (controller.signal.aborted) {
      throw new RetryableFailure(`no data for ${client.timeout} ms`, { cause: error });
    }
    if (error instanceof RetryableFailure || SpoolforgeError.isInstance(error)) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (error as Error).message;
    // Socket failures carry a code and may pass; a name that does not resolve (EAI_AGAIN might)
    // or a request fetch refuses to send (a blocked port) will fail the same way again.
    if (!cause?.code || cause.code === 'ENOTFOUND') {
      throw new SpoolforgeError('E_REMOTE_FAILED', `${client.label}: ${detail}`, { cause: error });
    }
    throw new RetryableFailure(`network error (${detail})`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Hands a body's chunks to `onChunk`, counting them in `progress`; more than `expected` bytes
 * is an error, fewer (a dropped connection) a retryable failure.
 */
async function readBody(
  client: RangeClient,
  response: Response,
  progress: { expected: number; received: number },
  onChunk: (chunk: Uint8Array) => void,
  touch: () => void,
): Promise<void> {
  if (!response.body) throw new RetryableFailure('the response had no body');
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    touch();
    if (progress.received + chunk.length > progress.expected) {
      throw new SpoolforgeError(
        'E_REMOTE_FAILED',
        `${client.label}: the server sent more bytes than the range asked for`,
      );
    }
    progress.received += chunk.length;
    onChunk(chunk);
  }
  if (progress.received < progress.expected) {
    throw new RetryableFailure(
      `the connection closed after ${progress.received} of ${progress.expected} bytes`,
    );
  }
}

/** Reads a whole body of `length` bytes into one array. */
async function readWholeBody(
  client: RangeClient,
  response: Response,
  length: number,
  touch: () => void,
): Promise<Uint8Array> {
  const target = new Uint8Array(length);
  const progress = { expected: length, received: 0 };
  await readBody(
    client,
    response,
    progress,
    (chunk) => target.set(chunk, progress.received - chunk.length),
    touch,
  );
  return target;
}

/** A 200 to a Range request: usable only when the whole body is small enough to keep. */
async function wholeBody(
  client: RangeClient,
  response: Response,
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
  const head = await readWholeBody(client, response, declared, touch);
  return { identity: identityOf(response, declared), head, whole: true };
}

function requestHeaders(client: RangeClient, range: string, identity?: RemoteIdentity): Headers {
  const headers = new Headers(client.headers);
  headers.set('range', range);
  // Compressed bodies would make byte ranges meaningless.
  headers.set('accept-encoding', 'identity');
  if (identity?.etag && !identity.etag.startsWith('W/')) {
    headers.set('if-range', identity.etag);
    headers.set('if-match', identity.etag);
  } else if (identity?.lastModified) {
    headers.set('if-range', identity.lastModified);
  }
  return headers;
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
