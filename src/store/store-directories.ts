import { chmod, lstat, mkdir } from 'node:fs/promises';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { StorePaths } from './store-paths.js';

/**
 * Creates (like `mkdir -p`) a store's root, `objects/` and `tmp/`, each `0700`. A path that
 * cannot hold a store (a file, a file on the way, no permission) or a folder that is a symbolic
 * link gives `E_IO`, with the system's error as its `cause`.
 *
 * @example
 * ```ts
 * await createStoreDirectories(new StorePaths('/var/lib/agent/artifacts'));
 * ```
 */
export async function createStoreDirectories(paths: StorePaths): Promise<void> {
  try {
    const created = await mkdir(paths.root, { recursive: true, mode: 0o700 });
    if (created !== undefined) await chmod(paths.root, 0o700);
    for (const folder of [paths.objects, paths.temporary]) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      // A symbolic link planted here would send puts, chmod and gc outside the store.
      if (!(await lstat(folder)).isDirectory()) {
        throw new SpoolforgeError('E_IO', `${folder}: not a directory (a symbolic link?)`);
      }
      await chmod(folder, 0o700);
    }
  } catch (error) {
    if (SpoolforgeError.isInstance(error)) throw error;
    throw new SpoolforgeError(
      'E_IO',
      `Cannot open the artifact store at ${paths.root}: ${openFailure(error)}`,
      { cause: error },
    );
  }
}

/** Why a store's directory could not be made or used, as a person would say it. */
function openFailure(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'the path, or a folder on it, is a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return (error as Error).message ?? String(error);
  }
}
