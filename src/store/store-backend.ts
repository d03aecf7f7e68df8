import type { SpoolSource } from '../artifact/spool.js';
import type { SpoolReader } from '../spool/spool-reader.js';
import type { GcOptions, GcReport } from './artifact-store-types.js';
import type { IngestedSource } from './ingest-source.js';
import type { DecodedSidecar, SidecarHeader } from './sidecar.js';
import type { SidecarScan } from './sidecar-scan.js';

/**
 * Where an `ArtifactStore` keeps its bytes: a local directory or a bucket. The store does what
 * every backend shares (ids, kinds, records, TTL, lookup by name); a backend only moves bytes.
 * Ids reach a backend already checked with `isArtifactId`.
 *
 * @example
 * ```ts
 * const store = ArtifactStore.fromBackend(await LocalStoreBackend.open('/var/lib/agent/artifacts'));
 * ```
 */
export interface StoreBackend {
  /** The local root, absolute; `undefined` where artifacts are not local files. */
  readonly directory: string | undefined;
  /** What the store is, for messages: a path or an `s3://bucket/prefix` URL. */
  readonly label: string;
  /**
   * Streams `source` into the data of `id`, not yet visible, learning the line index, SHA-256
   * and head on the way. On failure (an abort included) nothing of it is left but what `gc`
   * removes.
   */
  writeData(id: string, source: SpoolSource, signal?: AbortSignal): Promise<IngestedSource>;
  /** Writes the sidecar of `id` (after its data: this makes the artifact visible) and settles the put. */
  writeSidecar(id: string, bytes: Uint8Array): Promise<void>;
  /** Removes the sidecar of `id` (so it vanishes at once), then its data; absent ones are fine. */
  remove(id: string): Promise<void>;
  /** The checked header of `id`'s sidecar; `undefined` when there is none. */
  readSidecarHeader(id: string): Promise<SidecarHeader | undefined>;
  /** The whole checked sidecar of `id`; `undefined` when there is none. */
  readSidecar(id: string): Promise<DecodedSidecar | undefined>;
  /** Every sidecar's header, live ones newest first (see `scanListing`). */
  scan(now: number): Promise<SidecarScan>;
  /**
   * A reader of `id`'s data; missing data shows when it is first read. `byteLength`, when the
   * caller knows it from the record, may spare a backend requests.
   */
  openData(
    id: string,
    options: { signal?: AbortSignal; byteLength?: number },
  ): Promise<SpoolReader>;
  /** The local path of `id`'s data; `E_STORE_NOT_LOCAL` where there is none. */
  dataFile(id: string): string;
  /** A URL that serves `id`'s data without credentials for a while, where the backend has one. */
  dataUrl?(id: string, options: { expiresInSeconds?: number }): Promise<string>;
  gc(now: number, options: GcOptions): Promise<GcReport>;
}
