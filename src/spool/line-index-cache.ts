import type { Stats } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fs } from '../shared/node-fs.js';
import { LineIndex } from './line-index.js';

/** Smaller files are scanned again: reading them costs less than a cache file. */
export const minimumCachedFileBytes = 16 * 1024 * 1024;
/** Entries unused this long are removed when another is saved: rotated logs leave none behind. */
const unusedEntryMilliseconds = 30 * 24 * 60 * 60 * 1000;
/** Entries of an older format are ignored, then overwritten by the next save. */
const formatVersion = 5;
/**
 * Entries keep one checkpoint a MiB or more, and at most 1024 (16 KiB of entry; a 4 GiB file's
 * one every 4 MiB). Reading a few MiB more to reach a line costs about a millisecond; reading,
 * checking and hashing the 1 MiB of a full 4 GiB index cost some 20 ms of every call, and even
 * 4096 checkpoints cost 3 ms more than 1024 (checked and hashed before the JIT warms up).
 */
const cachedStrideBytes = 1024 * 1024;
const maximumCachedCheckpoints = 1024;
/**
 * An entry is this magic, the header's length (uint32 LE), the header (JSON, padded with spaces
 * to a multiple of 8 bytes), the checkpoints as raw float64 arrays, and a 64-bit checksum of
 * all that: loading one is a read, a hash and two views, no decoder to import and no numbers
 * to convert, and a changed byte (shifted checkpoints that still ascend) cannot give wrong lines.
 */
const magic = 'SFLINDEX';
const headerStart = magic.length + 4;
const checksumBytes = 8;
const byteOrder = new Uint8Array(Float64Array.of(1).buffer)[7] === 0x3f ? 'LE' : 'BE';

/**
 * A regular file as the CLI or `mcp serve` opened it: the path and the stats that key its cached index.
 */
export interface CachedFile {
  path: string;
  stats: Stats;
}

interface EntryHeader {
  version: number;
  byteOrder: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  inode: number;
  device: number;
  stride: number;
  byteLength: number;
  newlineCount: number;
  endsWithNewline: boolean;
  checkpointCount: number;
}

/**
 * Where the CLI and `mcp serve` keep line indexes of large files: `$SPOOLFORGE_CACHE_DIR`, else
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
 * The persisted index of `file` when one exists for this very version of it (same device,
 * inode, size, mtime and ctime) and its checksum holds; a missing, stale or corrupt cache entry
 * gives `undefined` (and the caller's next save replaces it).
 *
 * @example
 * ```ts
 * const file = { path, stats: await stat(path) };
 * const index = (await loadLineIndex(file)) ?? new LineIndex();
 * ```
 */
export async function loadLineIndex(file: CachedFile): Promise<LineIndex | undefined> {
  const location = cacheLocation(file);
  if (!location) return undefined;
  try {
    // Synchronous: 16 KiB at most, and each trip through the thread pool costs a `lines` call
    // more than the read itself.
    const index = decodeEntry(file, fs.readFileSync(location.path));
    if (!index) return undefined;
    const now = new Date();
    try {
      fs.utimesSync(location.path, now, now); // used: not pruned
    } catch {}
    return index;
  } catch {
    return undefined;
  }
}

/**
 * Options for {@link saveLineIndex}.
 */
export interface SaveLineIndexOptions {
  /**
   * Told in one line, when it is a terminal, that the cache directory was just created (the
   * first save): a cache written unasked under the home directory should not be a surprise.
   */
  stderr?: () => NodeJS.WriteStream;
}

/**
 * Persists `index` for `file` (temp file and rename, `0600` in a `0700` directory). Failing to
 * write a cache (a read-only home) never fails the command.
 *
 * @example
 * ```ts
 * await saveLineIndex({ path, stats: await stat(path) }, index, { stderr: () => process.stderr });
 * ```
 */
export async function saveLineIndex(
  file: CachedFile,
  index: LineIndex,
  options: SaveLineIndexOptions = {},
): Promise<void> {
  const location = cacheLocation(file);
  if (!location) return;
  const temporary = `${location.path}.${process.pid}.tmp`;
  try {
    if (await mkdir(location.directory, { recursive: true, mode: 0o700 })) {
      const stderr = options.stderr?.();
      if (stderr?.isTTY) {
        stderr.write(
          `spoolforge: keeping line indexes of large files in ${location.directory} (SPOOLFORGE_CACHE_DIR=off turns this off)\n`,
        );
      }
    }
    await writeFile(temporary, encodeEntry(file, index), { mode: 0o600 });
    await rename(temporary, location.path);
    await pruneUnused(location.directory);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** Removes entries unused for 30 days, and the msgpack entries of format 2 at once. */
async function pruneUnused(directory: string): Promise<void> {
  for (const name of await readdir(directory)) {
    const path = join(directory, name);
    const stats = await stat(path).catch(() => undefined);
    if (
      stats &&
      (name.endsWith('.msgpack') || Date.now() - stats.mtimeMs > unusedEntryMilliseconds)
    ) {
      await rm(path, { force: true });
    }
  }
}

/**
 * Entries are named by device and inode, so no path needs resolving or hashing; hard links share
 * one. Size, mtime and ctime in the header tell a reused inode or a changed file.
 */
function cacheLocation(file: CachedFile) {
  const directory = lineIndexCacheDirectory();
  if (!directory || file.stats.size < minimumCachedFileBytes) return undefined;
  return { directory, path: join(directory, `${file.stats.dev}-${file.stats.ino}.index`) };
}

function fileKey({ stats }: CachedFile) {
  return {
    version: formatVersion,
    byteOrder,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    inode: stats.ino,
    device: stats.dev,
  };
}

function encodeEntry(file: CachedFile, index: LineIndex): Buffer {
  const { lines, offsets, stride, ...scalars } = index.snapshot();
  const step = Math.max(
    Math.ceil(cachedStrideBytes / stride),
    Math.ceil(lines.length / maximumCachedCheckpoints),
  );
  const kept = (values: number[]) => Float64Array.from(values.filter((_, at) => at % step === 0));
  const header: EntryHeader = {
    ...fileKey(file),
    ...scalars,
    stride: stride * step,
    checkpointCount: Math.ceil(lines.length / step),
  };
  let text = JSON.stringify(header);
  text = text.padEnd(text.length + ((8 - ((headerStart + text.length) % 8)) % 8));
  const prefix = Buffer.alloc(headerStart);
  prefix.write(magic, 'latin1');
  prefix.writeUInt32LE(text.length, magic.length);
  const body = Buffer.concat([
    prefix,
    Buffer.from(text, 'latin1'),
    new Uint8Array(kept(lines).buffer),
    new Uint8Array(kept(offsets).buffer),
  ]);
  return Buffer.concat([body, checksum(body)]);
}

/**
 * FNV-1a over the 32-bit words of `bytes` (a multiple of 8 long, 4-byte aligned), in two lanes
 * with different mixing: 64 bits, and one changed word always changes both. Plain JavaScript,
 * because `node:crypto` loads some 30 modules (streams with it), a third of a `lines` call.
 */
function checksum(bytes: Uint8Array): Uint8Array {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  let first = 0x811c9dc5;
  let second = 0x2545f491;
  for (let at = 0; at < words.length; at++) {
    const word = words[at] as number;
    first = Math.imul(first ^ word, 0x01000193);
    second = Math.imul(second ^ (second >>> 15) ^ word, 0x2c1b3c6d);
  }
  return new Uint8Array(Uint32Array.of(first, second).buffer);
}

/** The index an entry holds when it is for this very version of `file`, else `undefined`. */
function decodeEntry(file: CachedFile, bytes: Buffer): LineIndex | undefined {
  if (bytes.length < headerStart || bytes.toString('latin1', 0, magic.length) !== magic) {
    return undefined;
  }
  // Views need 8-byte alignment in their buffer: readFile's own buffer has it, a copy does too.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(new Uint8Array(bytes).buffer);
  const checked = aligned.length - checksumBytes;
  if (
    checked < headerStart ||
    checked % 8 !== 0 ||
    !Buffer.from(checksum(aligned.subarray(0, checked))).equals(aligned.subarray(checked))
  ) {
    return undefined;
  }
  const dataStart = headerStart + aligned.readUInt32LE(magic.length);
  if (dataStart % 8 !== 0 || dataStart > checked) return undefined;
  const header = JSON.parse(aligned.toString('latin1', headerStart, dataStart)) as EntryHeader;
  const matches = Object.entries(fileKey(file)).every(
    ([key, value]) => header[key as keyof EntryHeader] === value,
  );
  const count = header.checkpointCount;
  if (!matches || !Number.isSafeInteger(count) || checked !== dataStart + count * 16) {
    return undefined;
  }
  // The index covers a prefix of the file: checkpoints bounded by it stay inside the file.
  if (!(header.byteLength <= file.stats.size)) return undefined;
  const checkpoints = (start: number) =>
    new Float64Array(aligned.buffer, aligned.byteOffset + start, count);
  return LineIndex.fromSnapshot({
    stride: header.stride,
    byteLength: header.byteLength,
    newlineCount: header.newlineCount,
    endsWithNewline: header.endsWithNewline,
    lines: checkpoints(dataStart),
    offsets: checkpoints(dataStart + count * 8),
  });
}
