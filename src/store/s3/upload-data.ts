import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { SpoolSource } from '../../artifact/spool.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { type IngestedSource, ingestSource } from '../ingest-source.js';
import { isS3NotFound, s3Error } from './s3-error.js';
import type { S3Keys } from './s3-keys.js';
import type { S3Objects } from './s3-objects.js';
import { UploadMarker } from './upload-marker.js';

/**
 * How a put uploads: parts of `partSize` bytes, `queueSize` of them in flight (memory stays
 * near `partSize × queueSize`), and the marker's heartbeat.
 */
export interface UploadSettings {
  partSize: number;
  queueSize: number;
  heartbeatMilliseconds: number;
}

/**
 * Streams `source` into `objects/<id>.data` with a multipart upload (`@aws-sdk/lib-storage`),
 * building the line index, SHA-256 and head on the way. A marker is written first and kept
 * fresh; the returned marker is finished once the sidecar is written. On failure the upload is
 * aborted, the data deleted and the marker removed (where the server refuses to abort the
 * upload, the marker stays, stale, for `gc` to try again), and the put rejects with
 * `E_ABORTED` only when `signal` fired, the source's own error when the source failed, else
 * the upload's failure as `E_REMOTE_FAILED` (or `E_REMOTE_FORBIDDEN` / `E_REMOTE_NOT_FOUND`).
 *
 * @example
 * ```ts
 * const { ingested, marker } = await uploadData({ objects, keys, id, source, settings, signal });
 * ```
 */
export async function uploadData(options: {
  objects: S3Objects;
  keys: S3Keys;
  id: string;
  source: SpoolSource;
  settings: UploadSettings;
  signal?: AbortSignal | undefined;
}): Promise<{ ingested: IngestedSource; marker: UploadMarker }> {
  const { objects, keys, id, source, settings, signal } = options;
  const key = keys.object(id, 'data');
  const marker = await UploadMarker.start({ objects, keys, id, ...settings });
  const body = new PassThrough({ highWaterMark: 1024 * 1024 });
  const controller = new AbortController();
  const upload = new Upload({
    client: objects.client,
    params: { Bucket: objects.bucket, Key: key, Body: body },
    partSize: settings.partSize,
    queueSize: settings.queueSize,
    leavePartsOnError: false,
    abortController: controller,
  });
  marker.uploadId = () => upload.uploadId;
  // The signal also stops the last parts, after the source has ended.
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const done = upload.done();
  // Awaited below (a failure meanwhile must not go unhandled); kept to tell the upload's
  // failures from the source's, which reach the caller as they are, as from a local store.
  let uploadFailure: unknown;
  done.catch((error: unknown) => {
    uploadFailure = error;
  });
  // A part that fails ends lib-storage's read of the body, which destroys it with a bare
  // AbortError: the write waiting for it to drain fails first, with that error.
  let uploadStopped = false;
  const write = async (bytes: Uint8Array) => {
    if (body.write(bytes)) return;
    await Promise.race([once(body, 'drain'), done]).catch((error: unknown) => {
      uploadStopped = true;
      throw error;
    });
  };
  try {
    const ingested = await ingestSource(source, write, signal === undefined ? {} : { signal });
    body.end();
    await done;
    return { ingested, marker };
  } catch (error) {
    const uploading = uploadStopped || error === uploadFailure;
    // Where the upload failed of itself, it settles with the part's own failure, the real
    // cause; otherwise (or once it has) the in-flight parts are stopped.
    if (uploading && !signal?.aborted) await done.catch(() => undefined);
    controller.abort();
    body.destroy();
    await done.catch(() => undefined);
    // An abort does not wait for a CreateMultipartUpload in flight, whose upload would then be
    // unknown here: wait for it (lib-storage keeps its promise in this field), so the upload
    // is aborted, or its id at least recorded in the marker for gc.
    const creating = (upload as unknown as { createMultiPartPromise?: Promise<unknown> })
      .createMultiPartPromise;
    await creating?.catch(() => undefined);
    const undone = await abortUpload(objects, key, upload.uploadId);
    await objects.delete(key).catch(() => undefined);
    if (undone) await marker.finish().catch(() => undefined);
    else await marker.abandon();
    if (signal?.aborted) {
      throw new SpoolforgeError('E_ABORTED', `Uploading ${objects.url(key)}: aborted`, {
        cause: signal.reason,
      });
    }
    if (!uploading) throw error; // the source's own failure
    throw s3Error(uploadFailure ?? error, `Uploading ${objects.url(key)}`);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/**
 * Aborts a multipart upload; true when it is gone (or there was none), false when the server
 * refused or failed.
 *
 * @example
 * ```ts
 * if (!(await abortUpload(objects, key, uploadId))) report.unabortedUploads?.push(uploadId);
 * ```
 */
export async function abortUpload(
  objects: S3Objects,
  key: string,
  uploadId: string | undefined,
): Promise<boolean> {
  if (uploadId === undefined) return true;
  try {
    await objects.client.send(
      new AbortMultipartUploadCommand({ Bucket: objects.bucket, Key: key, UploadId: uploadId }),
    );
    return true;
  } catch (error) {
    return isS3NotFound(error); // NoSuchUpload: already gone
  }
}
