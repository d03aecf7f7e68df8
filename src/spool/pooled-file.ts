import type { Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { fs } from '../shared/node-fs.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * How many pooled files a process (each thread) keeps open at once: past it, the least
 * recently used idle one is closed. A file in use stays open, so a burst may pass it briefly.
 */
export const pooledFileLimit = 64;

/** Options for a {@link PooledFile}. */
export interface PooledFileOptions {
  /** How the file is opened first, e.g. `'a+'` to create it. Default `'r'`. */
  flags?: string;
  /** How it is opened again once the pool closed it; default `flags`. */
  reopenFlags?: string;
  /** The mode of a file the first open creates. */
  mode?: number;
  /** False: held open from the first use until `close()`, outside the pool. Default true. */
  pooled?: boolean;
  /**
   * The file already open: used as it is, outside the pool, never reopened by `path` until
   * `close()` (a file checked by its descriptor stays the file that was checked).
   */
  handle?: FileHandle;
  /** Checks the file at every open (throw to refuse it; the handle is closed again). */
  verify?: (stats: Stats) => void;
}

/**
 * A file opened on first use and, when pooled, closed again while idle so that a process-wide
 * cap of {@link pooledFileLimit} bounds its open descriptors, however many conversation logs
 * and stored artifacts it holds. The next use reopens it and checks it is the same file (device
 * and inode): a file replaced meanwhile gives `E_IO`. Suits files that only this process
 * changes, or nobody: a pooled file removed meanwhile cannot be reopened.
 *
 * @example
 * ```ts
 * const file = new PooledFile('/var/lib/agent/artifacts/objects/a.data');
 * const stats = await file.use((handle) => handle.stat());
 * await file.close();
 * ```
 */
export class PooledFile {
  /** Open pooled files, least recently used first. */
  static readonly #openFiles = new Set<PooledFile>();
  readonly path: string;
  readonly #options: PooledFileOptions;
  #opening: Promise<FileHandle> | undefined;
  /** The open handle's descriptor, for synchronous use; cleared before the handle closes. */
  #descriptor: number | undefined;
  #identity: { dev: number; ino: number } | undefined;
  /** Uses in progress: the pool never closes a file in use. */
  #uses = 0;

  constructor(path: string, options: PooledFileOptions = {}) {
    this.path = path;
    this.#options = options.handle ? { ...options, pooled: false } : options;
    if (options.handle) {
      this.#opening = Promise.resolve(options.handle);
      this.#descriptor = options.handle.fd;
    }
  }

  /** Runs `work` on the open file (opening it as needed); the pool keeps it open meanwhile. */
  async use<Result>(work: (handle: FileHandle) => Promise<Result>): Promise<Result> {
    this.#uses += 1;
    try {
      return await work(await this.#open());
    } finally {
      this.#uses -= 1;
      PooledFile.#trim();
    }
  }

  /**
   * Runs `work` on a descriptor synchronously: the open one, else (the pool closed it) one
   * opened for this call alone.
   */
  useSync<Result>(work: (descriptor: number) => Result): Result {
    if (this.#descriptor !== undefined) {
      this.#touch();
      return work(this.#descriptor);
    }
    const descriptor = fs.openSync(this.path, this.#reopenFlags);
    try {
      this.#check(fs.fstatSync(descriptor));
      return work(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
  }

  /** Closes the file; a later use opens it again, as a new file (whatever is at the path). */
  async close(): Promise<void> {
    this.#identity = undefined;
    const handle = await this.#release()?.catch(() => undefined);
    await handle?.close();
  }

  get #reopenFlags(): string {
    return this.#options.reopenFlags ?? this.#options.flags ?? 'r';
  }

  #touch(): void {
    if (this.#options.pooled === false) return;
    PooledFile.#openFiles.delete(this);
    PooledFile.#openFiles.add(this);
  }

  #open(): Promise<FileHandle> {
    this.#touch();
    if (this.#opening) return this.#opening;
    const first = this.#identity === undefined;
    const flags = first ? (this.#options.flags ?? 'r') : this.#reopenFlags;
    const opening = open(this.path, flags, this.#options.mode).then(async (handle) => {
      try {
        this.#check(await handle.stat());
      } catch (error) {
        await handle.close();
        throw error;
      }
      if (this.#opening === opening) this.#descriptor = handle.fd;
      return handle;
    });
    this.#opening = opening;
    opening.catch(() => {
      if (this.#opening === opening) this.#release();
    });
    PooledFile.#trim();
    return opening;
  }

  #check(stats: Stats): void {
    this.#options.verify?.(stats);
    const identity = this.#identity;
    if (identity === undefined) {
      this.#identity = { dev: stats.dev, ino: stats.ino };
    } else if (identity.dev !== stats.dev || identity.ino !== stats.ino) {
      throw new SpoolforgeError('E_IO', `${this.path}: replaced by another file since opened`);
    }
  }

  /** Forgets the open handle at once (no later use gets its descriptor) and returns it. */
  #release(): Promise<FileHandle> | undefined {
    const opening = this.#opening;
    this.#opening = undefined;
    this.#descriptor = undefined;
    PooledFile.#openFiles.delete(this);
    return opening;
  }

  /** Closes least recently used idle files while more than the limit are open. */
  static #trim(): void {
    for (const file of PooledFile.#openFiles) {
      if (PooledFile.#openFiles.size <= pooledFileLimit) return;
      if (file.#uses > 0) continue;
      file
        .#release()
        ?.then((handle) => handle.close())
        .catch(() => undefined);
    }
  }
}
