import { readdir, stat } from 'node:fs/promises';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { isExpired } from './collect-garbage.js';
import type { SidecarHeader } from './sidecar.js';
import { claimedName, readSidecarHeader } from './sidecar-files.js';
import { StorePaths } from './store-paths.js';

/** Sidecar headers read at once while listing: bounded, so a big store cannot exhaust descriptors. */
const listingConcurrency = 32;

/**
 * A sidecar that fails its checks: its id, when it was last written (its mtime), and the name
 * it still claims when that much can be read.
 */
export interface DamagedSidecar {
  id: string;
  writtenAt: number;
  name: string | undefined;
}

/**
 * What one pass over a store's sidecars found: the live headers newest first, and the damaged.
 *
 * @example
 * ```ts
 * const { live, damaged } = await scanSidecars(paths, Date.now());
 * ```
 */
export interface SidecarScan {
  live: SidecarHeader[];
  damaged: DamagedSidecar[];
}

/**
 * Where a scan finds sidecars: their ids, how to read one's header, and, for a damaged one,
 * when it was written and the name it still claims (`undefined` when it is gone meanwhile).
 */
export interface SidecarListing {
  ids: string[];
  readHeader(id: string): Promise<SidecarHeader | undefined>;
  describeDamaged(id: string): Promise<Omit<DamagedSidecar, 'id'> | undefined>;
}

/**
 * Reads every sidecar header of the store: the readable and unexpired ones newest first (by
 * `createdAt`, then `writtenAt`), and those that fail their checks. A sidecar that cannot be
 * read for another reason (EMFILE, removed meanwhile) is skipped.
 *
 * @example
 * ```ts
 * const records = (await scanSidecars(paths, Date.now())).live.map((header) => header.record);
 * ```
 */
export async function scanSidecars(paths: StorePaths, now: number): Promise<SidecarScan> {
  const ids: string[] = [];
  for (const name of await readdir(paths.objects)) {
    const object = StorePaths.parseObjectName(name);
    if (object?.role === 'sidecar') ids.push(object.id);
  }
  return scanListing(
    {
      ids,
      readHeader: (id) => readSidecarHeader(paths.file(id, 'sidecar'), id),
      describeDamaged: async (id) => {
        const path = paths.file(id, 'sidecar');
        const stats = await stat(path).catch(() => undefined);
        return stats && { writtenAt: stats.mtimeMs, name: await claimedName(path) };
      },
    },
    now,
  );
}

/**
 * {@link scanSidecars} over any listing, a bounded number of headers read at once.
 *
 * @example
 * ```ts
 * const scan = await scanListing(listing, Date.now());
 * ```
 */
export async function scanListing(listing: SidecarListing, now: number): Promise<SidecarScan> {
  const { ids } = listing;
  const live: SidecarHeader[] = [];
  const damaged: DamagedSidecar[] = [];
  const readOne = async (id: string) => {
    try {
      const header = await listing.readHeader(id);
      if (header && !isExpired(header.record, now)) live.push(header);
    } catch (error) {
      if (!SpoolforgeError.isInstance(error) || error.code !== 'E_ARTIFACT_DAMAGED') return;
      const described = await listing.describeDamaged(id);
      if (described) damaged.push({ id, ...described });
    }
  };
  for (let start = 0; start < ids.length; start += listingConcurrency) {
    await Promise.all(ids.slice(start, start + listingConcurrency).map(readOne));
  }
  live.sort((a, b) => b.record.createdAt - a.record.createdAt || b.writtenAt - a.writtenAt);
  return { live, damaged };
}

/**
 * A damaged sidecar's time is its file's mtime, which the kernel stamps from a coarser clock
 * than `Date.now()` (a few ms behind): one written just after the readable match may look older.
 */
const mtimeSlack = 1_000;

/**
 * The newest live header named `name`, or `undefined`. When a damaged sidecar may be the answer
 * instead, it throws `E_ARTIFACT_DAMAGED` naming it rather than answer with an older artifact:
 * one written after the match or within a second before it (its name cannot be trusted, a
 * changed byte may be in it), or,
 * with no match, one that still claims the name.
 *
 * @example
 * ```ts
 * const header = newestNamed(await scanSidecars(paths, Date.now()), 'ci build 4812');
 * ```
 */
export function newestNamed(scan: SidecarScan, name: string): SidecarHeader | undefined {
  const match = scan.live.find((header) => header.record.name === name);
  const rivals = scan.damaged.filter((entry) =>
    match ? entry.writtenAt > match.writtenAt - mtimeSlack : entry.name === name,
  );
  if (rivals.length === 0) return match;
  const ids = rivals.map((entry) => entry.id).join(', ');
  const subject = rivals.length === 1 ? `Artifact ${ids} is` : `Artifacts ${ids} are`;
  throw new SpoolforgeError(
    'E_ARTIFACT_DAMAGED',
    `${subject} damaged and may be the newest named ${JSON.stringify(name)}` +
      `${match ? ` (the newest readable one is ${match.record.id})` : ''}: ` +
      'delete by id, or let gc remove, what is damaged to look this name up again',
  );
}
