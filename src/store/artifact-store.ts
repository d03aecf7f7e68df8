import { resolve } from 'node:path';
import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../artifact/kinds/built-in-kinds.js';
import { sniffBytes } from '../artifact/kinds/sniff-sample.js';
import type { SpoolSource } from '../artifact/spool.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import type { SpoolReader } from '../spool/spool-reader.js';
import { checkArtifactId, isArtifactId, newArtifactId } from './artifact-id.js';
import type {
  ArtifactStoreOptions,
  GcOptions,
  GcReport,
  PutOptions,
  StoredArtifactRecord,
} from './artifact-store-types.js';
import { checkPutOptions } from './check-put-options.js';
import {
  defaultGraceMilliseconds,
  isExpired,
  removeDeadSpoolDirectories,
} from './collect-garbage.js';
import { LocalStoreBackend } from './local-store-backend.js';
import { openStoredArtifact } from './open-stored-artifact.js';
import {
  type DecodedSidecar,
  encodeSidecar,
  lastDateMilliseconds,
  type SidecarHeader,
} from './sidecar.js';
import { newestNamed } from './sidecar-scan.js';
import type { StoreBackend } from './store-backend.js';

/**
 * A directory of artifacts that outlive the process: `put` streams a source in (bounded memory,
 * crash-safe: data and then a msgpack sidecar are each written to a temp file, fsynced and
 * renamed), and any process can `get` it back by id or name with its line index restored, so
 * even a tail of a multi-GB artifact reads only a few KiB. Artifacts may expire (`ttl`); `gc`
 * removes expired artifacts and what crashed writers left behind. The same API runs on a bucket
 * of S3-compatible storage, shared by many machines: `openS3ArtifactStore` of `spoolforge/s3`.
 *
 * @example
 * ```ts
 * const store = await ArtifactStore.open('/var/lib/agent/artifacts', { defaultTtl: 86_400_000 });
 * const record = await store.put(createReadStream('build.log'), { name: 'ci build 4812' });
 * await using artifact = await store.get('ci build 4812');
 * console.log(record.id, await artifact.tail(5));
 * ```
 */
export class ArtifactStore {
  readonly #backend: StoreBackend;
  readonly #defaultTtl: number | undefined;
  /** The kinds `put` records and `get` opens (unless a call passes its own). */
  readonly kinds: ArtifactKinds;
  readonly #now: () => number;

  private constructor(backend: StoreBackend, options: ArtifactStoreOptions) {
    this.#backend = backend;
    this.#defaultTtl = checkTtl(options.defaultTtl);
    this.kinds = options.kinds ?? defaultArtifactKinds;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Opens (creating with mode `0700`, like `mkdir -p`) the store in `directory`. A path that
   * cannot be a store (a file, under a file, not permitted) gives `E_IO`, the system's error as
   * its `cause`.
   */
  static async open(directory: string, options: ArtifactStoreOptions = {}): Promise<ArtifactStore> {
    return new ArtifactStore(await LocalStoreBackend.open(resolve(directory)), options);
  }

  /**
   * A store over another backend (object storage); `openS3ArtifactStore` of `spoolforge/s3`
   * builds one.
   */
  static fromBackend(backend: StoreBackend, options: ArtifactStoreOptions = {}): ArtifactStore {
    return new ArtifactStore(backend, options);
  }

  /**
   * The store's root, absolute. A store whose artifacts are not local files (S3) has none:
   * `E_STORE_NOT_LOCAL`.
   */
  get directory(): string {
    const { directory } = this.#backend;
    if (directory === undefined) throw notLocal(this.#backend.label, 'a directory');
    return directory;
  }

  /** True when artifacts are files under {@link ArtifactStore.directory}. */
  get isLocal(): boolean {
    return this.#backend.directory !== undefined;
  }

  /** The store's directory, or its `s3://bucket/prefix` URL. */
  get location(): string {
    return this.#backend.label;
  }

  /**
   * Streams `source` into the store and returns its record once it is durable and visible.
   * The kind is `options.kind`, else what `mediaType` says, else sniffed from the first 64 KiB.
   * Aborting rejects with `E_ABORTED` and removes the temp file.
   */
  async put(source: SpoolSource, options: PutOptions = {}): Promise<StoredArtifactRecord> {
    const { signal } = options;
    const kinds = options.kinds ?? this.kinds;
    checkPutOptions(options, kinds);
    const ttl = checkTtl(options.ttl) ?? this.#defaultTtl;
    const metadata = options.metadata ?? {};
    throwIfAborted(signal);
    const id = newArtifactId();
    const backend = this.#backend;
    const ingested = await backend.writeData(id, source, signal);
    try {
      const { lineIndex, head } = ingested;
      const kind = kinds.resolve({
        kind: options.kind,
        mediaType: options.mediaType,
        head,
        complete: lineIndex.byteLength <= sniffBytes,
      });
      const createdAt = this.#now();
      const record: StoredArtifactRecord = {
        id,
        name: options.name,
        kind: kind.name,
        mediaType: options.mediaType ?? kind.mediaType,
        byteLength: lineIndex.byteLength,
        lineCount: lineIndex.lineCount,
        createdAt,
        // Infinity, or an expiry past what a Date holds, is never.
        expiresAt:
          ttl === undefined || createdAt + ttl > lastDateMilliseconds ? undefined : createdAt + ttl,
        metadata,
        sha256: ingested.sha256,
      };
      const sidecar = encodeSidecar({ record, writtenAt: preciseNow() }, lineIndex.snapshot());
      await backend.writeSidecar(id, sidecar);
      return record;
    } catch (error) {
      // A kind's sniffer may throw, a write may fail: no data without a record. The first
      // failure is the one to report.
      await backend.remove(id).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The record of a live artifact by id, else the newest live one with that name; `undefined`
   * for none. Reads only the sidecar's header. A damaged sidecar of that id, or one that may be
   * the newest with that name, gives `E_ARTIFACT_DAMAGED` naming it.
   */
  async info(idOrName: string): Promise<StoredArtifactRecord | undefined> {
    return (await this.#find(idOrName))?.record;
  }

  /**
   * Reopens a live artifact (by id, else the newest with that name) as the class of its kind in
   * `options.kinds` (default the store's; a kind not there opens as a plain `SpooledArtifact`),
   * reading in place from its data file with the stored line index. Unknown or expired:
   * `E_ARTIFACT_NOT_FOUND`; a damaged sidecar (one failing its checksums; by name, one that may
   * be the newest with that name) or missing data: `E_ARTIFACT_DAMAGED`, naming the artifact.
   */
  async get(
    idOrName: string,
    options: { signal?: AbortSignal; kinds?: ArtifactKinds } = {},
  ): Promise<SpooledArtifact> {
    throwIfAborted(options.signal);
    // By id the sidecar is read once; by name, headers find the newest, then its sidecar.
    const live = (found: DecodedSidecar | undefined) =>
      found && !isExpired(found.record, this.#now()) ? found : undefined;
    const read = (id: string) => this.#backend.readSidecar(id);
    let sidecar = isArtifactId(idOrName) ? live(await read(idOrName)) : undefined;
    if (!sidecar) {
      const named = newestNamed(await this.#backend.scan(this.#now()), idOrName);
      sidecar = named && live(await read(named.record.id));
    }
    if (!sidecar) {
      throw new SpoolforgeError('E_ARTIFACT_NOT_FOUND', `No artifact ${JSON.stringify(idOrName)}`);
    }
    throwIfAborted(options.signal);
    const kinds = options.kinds ?? this.kinds;
    return openStoredArtifact({ backend: this.#backend, sidecar, kinds });
  }

  /** The live artifacts (complete and unexpired), newest first; damaged sidecars are skipped. */
  async list(): Promise<StoredArtifactRecord[]> {
    return (await this.#backend.scan(this.#now())).live.map((header) => header.record);
  }

  /**
   * Deletes a live artifact (by id, else the newest with that name): the sidecar first, so it
   * vanishes at once, then its data. By id it deletes a damaged artifact too. False when there
   * was none.
   */
  async delete(idOrName: string): Promise<boolean> {
    const found = await this.#find(idOrName).catch((error: unknown) => {
      const damagedById =
        SpoolforgeError.isInstance(error) &&
        error.code === 'E_ARTIFACT_DAMAGED' &&
        isArtifactId(idOrName);
      if (damagedById) return { record: { id: idOrName } };
      throw error;
    });
    if (!found) return false;
    await this.#backend.remove(found.record.id);
    return true;
  }

  /**
   * The absolute path of an artifact's data file (which may not exist); ids only, no names. A
   * store whose artifacts are not local files: `E_STORE_NOT_LOCAL`.
   */
  dataFile(id: string): string {
    checkArtifactId(id);
    if (!this.isLocal) throw notLocal(this.#backend.label, 'data files');
    return this.#backend.dataFile(id);
  }

  /**
   * A reader of an artifact's raw bytes by id, for serving ranges: no sidecar is read, and a
   * missing artifact fails on the first read.
   */
  openData(id: string, options: { signal?: AbortSignal } = {}): Promise<SpoolReader> {
    return this.#backend.openData(checkArtifactId(id), options);
  }

  /**
   * A URL that serves an artifact's bytes without credentials for `expiresInSeconds` (a
   * presigned GET), where the backend has one; `undefined` for a local store.
   */
  async dataUrl(
    id: string,
    options: { expiresInSeconds?: number } = {},
  ): Promise<string | undefined> {
    return this.#backend.dataUrl?.(checkArtifactId(id), options);
  }

  /**
   * Removes expired artifacts (sidecar first), data files without a sidecar and sidecars
   * without data or past decoding (once older than `graceMilliseconds`), temp files whose
   * writer process is gone (or untouched for a day), and, with `spoolDirectory`, the private
   * spool directories of dead processes. It never follows a symbolic link and never removes a
   * name that is not the store's own. Pids are only meaningful on one host: do not share a
   * store directory between machines or pid namespaces while puts are running.
   */
  async gc(options: GcOptions = {}): Promise<GcReport> {
    const report = await this.#backend.gc(this.#now(), options);
    if (options.spoolDirectory !== undefined) {
      report.spoolDirectories = await removeDeadSpoolDirectories(
        options.spoolDirectory,
        options.graceMilliseconds ?? defaultGraceMilliseconds,
        options.signal,
      );
    }
    return report;
  }

  async #find(idOrName: string): Promise<SidecarHeader | undefined> {
    if (isArtifactId(idOrName)) {
      const header = await this.#backend.readSidecarHeader(idOrName);
      if (header && !isExpired(header.record, this.#now())) return header;
    }
    return newestNamed(await this.#backend.scan(this.#now()), idOrName);
  }
}

/** Wall-clock milliseconds with sub-millisecond precision, to order puts within one `createdAt`. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

function notLocal(label: string, what: string): SpoolforgeError {
  return new SpoolforgeError(
    'E_STORE_NOT_LOCAL',
    `The artifact store ${label} keeps its artifacts remotely: it has no ${what}`,
  );
}

/** A ttl is milliseconds ≥ 0; `Infinity` (or anything past what a `Date` holds) is never. */
function checkTtl(ttl: number | undefined): number | undefined {
  if (ttl !== undefined && !(ttl >= 0)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `A ttl is milliseconds ≥ 0, not ${ttl}`);
  }
  return ttl;
}
