import type { FileHandle } from 'node:fs/promises';
import { unlink } from 'node:fs/promises';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { fileError } from '../spool/file-errors.js';
import { readFullyIntoSync } from '../spool/file-io.js';
import { createTempFile } from '../spool/temp-directory.js';

/**
 * A private temporary file, already unlinked, for a part scan to write the output it has no
 * credit to post yet: nothing is left behind, whatever ends the process. Its descriptor is
 * shared with the worker threads (they are in the same process). `undefined` where no file can
 * be made (no writable temporary directory): the part then waits for credit instead.
 *
 * @example
 * ```ts
 * const spill = await openSpillFile();
 * try { // workerData: { spillFd: spill?.fd }
 * } finally { await spill?.close(); }
 * ```
 */
export async function openSpillFile(): Promise<FileHandle | undefined> {
  try {
    const { path, handle } = await createTempFile();
    await unlink(path).catch(() => undefined);
    return handle;
  } catch {
    return undefined;
  }
}

/**
 * Reads back the batches a part scan spilled, one at a time into one reused buffer (a batch is
 * about 256 KiB, more only for a line that long).
 *
 * @example
 * ```ts
 * const spill = await openSpillFile();
 * const batch = spill && new SpillReader().read(spill, { position: 0, length: 4096 });
 * ```
 */
export class SpillReader {
  #buffer = Buffer.allocUnsafeSlow(0);

  read(file: FileHandle, range: { position: number; length: number }): Buffer {
    if (this.#buffer.length < range.length) this.#buffer = Buffer.allocUnsafeSlow(range.length);
    const batch = this.#buffer.subarray(0, range.length);
    let read: number;
    try {
      read = readFullyIntoSync(file.fd, batch, range.position);
    } catch (error) {
      throw fileError('grep spill file', error);
    }
    if (read < range.length) {
      throw new SpoolforgeError('E_IO', `grep spill file: ended at ${range.position + read}`);
    }
    return batch;
  }
}
