import { randomUUID } from 'node:crypto';
import { chmod, type FileHandle, mkdtemp, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onExit } from 'signal-exit';
import { fs } from '../shared/node-fs.js';

const directories = new Map<string, Promise<string>>();
const createdDirectories = new Set<string>();
let exitHookInstalled = false;

/** Spool files live here, one private directory per process and parent directory. */
export const tempDirectoryPrefix = 'spoolforge-';

/**
 * The process's private spool directory under `parent` (default `os.tmpdir()`), created once
 * with mode `0700` and removed with everything in it when the process exits, including on a
 * fatal signal (through signal-exit, which re-raises the signal afterwards).
 *
 * @example
 * ```ts
 * const directory = await privateTempDirectory();
 * ```
 */
export function privateTempDirectory(parent = tmpdir()): Promise<string> {
  let directory = directories.get(parent);
  if (!directory) {
    directory = createDirectory(parent);
    directories.set(parent, directory);
    directory.catch(() => directories.delete(parent));
  }
  return directory;
}

/**
 * Creates a new spool file `0600` inside the private directory; it fails rather than reuse a
 * name that exists.
 *
 * @example
 * ```ts
 * const { path, handle } = await createTempFile();
 * ```
 */
export async function createTempFile(
  parent?: string,
): Promise<{ path: string; handle: FileHandle }> {
  const directory = await privateTempDirectory(parent);
  const path = join(directory, `spool-${randomUUID()}`);
  const handle = await open(path, 'wx+', 0o600);
  return { path, handle };
}

async function createDirectory(parent: string): Promise<string> {
  const directory = await mkdtemp(join(parent, `${tempDirectoryPrefix}${process.pid}-`));
  await chmod(directory, 0o700);
  createdDirectories.add(directory);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // On a normal exit and on a fatal signal (SIGINT, SIGTERM, …) alike; exit handlers must be
    // synchronous, hence rmSync.
    onExit(() => {
      for (const path of createdDirectories) fs.rmSync(path, { recursive: true, force: true });
    });
  }
  return directory;
}
