import { HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { ArtifactStore } from '../artifact-store.js';
import type { ArtifactStoreOptions } from '../artifact-store-types.js';
import { maxPresignSeconds, type S3ReaderOptions } from './s3-data-reader.js';
import { s3Error } from './s3-error.js';
import { S3Keys } from './s3-keys.js';
import { S3Objects } from './s3-objects.js';
import { S3StoreBackend } from './s3-store-backend.js';

/**
 * Where and how an S3 store keeps its artifacts.
 *
 * @example
 * ```ts
 * const options: S3ArtifactStoreOptions = {
 *   bucket: 'agent-artifacts',
 *   prefix: 'prod/',
 *   clientConfig: { region: 'eu-west-1' },
 * };
 * ```
 */
export interface S3ArtifactStoreOptions {
  bucket: string;
  /** Keys go under it (`prod/` → `prod/objects/…`); a `/` is added when missing. Default none. */
  prefix?: string;
  /** A client of your own; it is used as it is (none of the defaults below are applied). */
  client?: S3Client;
  /**
   * The configuration of the client the store builds when `client` is not given: `endpoint`,
   * `region`, `credentials`, `forcePathStyle`… Unless set here, `requestChecksumCalculation`
   * and `responseChecksumValidation` are `'WHEN_REQUIRED'`: many S3-compatible servers reject
   * the SDK's default checksums.
   */
  clientConfig?: S3ClientConfig;
  /** Bytes per uploaded part, ≥ 5 MiB. Default 8 MiB. */
  partSize?: number;
  /** Parts uploaded at once; a put holds about `partSize × queueSize` in memory. Default 4. */
  queueSize?: number;
  /**
   * How often a put rewrites its marker; keep it well under `gc`'s `graceMilliseconds`.
   * Default 10 s.
   */
  heartbeatMilliseconds?: number;
  /**
   * Validity of the presigned URLs data is read through (re-signed at half), 60 s to a week.
   * Default 3600.
   */
  presignExpiresInSeconds?: number;
  /** Tuning of the ranged reads (block size, cache, retries, timeouts). */
  reader?: S3ReaderOptions;
}

const mebibyte = 1024 * 1024;

/**
 * Opens an `ArtifactStore` on a bucket and prefix of S3 or any S3-compatible storage (R2,
 * MinIO, GCS through its XML API): the same `put`, `get`, `info`, `list`, `delete`, `gc` and
 * TTLs as a local store, for agents on many machines. It checks the bucket is reachable
 * (HeadBucket); failures are `E_REMOTE_FORBIDDEN`, `E_REMOTE_NOT_FOUND` or `E_REMOTE_FAILED`.
 * The store has no local directory: `directory` and `dataFile` give `E_STORE_NOT_LOCAL`.
 *
 * @example
 * ```ts
 * import { openS3ArtifactStore } from 'spoolforge/s3';
 * const store = await openS3ArtifactStore(
 *   { bucket: 'agent-artifacts', prefix: 'prod/', clientConfig: { region: 'eu-west-1' } },
 *   { defaultTtl: 86_400_000 },
 * );
 * const record = await store.put(createReadStream('build.log'), { name: 'ci build 4812' });
 * ```
 */
export async function openS3ArtifactStore(
  s3: S3ArtifactStoreOptions,
  options: ArtifactStoreOptions = {},
): Promise<ArtifactStore> {
  const partSize = s3.partSize ?? 8 * mebibyte;
  const queueSize = s3.queueSize ?? 4;
  const heartbeatMilliseconds = s3.heartbeatMilliseconds ?? 10_000;
  const expiresInSeconds = s3.presignExpiresInSeconds ?? 3600;
  const valid =
    s3.bucket !== '' &&
    Number.isSafeInteger(partSize) &&
    partSize >= 5 * mebibyte &&
    Number.isSafeInteger(queueSize) &&
    queueSize >= 1 &&
    heartbeatMilliseconds > 0 &&
    Number.isSafeInteger(expiresInSeconds) &&
    expiresInSeconds >= 60 &&
    expiresInSeconds <= maxPresignSeconds;
  if (!valid) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      'An S3 store needs a bucket, partSize ≥ 5 MiB, queueSize ≥ 1, heartbeatMilliseconds > 0 ' +
        'and presignExpiresInSeconds from 60 to 604800 (a week)',
    );
  }
  const client =
    s3.client ??
    new S3Client({
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...s3.clientConfig,
    });
  const objects = new S3Objects(client, s3.bucket);
  await client.send(new HeadBucketCommand({ Bucket: s3.bucket })).catch((error: unknown) => {
    throw s3Error(error, `Opening ${objects.url()}`);
  });
  const backend = new S3StoreBackend({
    objects,
    keys: new S3Keys(s3.prefix ?? ''),
    upload: { partSize, queueSize, heartbeatMilliseconds },
    reading: { expiresInSeconds, ...(s3.reader === undefined ? {} : { reader: s3.reader }) },
  });
  return ArtifactStore.fromBackend(backend, options);
}
