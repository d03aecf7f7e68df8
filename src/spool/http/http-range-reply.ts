import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { RetryableFailure } from './http-retry.js';
import type { RangeResponse } from './range-response.js';
import {
  changed,
  checkSameObject,
  parseContentRange,
  type RemoteIdentity,
} from './remote-identity.js';

/** What of a reply's body to read: `length` bytes, and whether the server sends more. */
export interface ExpectedBody {
  length: number;
  /** The server said it sends more than was asked: the rest is cancelled unread. */
  more: boolean;
}

/**
 * Checks a 206 for bytes `[start, end)`: its validators and length (against `identity`, for a
 * later request), and a Content-Range that starts where asked. A server may send more than
 * asked; only `length` bytes are then read (`more`). The body is cancelled before a failure.
 */
export async function answeredRange(
  label: string,
  response: RangeResponse,
  asked: { start: number; end: number },
  identity?: RemoteIdentity,
): Promise<ExpectedBody & { total: number }> {
  const header = response.headers.get('content-range');
  const range = parseContentRange(header);
  try {
    if (identity) {
      checkSameObject(label, identity, response);
      if (range?.total !== identity.length) {
        throw changed(
          label,
          range?.total === undefined
            ? `a reply's Content-Range (${header}) does not state the length`
            : `its length went from ${identity.length} to ${range.total}`,
        );
      }
    }
    if (!range || range.start !== asked.start || range.end < range.start) {
      throw new SpoolforgeError(
        'E_REMOTE_FAILED',
        `${label}: asked for bytes from ${asked.start}, got Content-Range ${header ?? '(none)'} instead`,
      );
    }
    if (range.total === undefined || range.end >= range.total) {
      throw new SpoolforgeError(
        'E_REMOTE_RANGE_UNSUPPORTED',
        `${label}: the server's Content-Range (${header}) gives no valid length`,
      );
    }
    const stop = Math.min(range.end + 1, asked.end);
    return { length: stop - asked.start, more: range.end + 1 > asked.end, total: range.total };
  } catch (error) {
    await discard(response);
    throw error;
  }
}

/**
 * The retryable failure of a 206 that covers only `sent` of the `asked` bytes: the next attempt
 * asks again (for the rest, where the bytes received can be kept).
 *
 * @example
 * ```ts
 * if (answered.length < wanted) throw shortRange(answered.length, wanted);
 * ```
 */
export function shortRange(sent: number, asked: number): RetryableFailure {
  return new RetryableFailure(`the server sent ${sent} of ${asked} bytes asked for`);
}

/**
 * Hands the first `length` bytes of a body to `onChunk` as they arrive. A body the server said
 * goes on (`more`) is cancelled there, unread; otherwise a longer body is an error, and a
 * shorter one (a dropped connection) a retryable failure.
 */
export async function readBody(
  label: string,
  response: RangeResponse,
  expected: ExpectedBody,
  onChunk: (chunk: Uint8Array) => void,
  touch: () => void,
): Promise<void> {
  let received = 0;
  await response.pump((chunk) => {
    touch();
    const room = expected.length - received;
    if (chunk.length > room && !expected.more) {
      throw new SpoolforgeError(
        'E_REMOTE_FAILED',
        `${label}: the server sent more bytes than its Content-Range or Content-Length says`,
      );
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    received += part.length;
    onChunk(part);
    // Once the asked bytes are in, a body that goes on is cancelled unread.
    return !(received === expected.length && expected.more);
  });
  if (received < expected.length) {
    throw new RetryableFailure(
      `the connection closed after ${received} of ${expected.length} bytes`,
    );
  }
}

/** Reads the first `length` bytes of a body into one array. */
export async function readWholeBody(
  label: string,
  response: RangeResponse,
  expected: ExpectedBody,
  touch: () => void,
): Promise<Uint8Array> {
  const target = new Uint8Array(expected.length);
  let filled = 0;
  await readBody(
    label,
    response,
    expected,
    (chunk) => {
      target.set(chunk, filled);
      filled += chunk.length;
    },
    touch,
  );
  return target;
}

/** Cancels a body that will not be read, so the connection closes instead of downloading it. */
export async function discard(response: RangeResponse): Promise<void> {
  await response.cancel();
}
