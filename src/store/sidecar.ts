import { createHash } from 'node:crypto';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { LineIndex, type LineIndexSnapshot } from '../spool/line-index.js';
import type { StoredArtifactRecord } from './artifact-store-types.js';
import { msgpack } from './msgpack.js';

/**
 * Bumped when the sidecar layout changes; a reader refuses versions it does not know. Format 1
 * (no checksums) is still read as it was.
 */
export const sidecarFormatVersion = 2;

/**
 * The largest epoch milliseconds a `Date` holds: an expiry past it is "never".
 *
 * @example
 * ```ts
 * const expiresAt = createdAt + ttl > lastDateMilliseconds ? undefined : createdAt + ttl;
 * ```
 */
export const lastDateMilliseconds = 8.64e15;

/** Enough for any header with modest metadata; a larger one is read whole. */
export const sidecarHeaderBytes = 16 * 1024;

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
 * The sidecar's bytes: two concatenated msgpack values, so listings decode the small first one
 * and stop. The first is `{ format, header, sha256 }`, `header` being the msgpack bytes of the
 * record, `writtenAt` and the SHA-256 of the second value's bytes: the line index snapshot.
 * Any changed byte then fails a checksum instead of giving wrong lines or a wrong record.
 *
 * @example
 * ```ts
 * const bytes = encodeSidecar({ record, writtenAt: performance.timeOrigin + performance.now() }, index.snapshot());
 * ```
 */
export function encodeSidecar(header: SidecarHeader, index: LineIndexSnapshot): Uint8Array {
  const { encode } = msgpack();
  const indexBytes = encode(index);
  const headerBytes = encode(
    { ...header.record, writtenAt: header.writtenAt, indexSha256: sha256(indexBytes) },
    { ignoreUndefined: true },
  );
  const envelope = {
    format: sidecarFormatVersion,
    header: headerBytes,
    sha256: sha256(headerBytes),
  };
  return Buffer.concat([encode(envelope), encode(indexBytes)]);
}

/**
 * Decodes and checks a sidecar's header from its first bytes (or all of them). `undefined` when
 * `partial` bytes end inside the header: read the whole sidecar. Damage gives `E_ARTIFACT_DAMAGED`.
 *
 * @example
 * ```ts
 * const header = decodeSidecarHeader(id, firstBytes, { partial: firstBytes.length === sidecarHeaderBytes });
 * ```
 */
export function decodeSidecarHeader(
  id: string,
  bytes: Uint8Array,
  options: { partial?: boolean } = {},
): SidecarHeader | undefined {
  const values = decodeValues(id, bytes, 1, options);
  return values && openEnvelope(id, values[0]).header;
}

/**
 * A sidecar's header from its first {@link sidecarHeaderBytes}, reading the whole sidecar only
 * when the header runs past them: how both a local and an S3 store read one. `undefined` when
 * `first` finds no sidecar.
 *
 * @example
 * ```ts
 * const header = await readSidecarHeaderFrom(id, async () => firstBytes, async () => firstBytes);
 * ```
 */
export async function readSidecarHeaderFrom(
  id: string,
  first: () => Promise<Uint8Array | undefined>,
  whole: () => Promise<Uint8Array | undefined>,
): Promise<SidecarHeader | undefined> {
  const prefix = await first();
  if (prefix === undefined) return undefined;
  const header = decodeSidecarHeader(id, prefix, { partial: prefix.length === sidecarHeaderBytes });
  if (header) return header;
  const bytes = await whole();
  return bytes && decodeSidecarHeader(id, bytes);
}

/**
 * A whole sidecar: its header and the line index it restores.
 *
 * @example
 * ```ts
 * const sidecar: DecodedSidecar = decodeSidecar(id, bytes);
 * ```
 */
export type DecodedSidecar = SidecarHeader & { lineIndex: LineIndex };

/**
 * Decodes a whole sidecar's bytes, the header and line index checked against each other;
 * damage gives `E_ARTIFACT_DAMAGED`.
 *
 * @example
 * ```ts
 * decodeSidecar(id, bytes).lineIndex.lineCount;
 * ```
 */
export function decodeSidecar(id: string, bytes: Uint8Array): DecodedSidecar {
  const [envelope, indexValue] = decodeValues(id, bytes, 2) ?? [];
  const { header, indexSha256 } = openEnvelope(id, envelope);
  let snapshot = indexValue;
  if (indexSha256 !== undefined) {
    if (!(indexValue instanceof Uint8Array) || sha256(indexValue) !== indexSha256) {
      throw damaged(id, 'has a line index that fails its checksum');
    }
    snapshot = decodeOrDamaged(id, indexValue, 'a line index');
  }
  let lineIndex: LineIndex;
  try {
    lineIndex = LineIndex.fromSnapshot(snapshot as LineIndexSnapshot);
  } catch (error) {
    throw damaged(id, 'has a malformed line index', error);
  }
  const { byteLength, lineCount } = header.record;
  if (lineIndex.byteLength !== byteLength || lineIndex.lineCount !== lineCount) {
    throw damaged(id, 'has a line index that does not match its header');
  }
  return { ...header, lineIndex };
}

/**
 * The name a damaged sidecar's bytes still claim, unchecked, or `undefined`.
 *
 * @example
 * ```ts
 * const name = claimedNameOf(bytes);
 * ```
 */
export function claimedNameOf(bytes: Uint8Array): string | undefined {
  try {
    const { decode, decodeMulti } = msgpack();
    const [envelope] = decodeMulti(bytes) as Iterable<Record<string, unknown>>;
    const fields = envelope?.header instanceof Uint8Array ? decode(envelope.header) : envelope;
    const name = (fields as Record<string, unknown> | undefined)?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first `count` values; `undefined` when `partial` bytes end inside them (read more),
 * `E_ARTIFACT_DAMAGED` when the bytes are not msgpack or hold fewer values.
 */
function decodeValues(
  id: string,
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
    throw damaged(id, 'is not valid msgpack', error);
  }
  throw damaged(id, `holds ${values.length} of ${count} values`);
}

/**
 * The header of a sidecar's first value, checked: format 2 against its checksum (and with the
 * checksum the line index must have), format 1 as it stands.
 */
function openEnvelope(
  id: string,
  value: unknown,
): { header: SidecarHeader; indexSha256: string | undefined } {
  const envelope = asObject(value);
  if (envelope.format === 1) return { header: parseHeader(id, envelope), indexSha256: undefined };
  if (envelope.format !== sidecarFormatVersion) {
    throw damaged(id, `has format ${String(envelope.format)}, not ${sidecarFormatVersion}`);
  }
  const { header: bytes, sha256: checksum } = envelope;
  if (!(bytes instanceof Uint8Array) || sha256(bytes) !== checksum) {
    throw damaged(id, 'fails its checksum');
  }
  const fields = asObject(decodeOrDamaged(id, bytes, 'a header'));
  const { indexSha256 } = fields;
  if (typeof indexSha256 !== 'string') throw damaged(id, 'has a malformed header');
  return { header: parseHeader(id, fields), indexSha256 };
}

function parseHeader(id: string, header: Record<string, unknown>): SidecarHeader {
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
  if (!wellFormed) throw damaged(id, 'has a malformed header');
  const record: StoredArtifactRecord = {
    id,
    name,
    kind,
    mediaType,
    byteLength,
    lineCount,
    createdAt: createdAt as number,
    // Written by versions that took any finite ttl: past what a Date holds, it never comes.
    expiresAt: (expiresAt as number) > lastDateMilliseconds ? undefined : (expiresAt as number),
    metadata: metadata as Record<string, unknown>,
    sha256,
  };
  return { record, writtenAt: writtenAt as number };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function decodeOrDamaged(id: string, bytes: Uint8Array, what: string): unknown {
  try {
    return msgpack().decode(bytes);
  } catch (error) {
    throw damaged(id, `has ${what} in invalid msgpack`, error);
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The message names the artifact, not a path: it may be shown to HTTP clients. */
function damaged(id: string, reason: string, cause?: unknown): SpoolforgeError {
  return new SpoolforgeError(
    'E_ARTIFACT_DAMAGED',
    `Artifact ${id} is damaged: its sidecar ${reason}`,
    {
      cause,
    },
  );
}
