import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import {
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { decode, encode } from '@msgpack/msgpack';
import { LineIndex, type LineIndexSnapshot } from '../spool/line-index.js';

/** Smaller files are scanned again: reading them costs less than a cache file. */
export const minimumCachedFileBytes = 16 * 1024 * 1024;
/** Entries unused this long are removed when another is saved: rotated logs leave none behind. */
const unusedEntryMilliseconds = 30 * 24 * 60 * 60 * 1000;
const formatVersion = 2;

/**
 * A regular file as the CLI opened it: the path and the stats that key its cached index.
 *
 * @example
 * ```ts
 * const file: CachedFile = { path: 'build.log', stats: await stat('build.log') };
 * ```
 */
export interface CachedFile {
  path: string;
  stats: Stats;
}

interface CacheEntry {
  version: number;
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  inode: number;
  device: number;
  /** The snapshot, its checkpoint arrays as float64 bytes: a copy to decode, not 130 k numbers. */
  index: Omit<LineIndexSnapshot, 'lines' | 'offsets'> & { lines: Uint8Array; offsets: Uint8Array };
}

/**
 * Where the CLI keeps line indexes of large files: `$SPOOLFORGE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/spoolforge`, else `~/.cache/spoolforge`; `SPOOLFORGE_CACHE_DIR=off` turns
 * the cache off.
 *
 * @example
 * ```ts
 * lineIndexCacheDirectory({ SPOOLFORGE_CACHE_DIR: '/tmp/cache' }); // '/tmp/cache/line-index'
 * ```
 */
export function lineIndexCacheDirectory(environment = process.env): string | undefined {
  const configured = environment.SPOOLFORGE_CACHE_DIR;
  if (configured === 'off') return undefined;
  const base =
    configured || join(environment.XDG_CACHE_HOME || join(homedir(), '.cache'), 'spoolforge');
  return join(base, 'line-index');
}

/**
 * The persisted index of `file` when one exists for this very version of it (same path, size,
 * mtime, ctime, inode and device); a missing, stale or corrupt cache entry gives `undefined`.
 *
 * @example
 * ```ts
 * const index = (await loadLineIndex(file)) ?? new LineIndex();
 * ```
 */
export async function loadLineIndex(file: CachedFile): Promise<LineIndex | undefined> {
  const location = await cacheLocation(file);
  if (!location) return undefined;
  try {
    const entry = decode(await readFile(location.path)) as CacheEntry;
    const expected = entryKey(file, location.realPath);
    const matches = Object.entries(expected).every(
      ([key, value]) => entry[key as keyof CacheEntry] === value,
    );
    if (!matches) return undefined;
    const index = LineIndex.fromSnapshot({
      ...entry.index,
      lines: numbersOf(entry.index.lines),
      offsets: numbersOf(entry.index.offsets),
    });
    const now = new Date();
    await utimes(location.path, now, now).catch(() => undefined); // used: not pruned
    return index;
  } catch {
    return undefined;
  }
}

/**
 * Persists `index` for `file` (temp file and rename, `0600` in a `0700` directory). Failing to
 * write a cache (a read-only home) never fails the command.
 *
 * @example
 * ```ts
 * await saveLineIndex(file, index);
 * ```
 */
export async function saveLineIndex(file: CachedFile, index: LineIndex): Promise<void> {
  const location = await cacheLocation(file);
  if (!location) return;
  const snapshot = index.snapshot();
  const entry: CacheEntry = {
    ...entryKey(file, location.realPath),
    index: { ...snapshot, lines: bytesOf(snapshot.lines), offsets: bytesOf(snapshot.offsets) },
  };
  const temporary = `${location.path}.${process.pid}.tmp`;
  try {
    await mkdir(location.directory, { recursive: true, mode: 0o700 });
    await writeFile(temporary, encode(entry), { mode: 0o600 });
    await rename(temporary, location.path);
    await pruneUnused(location.directory);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

async function pruneUnused(directory: string): Promise<void> {
  for (const name of await readdir(directory)) {
    if (!name.endsWith('.msgpack')) continue;
    const path = join(directory, name);
    const stats = await stat(path).catch(() => undefined);
    if (stats && Date.now() - stats.mtimeMs > unusedEntryMilliseconds) {
      await rm(path, { force: true });
    }
  }
}

async function cacheLocation(file: CachedFile) {
  const directory = lineIndexCacheDirectory();
  if (!directory || file.stats.size < minimumCachedFileBytes) return undefined;
  const realPath = await realpath(file.path).catch(() => undefined);
  if (!realPath) return undefined;
  const name = createHash('sha256').update(realPath).digest('hex');
  return { directory, realPath, path: join(directory, `${name}.msgpack`) };
}

function entryKey(file: CachedFile, realPath: string): Omit<CacheEntry, 'index'> {
  const { stats } = file;
  return {
    version: formatVersion,
    path: realPath,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    inode: stats.ino,
    device: stats.dev,
  };
}

function bytesOf(numbers: number[]): Uint8Array {
  return new Uint8Array(Float64Array.from(numbers).buffer);
}

/** A decoded view may sit at any byte offset (of a Buffer's pool): copied to read as float64. */
function numbersOf(bytes: Uint8Array): number[] {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return Array.from(new Float64Array(copy.buffer));
}
