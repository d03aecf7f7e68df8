import type { FileHandle } from 'node:fs/promises';
import { rm } from 'node:fs/promises';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { Utf8ChunkEncoder } from '../shared/utf8-chunk-encoder.js';
import { readFully, readFullyIntoSync, writeFully } from './file-io.js';
import { LineIndex } from './line-index.js';
import { notReopenable } from './memory-spool-reader.js';
import { PageCacheWriter } from './page-cache-writer.js';
import type { ReadOptions, SpoolReader } from './spool-reader.js';
import { createTempFile } from './temp-directory.js';

/**
 * Options for a {@link SpoolWriter}.
 *
 * @example
 * ```ts
 * const writer = new SpoolWriter({ memoryThreshold: 1024 * 1024 });
 * ```
 */
export interface SpoolWriterOptions {
  /** Bytes kept in memory before spilling to a temp file. Default 4 MiB. */
  memoryThreshold?: number;
  /** Parent of the private `0700` spool directory. Default `os.tmpdir()`. */
  tempDirectory?: string;
  /** Stride of the line index built while writing. */
  lineIndexStride?: number;
}

type Storage =
  | { kind: 'memory'; buffer: Buffer }
  | { kind: 'file'; path: string; handle: FileHandle; writer: PageCacheWriter }
  | { kind: 'closed' };

/**
 * Takes chunks and gives readers. Holds at most `memoryThreshold` bytes plus the chunk being
 * written; past that it spills to a `0600` temp file in a private `0700` directory. It builds the
 * line index as bytes arrive, and its {@link SpoolWriter.reader | reader} answers for what has
 * arrived while writing goes on.
 *
 * @example
 * ```ts
 * const writer = new SpoolWriter();
 * await writer.write('first line\n');
 * const reader = writer.reader(); // already readable
 * await writer.write('second line\n');
 * await writer.end();
 * writer.lineIndex.lineCount; // 2
 * await writer.close(); // removes the temp file, if any
 * ```
 */
export class SpoolWriter {
  static readonly defaultMemoryThreshold = 4 * 1024 * 1024;
  readonly lineIndex: LineIndex;
  readonly #memoryThreshold: number;
  readonly #tempDirectory: string | undefined;
  #storage: Storage = { kind: 'memory', buffer: Buffer.alloc(0) };
  #length = 0;
  #ended = false;
  #pending: Promise<void> = Promise.resolve();
  readonly #encoder = new Utf8ChunkEncoder();

  constructor(options: SpoolWriterOptions = {}) {
    this.#memoryThreshold = options.memoryThreshold ?? SpoolWriter.defaultMemoryThreshold;
    this.#tempDirectory = options.tempDirectory;
    this.lineIndex = new LineIndex(
      options.lineIndexStride === undefined ? {} : { stride: options.lineIndexStride },
    );
  }

  /** Bytes written so far. */
  get byteLength(): number {
    return this.#length;
  }

  /** True once {@link SpoolWriter.end} has run: the spool will not grow any more. */
  get isComplete(): boolean {
    return this.#ended;
  }

  /** The temp file's path once the spool has spilled, else `undefined`. */
  get filePath(): string | undefined {
    return this.#storage.kind === 'file' ? this.#storage.path : undefined;
  }

  /** Appends a chunk; strings are UTF-8 encoded (a surrogate pair split across strings is kept whole). */
  write(chunk: Uint8Array | string, options: { signal?: AbortSignal } = {}): Promise<void> {
    // A surrogate left waiting by a string goes before bytes that follow it.
    const waiting = typeof chunk === 'string' ? undefined : this.#encoder.flush();
    const bytes = typeof chunk === 'string' ? this.#encoder.encode(chunk) : chunk;
    return this.#enqueue(async () => {
      throwIfAborted(options.signal);
      if (this.#ended) throw new SpoolforgeError('E_SPOOL_CLOSED', 'Cannot write: spool ended');
      if (waiting) await this.#append(waiting);
      await this.#append(bytes);
    });
  }

  /** Marks the spool complete after the queued writes. */
  end(): Promise<void> {
    return this.#enqueue(async () => {
      await this.#append(this.#encoder.flush());
      this.#ended = true;
    });
  }

  /** A reader over the bytes written so far; it sees later writes as they land. */
  reader(): SpoolReader {
    return {
      byteLength: async () => this.#length,
      read: (position, length, options) => this.#read(position, length, options),
      readIntoSync: (target, position) => this.#readIntoSync(target, position),
      describe: () => {
        throw notReopenable(this.#storage.kind === 'file' ? 'temp' : 'memory');
      },
    };
  }

  /** Releases memory and removes the temp file. Safe to call more than once. */
  async close(): Promise<void> {
    const storage = this.#storage;
    this.#storage = { kind: 'closed' };
    this.#ended = true;
    if (storage.kind === 'file') {
      await storage.handle.close().catch(() => undefined);
      await rm(storage.path, { force: true });
    }
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#pending.then(task);
    this.#pending = run.catch(() => undefined);
    return run;
  }

  async #append(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 0) return;
    const storage = this.#storage;
    if (storage.kind === 'closed') throw new SpoolforgeError('E_SPOOL_CLOSED', 'Spool is closed');
    if (storage.kind === 'memory' && this.#length + bytes.length <= this.#memoryThreshold) {
      this.#storage = {
        kind: 'memory',
        buffer: grow(storage.buffer, this.#length, bytes, this.#memoryThreshold),
      };
    } else {
      const file = storage.kind === 'file' ? storage : await this.#spill(storage.buffer);
      await file.writer.write(bytes, this.#length);
    }
    this.lineIndex.append(bytes);
    this.#length += bytes.length;
  }

  async #spill(memory: Buffer) {
    const file = await createTempFile(this.#tempDirectory);
    await writeFully(file.handle, memory.subarray(0, this.#length), 0);
    const storage = { kind: 'file' as const, ...file, writer: new PageCacheWriter(file.handle) };
    this.#storage = storage;
    return storage;
  }

  async #read(position: number, length: number, options?: ReadOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal);
    const start = Math.max(0, position);
    const end = Math.min(this.#length, start + Math.max(0, length));
    if (end <= start) return new Uint8Array(0);
    const storage = this.#storage;
    if (storage.kind === 'closed') throw new SpoolforgeError('E_SPOOL_CLOSED', 'Spool is closed');
    if (storage.kind === 'memory') return storage.buffer.subarray(start, end);
    return readFully(storage.handle, start, end - start);
  }

  #readIntoSync(target: Uint8Array, position: number): number {
    const storage = this.#storage;
    const length = Math.max(0, Math.min(target.length, this.#length - position));
    if (storage.kind === 'closed') throw new SpoolforgeError('E_SPOOL_CLOSED', 'Spool is closed');
    if (storage.kind === 'memory') {
      target.set(storage.buffer.subarray(position, position + length));
      return length;
    }
    return readFullyIntoSync(storage.handle.fd, target.subarray(0, length), position);
  }
}

/** Appends into `buffer`, doubling its capacity but never past `limit`. */
function grow(buffer: Buffer, length: number, bytes: Uint8Array, limit: number): Buffer {
  const needed = length + bytes.length;
  let target = buffer;
  if (needed > buffer.length) {
    target = Buffer.allocUnsafe(Math.min(limit, Math.max(needed, buffer.length * 2, 64 * 1024)));
    buffer.copy(target, 0, 0, length);
  }
  target.set(bytes, length);
  return target;
}
