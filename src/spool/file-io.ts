import type { FileHandle } from 'node:fs/promises';
import { fs } from '../shared/node-fs.js';

/**
 * Reads up to `length` bytes at `position` into a new buffer, looping over short reads; fewer
 * bytes come back only at end of file.
 *
 * @example
 * ```ts
 * const header = await readFully(handle, 0, 512);
 * ```
 */
export async function readFully(
  handle: FileHandle,
  position: number,
  length: number,
): Promise<Uint8Array> {
  const buffer = Buffer.allocUnsafe(Math.max(0, length));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      buffer.length - filled,
      position + filled,
    );
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * Fills `target` from `position` with synchronous reads of a descriptor; returns the bytes
 * read (fewer only at end of file).
 *
 * @example
 * ```ts
 * const bytesRead = readFullyIntoSync(handle.fd, recycledBuffer, offset);
 * ```
 */
export function readFullyIntoSync(
  descriptor: number,
  target: Uint8Array,
  position: number,
): number {
  let filled = 0;
  while (filled < target.length) {
    const bytesRead = fs.readSync(
      descriptor,
      target,
      filled,
      target.length - filled,
      position + filled,
    );
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * Writes all of `bytes` at `position`, looping over short writes.
 *
 * @example
 * ```ts
 * await writeFully(handle, chunk, offset);
 * ```
 */
export async function writeFully(
  handle: FileHandle,
  bytes: Uint8Array,
  position: number,
): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const result = await handle.write(bytes, written, bytes.length - written, position + written);
    written += result.bytesWritten;
  }
}

/**
 * Writes all of `bytes` at `position` synchronously, looping over short writes.
 *
 * @example
 * ```ts
 * writeFullySync(handle.fd, chunk, offset);
 * ```
 */
export function writeFullySync(descriptor: number, bytes: Uint8Array, position: number): void {
  let written = 0;
  while (written < bytes.length) {
    written += fs.writeSync(descriptor, bytes, written, bytes.length - written, position + written);
  }
}
