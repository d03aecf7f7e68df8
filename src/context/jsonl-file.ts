import { type FileHandle, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { writeFully } from '../spool/file-io.js';
import { PooledFile } from '../spool/pooled-file.js';

const blockSize = 64 * 1024;
const newline = 0x0a;

/** A JSON value read back from a {@link JsonlFile}, and the cursor that reads on before it. */
export interface JsonlLine {
  value: unknown;
  /** The byte offset where the line starts, as text: `readBackward({ cursor })` goes on before it. */
  cursor: string;
}

/**
 * An append-only file of JSON values, one a line, read backwards in 64 KiB blocks: the storage
 * of the JSONL conversation log and of its model calls. A line torn by a crash mid-append (no
 * final newline) is cut off on open. The file is a `PooledFile`: closed while idle under the
 * process-wide cap, reopened (checked to be the same file) on its next use.
 *
 * @example
 * ```ts
 * const file = await JsonlFile.open('/var/lib/agent/c1.model-calls.jsonl', { what: 'model-call log' });
 * await file.append([{ call: 0 }]);
 * ```
 */
export class JsonlFile {
  readonly path: string;
  /** What the file holds, for messages: `conversation log`, `model-call log`. */
  readonly what: string;
  readonly #file: PooledFile;
  readonly #sync: boolean;
  #size: number;
  #closed = false;
  /** Appends run one at a time, in call order. */
  #appending: Promise<void> = Promise.resolve();

  private constructor(path: string, what: string, file: PooledFile, size: number, sync: boolean) {
    this.path = path;
    this.what = what;
    this.#file = file;
    this.#size = size;
    this.#sync = sync;
  }

  /**
   * Opens (creating it `0600`, its directory `0700`) the file at `path`.
   *
   * @throws SpoolforgeError `E_IO` when it cannot be created or opened.
   */
  static async open(path: string, options: { what: string; sync?: boolean }): Promise<JsonlFile> {
    const cannotOpen = (error: unknown) => {
      throw new SpoolforgeError('E_IO', `Cannot open the ${options.what} ${path}`, {
        cause: error,
      });
    };
    await mkdir(dirname(path), { recursive: true, mode: 0o700 }).catch(cannotOpen);
    // Created by the first open; reopened without creating, so a file moved away meanwhile
    // fails its append instead of starting again empty.
    const file = new PooledFile(path, { flags: 'a+', reopenFlags: 'r+', mode: 0o600 });
    try {
      const size = await file.use(async (handle) => {
        const length = (await handle.stat()).size;
        const complete = await completeLength(handle, length);
        if (complete !== length) await handle.truncate(complete);
        return complete;
      });
      return new JsonlFile(path, options.what, file, size, options.sync ?? false);
    } catch (error) {
      await file.close();
      return cannotOpen(error);
    }
  }

  /** Bytes of complete lines. */
  get size(): number {
    return this.#size;
  }

  /** Appends `values`, one line each, all or none. */
  append(values: readonly unknown[], options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#closed) {
      return Promise.reject(
        new SpoolforgeError('E_IO', `${this.path}: the ${this.what} is closed`),
      );
    }
    // Appends made before close() still land: close waits for them.
    const appended = this.#appending.then(async () => {
      throwIfAborted(options.signal);
      const bytes = Buffer.from(values.map((value) => `${JSON.stringify(value)}\n`).join(''));
      try {
        await this.#file.use(async (handle) => {
          await writeFully(handle, bytes, this.#size);
          if (this.#sync) await handle.datasync();
        });
      } catch (error) {
        // Part of a batch (a full disk) must not stay: the next append would follow a torn line.
        await this.#file.use((handle) => handle.truncate(this.#size)).catch(() => undefined);
        throw new SpoolforgeError('E_IO', `${this.path}: cannot append to the ${this.what}`, {
          cause: error,
        });
      }
      this.#size += bytes.length;
    });
    this.#appending = appended.catch(() => undefined);
    return appended;
  }

  /**
   * The values newest first, starting before `cursor` (default: the end).
   *
   * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a cursor not of this file, `E_LOG_DAMAGED`
   *   for a line that is not JSON, `E_IO` once closed.
   */
  async *readBackward(
    options: { cursor?: string; signal?: AbortSignal } = {},
  ): AsyncIterable<JsonlLine> {
    await this.#appending;
    if (this.#closed) throw new SpoolforgeError('E_IO', `${this.path}: the ${this.what} is closed`);
    let end = options.cursor === undefined ? this.#size : Number(options.cursor);
    if (!Number.isSafeInteger(end) || end < 0 || end > this.#size) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Not a cursor of this log: ${options.cursor}`,
      );
    }
    if (end === 0) return;
    // Every line ends with a newline: the line before `end` ends at `end - 1`. `parts` holds
    // the bytes already read of the line being assembled (it straddles a block boundary).
    let parts: Buffer[] = [];
    let lineEnd = end - 1;
    while (end > 0) {
      throwIfAborted(options.signal);
      const start = Math.max(0, end - blockSize);
      const block = Buffer.alloc(end - start);
      await this.#file.use((handle) => handle.read(block, 0, block.length, start));
      for (let relativeEnd = lineEnd - start; ; ) {
        const index = relativeEnd > 0 ? block.lastIndexOf(newline, relativeEnd - 1) : -1;
        if (index < 0) {
          parts.unshift(block.subarray(0, relativeEnd));
          break;
        }
        const lineStart = start + index + 1;
        const line = Buffer.concat([block.subarray(index + 1, relativeEnd), ...parts]);
        parts = [];
        yield { value: this.#parse(line, lineStart), cursor: String(lineStart) };
        relativeEnd = index;
      }
      lineEnd = start;
      end = start;
    }
    // The file's first line: no newline before it.
    yield { value: this.#parse(Buffer.concat(parts), 0), cursor: '0' };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#appending;
    await this.#file.close();
  }

  #parse(line: Buffer, offset: number): unknown {
    try {
      return JSON.parse(line.toString('utf8'));
    } catch (error) {
      throw new SpoolforgeError(
        'E_LOG_DAMAGED',
        `${this.path}: the line at byte ${offset} is not JSON`,
        { cause: error },
      );
    }
  }
}

/** The length up to the last complete line: a crash can leave a torn final line. */
async function completeLength(handle: FileHandle, size: number): Promise<number> {
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - blockSize);
    const block = Buffer.alloc(end - start);
    await handle.read(block, 0, block.length, start);
    const last = block.lastIndexOf(newline);
    if (last >= 0) return start + last + 1;
    end = start;
  }
  return 0;
}
