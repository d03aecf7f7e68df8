import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * Writes a file crash-safely: `write` fills a new `0600` temp file, which is fsynced and renamed
 * to `finalPath` only when `write` succeeds; on any failure (an abort included) the temp file is
 * removed and the error rethrown, a system error of the file's own (a full disk) as `E_IO`
 * (`write`'s are its own to wrap: see {@link storeIoError}). After a crash only the temp file
 * can remain, never a partial `finalPath`. Call {@link syncDirectory} on the final directory to
 * make the rename durable.
 *
 * @example
 * ```ts
 * await writeThenRename(`${path}.partial`, path, (handle) => writeFully(handle, bytes, 0));
 * await syncDirectory(dirname(path));
 * ```
 */
export async function writeThenRename<T>(
  temporaryPath: string,
  finalPath: string,
  write: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  const handle = await open(temporaryPath, 'wx', 0o600).catch((error: unknown) => {
    throw storeIoError(temporaryPath, error);
  });
  try {
    const result = await write(handle);
    try {
      // Renaming keeps the mtime: a source that went quiet before it ended must not land
      // looking like an old orphan that a concurrent gc would remove before its sidecar arrives.
      const now = new Date();
      await handle.utimes(now, now);
      await handle.sync();
      await handle.close();
      await rename(temporaryPath, finalPath);
    } catch (error) {
      throw storeIoError(temporaryPath, error);
    }
    return result;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporaryPath, { force: true });
    throw error;
  }
}

/**
 * Fsyncs a directory so the entries renamed into it survive a power loss. Where a platform
 * cannot fsync directories (Windows), that is not an error.
 *
 * @example
 * ```ts
 * await syncDirectory('/var/lib/agent/artifacts/objects');
 * ```
 */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw storeIoError(path, error);
  });
  try {
    await handle.sync().catch((error: NodeJS.ErrnoException) => {
      if (!['EPERM', 'EINVAL', 'EISDIR', 'EBADF'].includes(error.code ?? '')) {
        throw storeIoError(path, error);
      }
    });
  } finally {
    await handle.close();
  }
}

/**
 * A store's file-system failure as `E_IO` naming the path, the system error (`ENOSPC`,
 * `EACCES`…) as `cause`; a `SpoolforgeError` passes through.
 *
 * @example
 * ```ts
 * await writer.write(bytes, offset).catch((error) => { throw storeIoError(path, error); });
 * ```
 */
export function storeIoError(path: string, error: unknown): SpoolforgeError {
  if (SpoolforgeError.isInstance(error)) return error;
  const message = (error as Error | undefined)?.message ?? String(error);
  return new SpoolforgeError('E_IO', `${path}: ${message}`, { cause: error });
}
