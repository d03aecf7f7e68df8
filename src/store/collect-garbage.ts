import type { Stats } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { tempDirectoryPrefix } from '../spool/temp-directory.js';
import type { GcOptions, GcReport, StoredArtifactRecord } from './artifact-store-types.js';
import { isProcessAlive } from './process-alive.js';
import { readSidecarHeader } from './sidecar-files.js';
import { StorePaths } from './store-paths.js';

/** Orphans and temp files younger than this are left alone by default. */
export const defaultGraceMilliseconds = 60_000;

/**
 * A temp file of a live process untouched this long is taken for a leftover of a dead writer
 * whose pid was reused.
 */
const staleTemporaryMilliseconds = 24 * 60 * 60 * 1000;

/** `spoolforge-<pid>-XXXXXX`, as `mkdtemp` names a process's private spool directory. */
const spoolDirectoryPattern = new RegExp(`^${tempDirectoryPrefix}([1-9]\\d{0,9})-[A-Za-z0-9]{6}$`);

/**
 * True when the record's `expiresAt` has come by the clock `now`.
 *
 * @example
 * ```ts
 * if (isExpired(record, Date.now())) return undefined;
 * ```
 */
export function isExpired(record: StoredArtifactRecord, now: number): boolean {
  return record.expiresAt !== undefined && now >= record.expiresAt;
}

/**
 * One garbage collection of a store (see `ArtifactStore.gc`). It lists the store with
 * fast-glob without following symbolic links, looks only at regular files whose names are the
 * store's own, and removes nothing outside the store but what `spoolDirectory` names.
 *
 * @example
 * ```ts
 * const report = await collectGarbage(new StorePaths(root), Date.now(), { graceMilliseconds: 0 });
 * ```
 */
export async function collectGarbage(
  paths: StorePaths,
  now: number,
  options: GcOptions = {},
): Promise<GcReport> {
  const { signal } = options;
  const grace = options.graceMilliseconds ?? defaultGraceMilliseconds;
  const isOld = (stats: Stats, age = grace) => Date.now() - stats.mtimeMs > age;
  const report: GcReport = { expired: [], orphans: [], temporary: [], spoolDirectories: [] };
  const files = await storeFiles(paths);

  for (const [id, path] of files.sidecars) {
    throwIfAborted(signal);
    const stats = await regularFile(path);
    // `null`: damaged, `undefined`: removed meanwhile. A failure to read it (EMFILE, EIO) says
    // nothing about the artifact: it is left for the next run.
    const header = stats && (await readSidecarHeader(path, id).catch(damagedOrSkipped));
    if (!stats || header === undefined) continue;
    const dataPath = paths.file(id, 'data');
    if (header && isExpired(header.record, now)) {
      await rm(path, { force: true }); // the sidecar first: the artifact vanishes at once
      if (await regularFile(dataPath)) await rm(dataPath, { force: true });
      report.expired.push(id);
    } else if ((!header || !(await regularFile(dataPath))) && isOld(stats)) {
      await rm(path, { force: true });
      report.orphans.push(path);
    }
  }
  for (const [id, path] of files.data) {
    throwIfAborted(signal);
    const stats = await regularFile(path);
    if (!stats || !isOld(stats) || (await entryExists(paths.file(id, 'sidecar')))) continue;
    await rm(path, { force: true });
    report.orphans.push(path);
  }
  for (const { path, pid } of files.temporary) {
    throwIfAborted(signal);
    const stats = await regularFile(path);
    const abandoned =
      stats && (!isProcessAlive(pid) || isOld(stats, Math.max(grace, staleTemporaryMilliseconds)));
    if (!abandoned) continue;
    await rm(path, { force: true });
    report.temporary.push(path);
  }
  return report;
}

/** The store's own files by kind: `*∕*` from the root, so a symlinked folder is never entered. */
async function storeFiles(paths: StorePaths) {
  const sidecars = new Map<string, string>();
  const data = new Map<string, string>();
  const temporary: { path: string; pid: number }[] = [];
  // Loaded on first use: only a gc needs it, and it costs ~10 MiB of memory to load.
  const { default: fastGlob } = await import('fast-glob');
  const entries = await fastGlob('*/*', {
    cwd: paths.root,
    onlyFiles: true,
    followSymbolicLinks: false,
    dot: true,
    suppressErrors: true,
  });
  for (const entry of entries) {
    const [folder = '', name = ''] = entry.split('/');
    const path = join(paths.root, folder, name);
    if (path === join(paths.objects, name)) {
      const object = StorePaths.parseObjectName(name);
      if (object) (object.role === 'data' ? data : sidecars).set(object.id, path);
    } else if (path === join(paths.temporary, name)) {
      const pid = StorePaths.temporaryFilePid(name);
      if (pid !== undefined) temporary.push({ path, pid });
    }
  }
  return { sidecars, data, temporary };
}

/**
 * Removes the private spool directories (`spoolforge-<pid>-*`) of dead processes directly under
 * `parent`, untouched for `grace` ms; returns their paths.
 *
 * @example
 * ```ts
 * const removed = await removeDeadSpoolDirectories(os.tmpdir(), 60_000, signal);
 * ```
 */
export async function removeDeadSpoolDirectories(
  parent: string,
  grace: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(parent, { withFileTypes: true })) {
    throwIfAborted(signal);
    const pid = Number(spoolDirectoryPattern.exec(entry.name)?.[1]);
    if (!entry.isDirectory() || !pid || pid === process.pid || isProcessAlive(pid)) continue;
    const path = join(parent, entry.name);
    // Checked again right before removing: never a symbolic link planted meanwhile, never
    // another user's, and not one touched within the grace period (a process in another pid
    // namespace sharing this directory looks dead from here).
    const stats = await lstat(path).catch(() => undefined);
    const ownedByUs = stats?.uid === (process.getuid?.() ?? stats?.uid);
    if (!stats?.isDirectory() || !ownedByUs || Date.now() - stats.mtimeMs <= grace) continue;
    // One directory that cannot be removed does not stop the others, nor lose the report.
    const gone = await rm(path, { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
    if (gone) removed.push(path);
  }
  return removed;
}

/**
 * `null` for a damaged sidecar; `undefined` (skip it this time) for any other failure.
 *
 * @example
 * ```ts
 * const header = await readSidecarHeader(path, id).catch(damagedOrSkipped);
 * ```
 */
export function damagedOrSkipped(error: unknown): null | undefined {
  return SpoolforgeError.isInstance(error) && error.code === 'E_ARTIFACT_DAMAGED'
    ? null
    : undefined;
}

/** The entry's own stats when it is a regular file (not a symbolic link), else `undefined`. */
async function regularFile(path: string): Promise<Stats | undefined> {
  const stats = await lstat(path).catch(() => undefined);
  return stats?.isFile() ? stats : undefined;
}

async function entryExists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}
