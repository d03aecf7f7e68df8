import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { HttpSpoolReader } from '../../spool/http/http-spool-reader.js';
import type { HttpSpoolReaderOptions } from '../../spool/http/http-spool-reader-options.js';
import type { ReaderDescriptor } from '../../spool/spool-reader.js';
import { s3Error } from './s3-error.js';
import type { S3Objects } from './s3-objects.js';

/** What an S3 store's data readers may be tuned with (block size, cache, retries, timeouts). */
export type S3ReaderOptions = Omit<
  HttpSpoolReaderOptions,
  'fetch' | 'requestUrl' | 'signal' | 'headers'
>;

/** The longest validity SigV4 lets a presigned URL have: a week. */
export const maxPresignSeconds = 7 * 24 * 60 * 60;

/**
 * A presigned GET URL of `key`, valid `expiresInSeconds` (a whole number from 1 to a week, else
 * `E_INVALID_ARGUMENT`: the signer refuses longer, and would sign a negative or fractional one).
 *
 * @example
 * ```ts
 * const url = await presignGet(objects, key, 3600);
 * ```
 */
export async function presignGet(
  objects: S3Objects,
  key: string,
  expiresInSeconds: number,
): Promise<string> {
  const valid =
    Number.isSafeInteger(expiresInSeconds) &&
    expiresInSeconds >= 1 &&
    expiresInSeconds <= maxPresignSeconds;
  if (!valid) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `A presigned URL is valid 1 to ${maxPresignSeconds} seconds, not ${expiresInSeconds}`,
    );
  }
  return getSignedUrl(objects.client, new GetObjectCommand({ Bucket: objects.bucket, Key: key }), {
    expiresIn: expiresInSeconds,
  }).catch((error: unknown) => {
    throw s3Error(error, `Presigning ${objects.url(key)}`);
  });
}

/**
 * Reads an object with ranged GETs through the HTTP reader (its block cache, retries, and its
 * pinning to the first reply's ETag and length: an object replaced mid-read fails with
 * `E_REMOTE_CHANGED`, never mixing versions; it sends If-Match and compares the reply's ETag
 * itself, as some servers ignore If-Match). Requests go to a presigned URL, signed again once
 * half its validity has passed, so a reader outlives any one signature.
 *
 * @example
 * ```ts
 * const reader = await openS3DataReader(objects, key, { expiresInSeconds: 3600 });
 * await reader.read(0, 100);
 * ```
 */
export async function openS3DataReader(
  objects: S3Objects,
  key: string,
  options: { expiresInSeconds: number; reader?: S3ReaderOptions; signal?: AbortSignal | undefined },
): Promise<S3DataReader> {
  const { expiresInSeconds } = options;
  let url = await presignGet(objects, key, expiresInSeconds);
  let signedAt = Date.now();
  const current = async () => {
    if (Date.now() - signedAt > (expiresInSeconds * 1000) / 2) {
      url = await presignGet(objects, key, expiresInSeconds);
      signedAt = Date.now();
    }
    return url;
  };
  return new S3DataReader(objects.url(key), url, {
    ...options.reader,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    // Each request asks for the current URL and goes through node:http, the reader's fast path.
    requestUrl: current,
  });
}

/**
 * The HTTP reader of one S3 object, described by its `s3://` URL: never by the presigned URL,
 * whose signature grants access to anyone who sees it.
 */
class S3DataReader extends HttpSpoolReader {
  readonly #location: string;

  constructor(location: string, url: string, options: HttpSpoolReaderOptions) {
    super(url, options);
    this.#location = location;
  }

  override describe(): ReaderDescriptor {
    return { kind: 's3', locator: this.#location };
  }
}
