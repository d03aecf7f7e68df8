import { type FileHandle, open } from 'node:fs/promises';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { fileError } from './file-errors.js';
import { readFully, readFullyIntoSync } from './file-io.js';
import type { ReaderDescriptor, ReadOptions, SpoolReader } from './spool-reader.js';

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
  #handle: Promise<FileHandle> | undefined;
  /** The open handle's descriptor, for synchronous reads. */
  #descriptor: number | undefined;

  /**
   * `handle`, when given, is the file already open: read through it (never reopened by `path`,
   * which then only names it in errors) and closed with the reader.
   */
  constructor(path: string, options: { handle?: FileHandle } = {}) {
    this.path = path;
    if (options.handle) {
      this.#handle = Promise.resolve(options.handle);
      this.#descriptor = options.handle.fd;
    }
  }

  async byteLength(): Promise<number> {
    const handle = await this.#open();
    return (await handle.stat()).size;
  }

  async read(position: number, length: number, options?: ReadOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal);
    const handle = await this.#open();
    return readFully(handle, position, length).catch((error: unknown) => {
      throw fileError(this.path, error);
    });
  }

  readIntoSync(target: Uint8Array, position: number): number {
    if (this.#descriptor === undefined) {
      throw new SpoolforgeError('E_IO', `${this.path}: readIntoSync before the file was opened`);
    }
    try {
      return readFullyIntoSync(this.#descriptor, target, position);
    } catch (error) {
      throw fileError(this.path, error);
    }
  }

  describe(): ReaderDescriptor {
    return { kind: 'file', locator: this.path };
  }

  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    this.#descriptor = undefined;
    if (handle) await (await handle.catch(() => undefined))?.close();
  }

  #open(): Promise<FileHandle> {
    this.#handle ??= openRegularFile(this.path).then((handle) => {
      this.#descriptor = handle.fd;
      return handle;
    });
    return this.#handle;
  }
}

async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw fileError(path, error);
  });
  const stats = await handle.stat();
  if (stats.isDirectory()) {
    await handle.close();
    throw fileError(path, Object.assign(new Error('Is a directory'), { code: 'EISDIR' }));
  }
  return handle;
}
