import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { fileError } from '../spool/file-errors.js';
import type { SpoolReader } from '../spool/spool-reader.js';

const brand = Symbol.for('spoolforge.media');

/**
 * Options for a {@link Media}.
 */
export interface MediaOptions {
  /** `type/subtype`, e.g. `image/png` or `application/pdf`. */
  mediaType: string;
  /** A label for people and models (a file name); never needed to read the bytes. */
  name?: string;
  /** Largest accepted size in bytes. Default {@link Media.defaultMaxBytes}. */
  maxBytes?: number;
}

/**
 * Options for {@link Media.fromFile}: the media type is sniffed when not given, the name
 * defaults to the file's base name.
 */
export interface MediaFromFileOptions extends Partial<MediaOptions> {
  signal?: AbortSignal;
}

/** Magic bytes of the formats providers accept as native blocks; `undefined` matches any byte. */
const signatures: readonly { mediaType: string; magic: readonly (number | undefined)[] }[] = [
  { mediaType: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mediaType: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { mediaType: 'image/gif', magic: [0x47, 0x49, 0x46, 0x38] }, // GIF8 (GIF87a, GIF89a)
  {
    mediaType: 'image/webp', // RIFF <size> WEBP
    magic: [
      0x52,
      0x49,
      0x46,
      0x46,
      undefined,
      undefined,
      undefined,
      undefined,
      0x57,
      0x45,
      0x42,
      0x50,
    ],
  },
  { mediaType: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
];

const mediaTypePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/**
 * The media type of PNG, JPEG, GIF, WebP or PDF bytes, from their magic bytes; `undefined`
 * for anything else.
 *
 * @example
 * ```ts
 * sniffMediaType(await readFile('chart.png')); // 'image/png'
 * ```
 */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  return signatures.find(({ magic }) =>
    magic.every((byte, index) => byte === undefined || bytes[index] === byte),
  )?.mediaType;
}

/**
 * Binary output (an image, a PDF) that reaches a provider as a native content block, never as
 * base64 inside text. The sibling of a spooled artifact: bytes stay in memory, so the size is
 * capped (`E_ARTIFACT_TOO_LARGE` past `maxBytes`, 20 MiB by default, which providers accept).
 *
 * @example
 * ```ts
 * const chart = await Media.fromFile('chart.png');
 * chart.mediaType; // 'image/png'
 * const source = { type: 'base64', media_type: chart.mediaType, data: chart.toBase64() };
 * const block = { type: 'image', source };
 * ```
 */
export class Media {
  static readonly defaultMaxBytes = 20 * 1024 * 1024;
  readonly [brand] = true;
  readonly bytes: Uint8Array;
  readonly mediaType: string;
  readonly name: string | undefined;

  constructor(bytes: Uint8Array, options: MediaOptions) {
    const mediaType = options.mediaType.trim().toLowerCase();
    if (!mediaTypePattern.test(mediaType)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `mediaType must look like 'image/png', got '${options.mediaType}'`,
      );
    }
    checkSize(bytes.length, options.maxBytes, options.name ?? mediaType);
    this.bytes = bytes;
    this.mediaType = mediaType;
    this.name = options.name;
  }

  /** Size in bytes. */
  get byteLength(): number {
    return this.bytes.length;
  }

  /**
   * Reads a file whole (after checking its size, so an oversized file is never read). Without
   * `mediaType`, sniffs PNG, JPEG, GIF, WebP or PDF and rejects anything else with
   * `E_INVALID_ARGUMENT`.
   *
   * @example
   * ```ts
   * const report = await Media.fromFile('report.pdf', { signal: AbortSignal.timeout(5_000) });
   * ```
   */
  static async fromFile(path: string, options: MediaFromFileOptions = {}): Promise<Media> {
    const { signal } = options;
    throwIfAborted(signal);
    const handle = await open(path, 'r').catch((error: unknown) => {
      throw fileError(path, error);
    });
    let bytes: Uint8Array;
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) {
        throw fileError(path, Object.assign(new Error('Is a directory'), { code: 'EISDIR' }));
      }
      checkSize(stats.size, options.maxBytes, path);
      const buffer = await handle.readFile(signal ? { signal } : {}).catch((error: unknown) => {
        throwIfAborted(signal);
        throw fileError(path, error);
      });
      // A plain Uint8Array view, so `bytes` is the same type however the Media was made.
      bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } finally {
      await handle.close();
    }
    // The file may have grown between stat and read.
    checkSize(bytes.length, options.maxBytes, path);
    const mediaType = options.mediaType ?? sniffMediaType(bytes);
    if (mediaType === undefined) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `${path}: not a PNG, JPEG, GIF, WebP or PDF file; pass { mediaType } to send other media`,
      );
    }
    return new Media(bytes, {
      mediaType,
      name: options.name ?? basename(path),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    });
  }

  /** True for any `Media`, even one made by another copy of the package (a global brand). */
  static isInstance(value: unknown): value is Media {
    return typeof value === 'object' && value !== null && brand in value && value[brand] === true;
  }

  /**
   * The bytes as base64, for provider APIs that take base64 in a media block's own field.
   *
   * @example
   * ```ts
   * const url = `data:${media.mediaType};base64,${media.toBase64()}`;
   * ```
   */
  toBase64(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString(
      'base64',
    );
  }

  /**
   * True for `image/*`; providers take images and documents (PDF) in different blocks.
   *
   * @example
   * ```ts
   * const block = media.isImage() ? imageBlock(media) : documentBlock(media);
   * ```
   */
  isImage(): boolean {
    return this.mediaType.startsWith('image/');
  }
}

function checkSize(byteLength: number, maxBytes = Media.defaultMaxBytes, label: string): void {
  if (byteLength > maxBytes) {
    throw new SpoolforgeError(
      'E_ARTIFACT_TOO_LARGE',
      `${label}: ${byteLength} bytes is over the media limit of ${maxBytes} bytes; ` +
        'pass a larger { maxBytes } or send a smaller file',
    );
  }
}

/**
 * The bytes of a spooled artifact as `Media` when they are an image or a PDF (by their magic
 * bytes, whatever media type they were stored under), else `undefined`. Over `maxBytes`
 * (default 20 MiB) is `E_ARTIFACT_TOO_LARGE`, before anything past the first bytes is read.
 *
 * @example
 * ```ts
 * const media = await readMedia(artifact, { maxBytes: 5 * 1024 * 1024 });
 * if (media) console.log(media.mediaType, media.byteLength);
 * ```
 */
export async function readMedia(
  artifact: { reader: SpoolReader; name?: string | undefined },
  options: { maxBytes?: number; signal?: AbortSignal } = {},
): Promise<Media | undefined> {
  const read = options.signal ? { signal: options.signal } : {};
  const byteLength = await artifact.reader.byteLength();
  const mediaType = sniffMediaType(await artifact.reader.read(0, Math.min(16, byteLength), read));
  if (mediaType === undefined) return undefined;
  checkSize(byteLength, options.maxBytes, artifact.name ?? mediaType);
  const bytes = await artifact.reader.read(0, byteLength, read);
  // A plain Uint8Array view, as every Media holds.
  return new Media(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    mediaType,
    ...(artifact.name === undefined ? {} : { name: artifact.name }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
}
