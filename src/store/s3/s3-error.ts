import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/** What the SDK's errors carry that tells one failure from another. */
interface SdkError {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

/**
 * The HTTP status of an S3 SDK error, or `undefined` for a failure that never got an answer.
 *
 * @example
 * ```ts
 * if (s3Status(error) === 404) return undefined;
 * ```
 */
export function s3Status(error: unknown): number | undefined {
  return (error as SdkError | undefined)?.$metadata?.httpStatusCode;
}

/**
 * True for a missing key (`NoSuchKey`, a 404 of a HEAD or GET).
 *
 * @example
 * ```ts
 * if (isS3NotFound(error)) return undefined;
 * ```
 */
export function isS3NotFound(error: unknown): boolean {
  const { name } = (error ?? {}) as SdkError;
  return name === 'NoSuchKey' || name === 'NotFound' || s3Status(error) === 404;
}

/**
 * True when the server does not implement an operation (s3rver's ListMultipartUploads, some
 * gateways' AbortMultipartUpload).
 *
 * @example
 * ```ts
 * if (isS3Unsupported(error)) return [];
 * ```
 */
export function isS3Unsupported(error: unknown): boolean {
  const { name, Code } = (error ?? {}) as SdkError;
  const status = s3Status(error);
  return name === 'NotImplemented' || Code === 'NotImplemented' || status === 501 || status === 405;
}

/**
 * An S3 SDK failure as a `SpoolforgeError`: `E_ABORTED` when `signal` (the caller's) fired,
 * `E_REMOTE_FORBIDDEN` for 401/403, `E_REMOTE_NOT_FOUND` for a missing bucket or key, else
 * `E_REMOTE_FAILED` (an abort no caller asked for, such as a body stream torn down under a
 * failed request, included); the SDK's error is the `cause`. A `SpoolforgeError` passes through.
 *
 * @example
 * ```ts
 * await client.send(command).catch((error) => { throw s3Error(error, `put s3://${bucket}/${key}`); });
 * ```
 */
export function s3Error(error: unknown, what: string, signal?: AbortSignal): SpoolforgeError {
  if (SpoolforgeError.isInstance(error)) return error;
  if (signal?.aborted) {
    return new SpoolforgeError('E_ABORTED', `${what}: aborted`, { cause: signal.reason });
  }
  const { name } = (error ?? {}) as SdkError;
  const status = s3Status(error);
  const detail = `${name ?? 'Error'}${status === undefined ? '' : ` (HTTP ${status})`}`;
  const code =
    status === 401 || status === 403
      ? 'E_REMOTE_FORBIDDEN'
      : isS3NotFound(error)
        ? 'E_REMOTE_NOT_FOUND'
        : 'E_REMOTE_FAILED';
  return new SpoolforgeError(code, `${what} failed: ${detail}`, { cause: error });
}
