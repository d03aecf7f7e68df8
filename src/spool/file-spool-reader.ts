import type { FileHandle } from 'node:fs/promises';
import { throwIfAborted } from '../shared/spoolforge-error.js';
import { fileError } from './file-errors.js';
import { readFully, readFullyIntoSync } from './file-io.js';
import { PooledFile, pooledFileLimit } from './pooled-file.js';
import type { ReaderDescriptor, ReadOptions, SpoolReader } from './spool-reader.js';

/** Options for a {@link FileSpoolReader}. */
export interface FileSpoolReaderOptions {
  /**
   * Let the file be closed while idle: a process-wide pool keeps at most
   * {@link pooledFileLimit} such files open, and the next read reopens it, checking it is the
   * same file. For files nobody changes or removes while they are read (stored artifacts).
   * Default false: the file stays open from the first read until `close()`.
   */
  closeWhenIdle?: boolean;
  /**
   * The file already open: read through it, never reopened by `path` (which then only names it
   * in errors), and closed with the reader. For a file checked by its descriptor.
   */
  handle?: FileHandle;
}

/**
 * Reads a file in place with positioned reads; the file is opened on first use and never loaded
 * whole. A file that grows (a log being written) is seen at its current length on every call.
 *
 * @example
 * ```ts
 * const reader = new FileSpoolReader('/var/log/build.log');
 * const tailBytes = await reader.read((await reader.byteLength()) - 4096, 4096);
 * await reader.close();
 * ```
 */
export class FileSpoolReader implements SpoolReader {
  readonly path: string;
  readonly #file: PooledFile;

  constructor(path: string, options: FileSpoolReaderOptions = {}) {
    this.path = path;
    this.#file = new PooledFile(path, {
      pooled: options.closeWhenIdle === true,
      ...(options.handle ? { handle: options.handle } : {}),
      verify: (stats) => {
        if (stats.isDirectory()) {
          throw fileError(path, Object.assign(new Error('Is a directory'), { code: 'EISDIR' }));
        }
      },
    });
  }

  byteLength(): Promise<number> {
    return this.#use(async (handle) => (await handle.stat()).size);
  }

  read(position: number, length: number, options?: ReadOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal);
    return this.#use((handle) => readFully(handle, position, length));
  }

  /** Reads through the open descriptor; when there is none, one opened for this read alone. */
  readIntoSync(target: Uint8Array, position: number): number {
    try {
      return this.#file.useSync((descriptor) => readFullyIntoSync(descriptor, target, position));
    } catch (error) {
      throw fileError(this.path, error);
    }
  }

  describe(): ReaderDescriptor {
    return { kind: 'file', locator: this.path };
  }

  close(): Promise<void> {
    return this.#file.close();
  }

  async #use<Result>(work: (handle: FileHandle) => Promise<Result>): Promise<Result> {
    try {
      return await this.#file.use(work);
    } catch (error) {
      throw fileError(this.path, error);
    }
  }
}
