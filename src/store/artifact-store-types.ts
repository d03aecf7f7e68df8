import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';

/**
 * Options for `ArtifactStore.open`.
 *
 * @example
 * ```ts
 * const store = await ArtifactStore.open('/var/lib/agent/artifacts', { defaultTtl: 86_400_000 });
 * ```
 */
export interface ArtifactStoreOptions {
  /**
   * Milliseconds an artifact lives when `put` names no `ttl`; `Infinity` (or any ttl past what a
   * `Date` holds) is never. Default: until deleted.
   */
  defaultTtl?: number;
  /**
   * The kinds `put` records and `get` opens as their classes (a kind it does not know opens as a
   * plain `SpooledArtifact`). Default `defaultArtifactKinds`.
   */
  kinds?: ArtifactKinds;
  /** The clock TTLs are measured against, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * Options for `ArtifactStore.put`.
 *
 * @example
 * ```ts
 * await store.put(createReadStream('build.log'), { name: 'ci build 4812', ttl: 3_600_000, metadata: { job: 4812 } });
 * ```
 */
export interface PutOptions {
  /**
   * A label for people, models and `get`; never used as a path. Later puts may reuse it. One
   * line of 1 to 100 characters, not only spaces (as `spool()` takes), else `E_INVALID_ARGUMENT`.
   */
  name?: string;
  /**
   * What the bytes are, by kind name (`'json'`); default: the kind the declared `mediaType`
   * means, else the one the first 64 KiB show.
   */
  kind?: string;
  /** The kinds to choose from. Default: the store's. */
  kinds?: ArtifactKinds;
  /** The producer's media type (`application/x-ndjson`), served as Content-Type. */
  mediaType?: string;
  /**
   * Milliseconds until the artifact expires, ≥ 0; `Infinity` (or any ttl past what a `Date`
   * holds) is never. Overrides the store's `defaultTtl`.
   */
  ttl?: number;
  /** Anything msgpack can encode; kept in the sidecar and returned by `list` and `info`. */
  metadata?: Record<string, unknown>;
  /** Aborting stops reading the source and leaves nothing behind but a temp file `gc` removes. */
  signal?: AbortSignal;
}

/**
 * What the store knows of one artifact without reading its data: the sidecar's contents, less
 * the line index.
 *
 * @example
 * ```ts
 * const record: StoredArtifactRecord | undefined = await store.info('ci build 4812');
 * console.log(record?.id, record?.byteLength, record?.lineCount);
 * ```
 */
export interface StoredArtifactRecord {
  /** Random, URL-safe; the file names derive from it, never from `name`. */
  id: string;
  name: string | undefined;
  kind: string;
  mediaType: string | undefined;
  byteLength: number;
  lineCount: number;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds; `undefined` when the artifact never expires. */
  expiresAt: number | undefined;
  metadata: Record<string, unknown>;
  /** SHA-256 of the bytes, hex: a strong validator, served as the ETag. */
  sha256: string;
}

/**
 * Options for `ArtifactStore.gc`.
 *
 * @example
 * ```ts
 * await store.gc({ spoolDirectory: os.tmpdir() });
 * ```
 */
export interface GcOptions {
  /**
   * Also remove the private spool directories (`spoolforge-<pid>-*`) that crashed processes left
   * directly under this directory. Default: not scanned.
   */
  spoolDirectory?: string;
  /** A temp file or orphan younger than this is left alone (a put may be under way). Default 60 s. */
  graceMilliseconds?: number;
  signal?: AbortSignal;
}

/**
 * What one `gc` run removed, by reason.
 *
 * @example
 * ```ts
 * const report: GcReport = await store.gc();
 * console.log(`${report.expired.length} expired artifacts removed`);
 * ```
 */
export interface GcReport {
  /** Ids of artifacts past their `expiresAt`. */
  expired: string[];
  /** Paths (S3: keys) of data files without a sidecar, or sidecars without data. */
  orphans: string[];
  /**
   * Paths of temp files of puts that never finished; in an S3 store, keys of the markers
   * (`uploads/<id>.json`) of puts whose heartbeat stopped.
   */
  temporary: string[];
  /** Paths of spool directories of processes that are gone. */
  spoolDirectories: string[];
  /**
   * S3 only: ids of the multipart uploads aborted, of puts whose heartbeat stopped and, where
   * the server lists uploads, of unmarked ones under the prefix older than a day.
   */
  abortedUploads?: string[];
  /**
   * S3 only: ids of multipart uploads the server refused (or failed) to abort; their parts stay
   * until a bucket lifecycle rule removes them.
   */
  unabortedUploads?: string[];
}
