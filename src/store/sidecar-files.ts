import { type FileHandle, open } from 'node:fs/promises';
import { fileError } from '../spool/file-errors.js';
import { readFully } from '../spool/file-io.js';
import {
  claimedNameOf,
  type DecodedSidecar,
  decodeSidecar,
  readSidecarHeaderFrom,
  type SidecarHeader,
  sidecarHeaderBytes,
} from './sidecar.js';

// A local store's sidecars read from their files; the bytes are decoded and checked by
// sidecar.ts, which an S3 store shares.

/**
 * Reads and checks a sidecar's header only (usually its first 16 KiB). `undefined` when the
 * file does not exist; a damaged or foreign file gives `E_ARTIFACT_DAMAGED`.
 *
 * @example
 * ```ts
 * const header = await readSidecarHeader(paths.file(id, 'sidecar'), id);
 * ```
 */
export async function readSidecarHeader(
  path: string,
  id: string,
): Promise<SidecarHeader | undefined> {
  return withSidecar(path, (handle) =>
    readSidecarHeaderFrom(
      id,
      () => readFully(handle, 0, sidecarHeaderBytes),
      () => readWhole(handle),
    ),
  );
}

/**
 * Reads a whole sidecar: the header and the restored line index, checked against each other.
 * `undefined` when the file does not exist; damage gives `E_ARTIFACT_DAMAGED`.
 *
 * @example
 * ```ts
 * const sidecar = await readSidecar(paths.file(id, 'sidecar'), id);
 * sidecar?.lineIndex.lineCount;
 * ```
 */
export async function readSidecar(path: string, id: string): Promise<DecodedSidecar | undefined> {
  return withSidecar(path, async (handle) => decodeSidecar(id, await readWhole(handle)));
}

/**
 * The name a damaged sidecar still claims, read without any check, or `undefined` when even
 * that cannot be read: it tells a lookup by name whether the damaged artifact may be its answer.
 *
 * @example
 * ```ts
 * const name = await claimedName(paths.file(id, 'sidecar'));
 * ```
 */
export async function claimedName(path: string): Promise<string | undefined> {
  const bytes = await withSidecar(path, readWhole).catch(() => undefined);
  return bytes && claimedNameOf(bytes);
}

async function withSidecar<T>(
  path: string,
  read: (handle: FileHandle) => Promise<T>,
): Promise<T | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileError(path, error);
  }
  try {
    return await read(handle);
  } finally {
    await handle.close();
  }
}

async function readWhole(handle: FileHandle): Promise<Uint8Array> {
  return readFully(handle, 0, (await handle.stat()).size);
}
