import { type FileHandle, open, rename, rm } from 'node:fs/promises';

/**
 * Writes a file crash-safely: `write` fills a new `0600` temp file, which is fsynced and renamed
 * to `finalPath` only when `write` succeeds; on any failure (an abort included) the temp file is
 * removed and the error rethrown. After a crash only the temp file can remain, never a partial
 * `finalPath`. Call {@link syncDirectory} on the final directory to make the rename durable.
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
  const handle = await open(temporaryPath, 'wx', 0o600);
  try {
    const result = await write(handle);
    // Renaming keeps the mtime: a source that went quiet before it ended must not land looking
    // like an old orphan that a concurrent gc would remove before its sidecar arrives.
    const now = new Date();
    await handle.utimes(now, now);
    await handle.sync();
    await handle.close();
    await rename(temporaryPath, finalPath);
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
  const handle = await open(path, 'r');
  try {
    await handle.sync().catch((error: NodeJS.ErrnoException) => {
      if (!['EPERM', 'EINVAL', 'EISDIR', 'EBADF'].includes(error.code ?? '')) throw error;
    });
  } finally {
    await handle.close();
  }
}
