import { type FileHandle, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ArtifactKind } from '../artifact/detect-kind.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { fileError } from '../spool/file-errors.js';
import { readFully } from '../spool/file-io.js';
import { LineIndex, type LineIndexSnapshot } from '../spool/line-index.js';
import type { StoredArtifactRecord } from './artifact-store-types.js';

/** Bumped when the sidecar layout changes; a reader refuses versions it does not know. */
export const sidecarFormatVersion = 1;

let loadedMsgpack: typeof import('@msgpack/msgpack') | undefined;

/**
 * @msgpack/msgpack, loaded by the store's first use rather than with the library (a synchronous
 * require, since encoding is synchronous; the package is stateless, so its CommonJS copy is
 * as good as the ES one).
 *
 * @example
 * ```ts
 * msgpack().encode({ a: 1 });
 * ```
 */
export function msgpack(): typeof import('@msgpack/msgpack') {
  loadedMsgpack ??= createRequire(import.meta.url)(
    '@msgpack/msgpack',
  ) as typeof import('@msgpack/msgpack');
  return loadedMsgpack;
}

/** Enough for any header with modest metadata; a larger one is read whole. */
const headerReadBytes = 16 * 1024;

/**
 * A sidecar's first value: the record, and when the sidecar was written (epoch milliseconds
 * with sub-millisecond precision), which orders two puts within the same `createdAt`.
 *
 * @example
 * ```ts
 * const header: SidecarHeader | undefined = await readSidecarHeader(path, id);
 * ```
 */
export interface SidecarHeader {
  record: StoredArtifactRecord;
  writtenAt: number;
}

/**
 * The sidecar's bytes: two concatenated msgpack values, the header (format version, record,
 * `writtenAt`) and then the line index snapshot, so listings decode the small header and stop.
 *
 * @example
 * ```ts
 * const bytes = encodeSidecar({ record, writtenAt: performance.timeOrigin + performance.now() }, index.snapshot());
 * ```
 */
export function encodeSidecar(header: SidecarHeader, index: LineIndexSnapshot): Uint8Array {
  const { encode } = msgpack();
  const head = encode(
    { format: sidecarFormatVersion, ...header.record, writtenAt: header.writtenAt },
    { ignoreUndefined: true },
  );
  return Buffer.concat([head, encode(index)]);
}

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
  return withSidecar(path, async (handle) => {
    const prefix = await readFully(handle, 0, headerReadBytes);
    const values =
      decodeValues(path, prefix, 1, { partial: prefix.length === headerReadBytes }) ??
      decodeValues(path, await readWhole(handle), 1);
    return parseHeader(path, id, values?.[0]);
  });
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
export async function readSidecar(
  path: string,
  id: string,
): Promise<(SidecarHeader & { lineIndex: LineIndex }) | undefined> {
  return withSidecar(path, async (handle) => {
    const [header, snapshot] = decodeValues(path, await readWhole(handle), 2) ?? [];
    const parsed = parseHeader(path, id, header);
    let lineIndex: LineIndex;
    try {
      lineIndex = LineIndex.fromSnapshot(snapshot as LineIndexSnapshot);
    } catch (error) {
      throw damaged(path, 'its line index is malformed', error);
    }
    const { byteLength, lineCount } = parsed.record;
    if (lineIndex.byteLength !== byteLength || lineIndex.lineCount !== lineCount) {
      throw damaged(path, 'its line index does not match its header');
    }
    return { ...parsed, lineIndex };
  });
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

/**
 * The first `count` values; `undefined` when `partial` bytes end inside them (read more),
 * `E_ARTIFACT_DAMAGED` when the bytes are not msgpack or hold fewer values.
 */
function decodeValues(
  path: string,
  bytes: Uint8Array,
  count: number,
  options: { partial?: boolean } = {},
): unknown[] | undefined {
  const values: unknown[] = [];
  try {
    for (const value of msgpack().decodeMulti(bytes)) {
      if (values.push(value) === count) return values;
    }
  } catch (error) {
    if (options.partial && error instanceof RangeError) return undefined;
    throw damaged(path, 'it is not valid msgpack', error);
  }
  throw damaged(path, `it holds ${values.length} of ${count} values`);
}

function parseHeader(path: string, id: string, value: unknown): SidecarHeader {
  const header = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  if (header.format !== sidecarFormatVersion) {
    throw damaged(path, `format ${String(header.format)} is not ${sidecarFormatVersion}`);
  }
  const { name, kind, mediaType, byteLength, lineCount, createdAt, expiresAt } = header;
  const { metadata, sha256, writtenAt } = header;
  const wellFormed =
    header.id === id &&
    (name === undefined || typeof name === 'string') &&
    typeof kind === 'string' &&
    (mediaType === undefined || typeof mediaType === 'string') &&
    isCount(byteLength) &&
    isCount(lineCount) &&
    Number.isFinite(createdAt) &&
    (expiresAt === undefined || Number.isFinite(expiresAt)) &&
    typeof metadata === 'object' &&
    metadata !== null &&
    !Array.isArray(metadata) &&
    typeof sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(sha256) &&
    Number.isFinite(writtenAt);
  if (!wellFormed) throw damaged(path, 'its header is malformed');
  const record: StoredArtifactRecord = {
    id,
    name,
    kind: kind as ArtifactKind,
    mediaType,
    byteLength,
    lineCount,
    createdAt: createdAt as number,
    expiresAt: expiresAt as number | undefined,
    metadata: metadata as Record<string, unknown>,
    sha256,
  };
  return { record, writtenAt: writtenAt as number };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function damaged(path: string, reason: string, cause?: unknown): SpoolforgeError {
  return new SpoolforgeError(
    'E_ARTIFACT_DAMAGED',
    `${path}: damaged artifact sidecar (${reason})`,
    {
      cause,
    },
  );
}
