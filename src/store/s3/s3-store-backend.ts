import type { SpoolSource } from '../../artifact/spool.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { MemorySpoolReader } from '../../spool/memory-spool-reader.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import type { GcOptions, GcReport } from '../artifact-store-types.js';
import type { IngestedSource } from '../ingest-source.js';
import {
  claimedNameOf,
  type DecodedSidecar,
  decodeSidecar,
  readSidecarHeaderFrom,
  type SidecarHeader,
  sidecarHeaderBytes,
} from '../sidecar.js';
import { type SidecarScan, scanListing } from '../sidecar-scan.js';
import type { StoreBackend } from '../store-backend.js';
import { collectS3Garbage } from './collect-s3-garbage.js';
import { openS3DataReader, presignGet, type S3ReaderOptions } from './s3-data-reader.js';
import type { S3Keys } from './s3-keys.js';
import type { S3Objects } from './s3-objects.js';
import { type UploadSettings, uploadData } from './upload-data.js';
import type { UploadMarker } from './upload-marker.js';

/**
 * An `ArtifactStore` backend on a bucket: data uploaded in parts while its line index is built,
 * then the sidecar as a second object, so an artifact is visible on any machine only once
 * complete. Reads are ranged GETs pinned to the data's ETag.
 *
 * @example
 * ```ts
 * const backend = new S3StoreBackend({
 *   objects: new S3Objects(client, 'agent-artifacts'),
 *   keys: new S3Keys('prod/'),
 *   upload: { partSize: 8 * 1024 * 1024, queueSize: 4, heartbeatMilliseconds: 10_000 },
 *   reading: { expiresInSeconds: 3600 },
 * });
 * const store = ArtifactStore.fromBackend(backend);
 * ```
 */
export class S3StoreBackend implements StoreBackend {
  readonly directory = undefined;
  readonly label: string;
  readonly #objects: S3Objects;
  readonly #keys: S3Keys;
  readonly #upload: UploadSettings;
  readonly #reading: { expiresInSeconds: number; reader?: S3ReaderOptions };
  /** Puts of this process between their upload and their sidecar: their markers are fresh. */
  readonly #markers = new Map<string, UploadMarker>();

  constructor(options: {
    objects: S3Objects;
    keys: S3Keys;
    upload: UploadSettings;
    reading: { expiresInSeconds: number; reader?: S3ReaderOptions };
  }) {
    this.#objects = options.objects;
    this.#keys = options.keys;
    this.#upload = options.upload;
    this.#reading = options.reading;
    this.label = options.objects.url(options.keys.prefix);
  }

  async writeData(id: string, source: SpoolSource, signal?: AbortSignal): Promise<IngestedSource> {
    const { ingested, marker } = await uploadData({
      objects: this.#objects,
      keys: this.#keys,
      id,
      source,
      settings: this.#upload,
      signal,
    });
    this.#markers.set(id, marker);
    return ingested;
  }

  async writeSidecar(id: string, bytes: Uint8Array): Promise<void> {
    // A put cut off from the bucket longer than gc's grace (its heartbeats failing) may have
    // lost its data to gc on another machine: freshen the marker, then publish only data still
    // there, never an artifact without data.
    await this.#markers.get(id)?.beat();
    const data = this.#keys.object(id, 'data');
    if (!(await this.#objects.exists(data))) {
      throw new SpoolforgeError(
        'E_REMOTE_NOT_FOUND',
        `${this.#objects.url(data)} is gone before its sidecar was written (collected by gc ` +
          'while this put could not refresh its marker)',
      );
    }
    await this.#objects.put(this.#keys.object(id, 'sidecar'), bytes, 'application/msgpack');
    // The artifact is complete: a marker that cannot be deleted now goes stale for gc.
    await this.#settle(id, (marker) => marker.finish().catch(() => marker.stop()));
  }

  async remove(id: string): Promise<void> {
    try {
      await this.#objects.delete(this.#keys.object(id, 'sidecar'));
      await this.#objects.delete(this.#keys.object(id, 'data'));
    } catch (error) {
      await this.#settle(id, async (marker) => marker.stop()); // stale: gc finishes the job
      throw error;
    }
    await this.#settle(id, (marker) => marker.finish());
  }

  async readSidecarHeader(id: string): Promise<SidecarHeader | undefined> {
    const key = this.#keys.object(id, 'sidecar');
    return readSidecarHeaderFrom(
      id,
      () => this.#objects.get(key, { end: sidecarHeaderBytes - 1 }),
      () => this.#objects.get(key),
    );
  }

  async readSidecar(id: string): Promise<DecodedSidecar | undefined> {
    const bytes = await this.#objects.get(this.#keys.object(id, 'sidecar'));
    return bytes && decodeSidecar(id, bytes);
  }

  async scan(now: number): Promise<SidecarScan> {
    const written = new Map<string, number>();
    for (const entry of await this.#objects.list(this.#keys.objects)) {
      const object = this.#keys.parseObject(entry.key);
      if (object?.role === 'sidecar') written.set(object.id, entry.lastModified);
    }
    return scanListing(
      {
        ids: [...written.keys()],
        readHeader: (id) => this.readSidecarHeader(id),
        describeDamaged: async (id) => {
          const bytes = await this.#objects.get(this.#keys.object(id, 'sidecar'));
          return bytes && { writtenAt: written.get(id) ?? 0, name: claimedNameOf(bytes) };
        },
      },
      now,
    );
  }

  async openData(
    id: string,
    options: { signal?: AbortSignal; byteLength?: number },
  ): Promise<SpoolReader> {
    // An empty object has no byte range to ask for (servers disagree on how they refuse).
    if (options.byteLength === 0) return new MemorySpoolReader(new Uint8Array());
    return openS3DataReader(this.#objects, this.#keys.object(id, 'data'), {
      ...this.#reading,
      signal: options.signal,
    });
  }

  dataFile(): string {
    throw new SpoolforgeError('E_STORE_NOT_LOCAL', `${this.label} has no local data files`);
  }

  dataUrl(id: string, options: { expiresInSeconds?: number }): Promise<string> {
    const expiresIn = options.expiresInSeconds ?? this.#reading.expiresInSeconds;
    return presignGet(this.#objects, this.#keys.object(id, 'data'), expiresIn);
  }

  gc(now: number, options: GcOptions): Promise<GcReport> {
    return collectS3Garbage({
      objects: this.#objects,
      keys: this.#keys,
      now,
      options,
      readHeader: (id) => this.readSidecarHeader(id),
    });
  }

  async #settle(id: string, settle: (marker: UploadMarker) => Promise<void>): Promise<void> {
    const marker = this.#markers.get(id);
    if (!marker) return;
    this.#markers.delete(id);
    await settle(marker);
  }
}
