import {
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
} from '@aws-sdk/client-s3';
import { throwIfAborted } from '../../shared/spoolforge-error.js';
import type { GcOptions, GcReport } from '../artifact-store-types.js';
import { damagedOrSkipped, defaultGraceMilliseconds, isExpired } from '../collect-garbage.js';
import type { SidecarHeader } from '../sidecar.js';
import { isS3Unsupported, s3Error } from './s3-error.js';
import type { S3Keys } from './s3-keys.js';
import type { S3Listed, S3Objects } from './s3-objects.js';
import { abortUpload } from './upload-data.js';
import { parseUploadMarker } from './upload-marker.js';

/** A multipart upload no marker names is taken for abandoned after a day. */
const unmarkedUploadMilliseconds = 24 * 60 * 60 * 1000;

/**
 * One garbage collection of an S3 store (see `ArtifactStore.gc`). Ages are the server's
 * `LastModified` against this machine's clock, so `graceMilliseconds` must exceed both the
 * heartbeat and the clock skew between machines.
 *
 * @example
 * ```ts
 * const report = await collectS3Garbage({
 *   objects,
 *   keys,
 *   now: Date.now(),
 *   options: {},
 *   readHeader: (id) => backend.readSidecarHeader(id),
 * });
 * ```
 */
export async function collectS3Garbage(context: {
  objects: S3Objects;
  keys: S3Keys;
  now: number;
  options: GcOptions;
  readHeader: (id: string) => Promise<SidecarHeader | undefined>;
}): Promise<GcReport> {
  const { objects, keys, now, options, readHeader } = context;
  const { signal } = options;
  const grace = options.graceMilliseconds ?? defaultGraceMilliseconds;
  // Ages count to when the listing began: an object written while gc lists is never old.
  const listedAt = Date.now();
  const isOld = (entry: S3Listed, age = grace) => listedAt - entry.lastModified > age;
  const report: GcReport = {
    expired: [],
    orphans: [],
    temporary: [],
    spoolDirectories: [],
    abortedUploads: [],
    unabortedUploads: [],
  };
  const sidecars = new Map<string, S3Listed>();
  const data = new Map<string, S3Listed>();
  const markers = new Map<string, S3Listed>();
  // Markers first: a listing runs page after page, and a put may complete between two pages
  // (sidecar written, then marker deleted). Listed in key order, `objects/` before `uploads/`,
  // its data could be seen without its sidecar nor its marker; listed after the markers, data
  // without a sidecar is of a put whose marker was listed, or one started since (not old).
  for (const entry of await objects.list(keys.uploads, signal)) {
    const markerId = keys.parseMarker(entry.key);
    if (markerId !== undefined) markers.set(markerId, entry);
  }
  for (const entry of await objects.list(keys.objects, signal)) {
    const object = keys.parseObject(entry.key);
    if (object) (object.role === 'data' ? data : sidecars).set(object.id, entry);
  }
  // A fresh marker is a put in flight on some machine: its data is not an orphan.
  const inFlight = new Set([...markers].filter(([, entry]) => !isOld(entry)).map(([id]) => id));

  for (const [id, entry] of sidecars) {
    throwIfAborted(signal);
    const header = await readHeader(id).catch(damagedOrSkipped);
    if (header === undefined) continue;
    if (header && isExpired(header.record, now)) {
      await objects.delete(entry.key); // the sidecar first: the artifact vanishes at once
      await objects.delete(keys.object(id, 'data'));
      data.delete(id);
      report.expired.push(id);
    } else if ((!header || !data.has(id)) && isOld(entry)) {
      await objects.delete(entry.key);
      report.orphans.push(entry.key);
    }
  }
  for (const [id, entry] of data) {
    throwIfAborted(signal);
    if (sidecars.has(id) || inFlight.has(id) || !isOld(entry)) continue;
    await objects.delete(entry.key);
    report.orphans.push(entry.key);
  }
  const named = new Set<string>();
  for (const [id, entry] of markers) {
    throwIfAborted(signal);
    const body = parseUploadMarker(
      new TextDecoder().decode((await objects.get(entry.key)) ?? new Uint8Array()),
    );
    if (body?.uploadId) named.add(body.uploadId);
    if (inFlight.has(id)) continue;
    const key = keys.object(id, 'data');
    if (await abortUpload(objects, key, body?.uploadId)) {
      if (body?.uploadId) report.abortedUploads?.push(body.uploadId);
    } else {
      report.unabortedUploads?.push(body?.uploadId ?? '');
    }
    await objects.delete(entry.key);
    report.temporary.push(entry.key);
  }
  for (const upload of await unmarkedUploads(objects, keys, named, signal)) {
    if (await abortUpload(objects, upload.key, upload.uploadId)) {
      report.abortedUploads?.push(upload.uploadId);
    } else {
      report.unabortedUploads?.push(upload.uploadId);
    }
  }
  return report;
}

/**
 * Multipart uploads of the store's data keys older than a day that no marker names, where
 * the server lists them (ListMultipartUploads; none where it is not implemented).
 */
async function unmarkedUploads(
  objects: S3Objects,
  keys: S3Keys,
  named: Set<string>,
  signal: AbortSignal | undefined,
): Promise<{ key: string; uploadId: string }[]> {
  const found: { key: string; uploadId: string }[] = [];
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  do {
    throwIfAborted(signal);
    let page: ListMultipartUploadsCommandOutput;
    try {
      page = await objects.client.send(
        new ListMultipartUploadsCommand({
          Bucket: objects.bucket,
          Prefix: keys.objects,
          ...(keyMarker === undefined ? {} : { KeyMarker: keyMarker }),
          ...(uploadIdMarker === undefined ? {} : { UploadIdMarker: uploadIdMarker }),
        }),
      );
    } catch (error) {
      if (isS3Unsupported(error)) return found;
      throw s3Error(error, `Listing the multipart uploads of ${objects.url(keys.objects)}`);
    }
    for (const upload of page.Uploads ?? []) {
      const { Key: key, UploadId: uploadId, Initiated: initiated } = upload;
      if (key === undefined || uploadId === undefined || named.has(uploadId)) continue;
      // Only the store's own data keys: anything else under objects/ (another store nested
      // under this prefix, someone's file) is not ours to abort.
      if (keys.parseObject(key)?.role !== 'data') continue;
      if (Date.now() - (initiated?.getTime() ?? Date.now()) > unmarkedUploadMilliseconds) {
        found.push({ key, uploadId });
      }
    }
    const more = page.IsTruncated === true;
    keyMarker = more ? page.NextKeyMarker : undefined;
    uploadIdMarker = more ? page.NextUploadIdMarker : undefined;
  } while (keyMarker !== undefined);
  return found;
}
