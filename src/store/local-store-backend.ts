import { rm } from 'node:fs/promises';
import type { SpoolSource } from '../artifact/spool.js';
import { writeFully } from '../spool/file-io.js';
import { FileSpoolReader } from '../spool/file-spool-reader.js';
import { PageCacheWriter } from '../spool/page-cache-writer.js';
import type { SpoolReader } from '../spool/spool-reader.js';
import type { GcOptions, GcReport } from './artifact-store-types.js';
import { collectGarbage } from './collect-garbage.js';
import { storeIoError, syncDirectory, writeThenRename } from './durable-files.js';
import { type IngestedSource, ingestSource } from './ingest-source.js';
import type { DecodedSidecar, SidecarHeader } from './sidecar.js';
import { readSidecar, readSidecarHeader } from './sidecar-files.js';
import { type SidecarScan, scanSidecars } from './sidecar-scan.js';
import type { StoreBackend } from './store-backend.js';
import { createStoreDirectories } from './store-directories.js';
import { StorePaths } from './store-paths.js';

/**
 * The local directory behind an `ArtifactStore`: data and then a msgpack sidecar are each
 * written to a temp file, fsynced and renamed into `objects/` (see `StorePaths`).
 *
 * @example
 * ```ts
 * const backend = await LocalStoreBackend.open('/var/lib/agent/artifacts');
 * ```
 */
export class LocalStoreBackend implements StoreBackend {
  readonly directory: string;
  readonly label: string;
  readonly #paths: StorePaths;

  private constructor(directory: string) {
    this.directory = directory;
    this.label = directory;
    this.#paths = new StorePaths(directory);
  }

  /** Opens (creating with mode `0700`) the store in the absolute path `directory`. */
  static async open(directory: string): Promise<LocalStoreBackend> {
    const backend = new LocalStoreBackend(directory);
    await createStoreDirectories(backend.#paths);
    return backend;
  }

  writeData(id: string, source: SpoolSource, signal?: AbortSignal): Promise<IngestedSource> {
    const paths = this.#paths;
    const temporary = paths.temporaryFile(id, 'data');
    return writeThenRename(temporary, paths.file(id, 'data'), (handle) => {
      const writer = new PageCacheWriter(handle);
      // The disk's failures (a full one) are E_IO; the source's own reach the caller as they are.
      const write = (bytes: Uint8Array, offset: number) =>
        writer.write(bytes, offset).catch((error: unknown) => {
          throw storeIoError(temporary, error);
        });
      return ingestSource(source, write, signal === undefined ? {} : { signal });
    });
  }

  async writeSidecar(id: string, bytes: Uint8Array): Promise<void> {
    const paths = this.#paths;
    await syncDirectory(paths.objects); // the data's rename is durable before the sidecar's
    const temporary = paths.temporaryFile(id, 'sidecar');
    await writeThenRename(temporary, paths.file(id, 'sidecar'), (handle) =>
      writeFully(handle, bytes, 0).catch((error: unknown) => {
        throw storeIoError(temporary, error);
      }),
    );
    await syncDirectory(paths.objects);
  }

  async remove(id: string): Promise<void> {
    await rm(this.#paths.file(id, 'sidecar'), { force: true });
    await rm(this.#paths.file(id, 'data'), { force: true });
  }

  readSidecarHeader(id: string): Promise<SidecarHeader | undefined> {
    return readSidecarHeader(this.#paths.file(id, 'sidecar'), id);
  }

  readSidecar(id: string): Promise<DecodedSidecar | undefined> {
    return readSidecar(this.#paths.file(id, 'sidecar'), id);
  }

  scan(now: number): Promise<SidecarScan> {
    return scanSidecars(this.#paths, now);
  }

  async openData(id: string): Promise<SpoolReader> {
    // Data files never change: idle ones may be closed, so that open artifacts (a session's
    // outputs, many conversations') do not each hold a descriptor.
    return new FileSpoolReader(this.dataFile(id), { closeWhenIdle: true });
  }

  dataFile(id: string): string {
    return this.#paths.file(id, 'data');
  }

  gc(now: number, options: GcOptions): Promise<GcReport> {
    return collectGarbage(this.#paths, now, options);
  }
}
